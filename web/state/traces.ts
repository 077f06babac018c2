import { BUNDLED_TRACES } from '../../shared/scenarios/presets.ts';
import { quote } from '../../shared/text/quote.ts';
import type { PageCatalogue } from './catalogue.ts';

/** The bundled traces the page can run: all but those its relay holds out. */
export const offeredTraces = (catalogue: PageCatalogue): string[] => BUNDLED_TRACES.map((t) => t.name).filter((name) => !catalogue.heldOutTraces.includes(name));

/**
 * Takes a trace the relay holds out from a link's query, and says why: the view opens on its default trace,
 * where its runs would only fail on a file the relay refuses.
 */
export function dropHeldOutTrace(query: URLSearchParams, catalogue: PageCatalogue): string[] {
  const trace = query.get('trace');
  if (trace === null || !catalogue.heldOutTraces.includes(trace)) return [];
  query.delete('trace');
  return [`the trace ${quote(trace)} is held out for this relay's class contest, which never serves it`];
}
