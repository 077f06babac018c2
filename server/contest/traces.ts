import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { bundledTraceFiles } from '../../shared/scenarios/presets.ts';
import { TRACE_DIR } from '../traces.ts';

const texts = new Map<string, Record<string, string>>();

/**
 * The files a contest trace reads, as the sandbox is given them (it may read no file itself): a bundled
 * trace's downlink and uplink from the relay's trace folder, or a trace file given by path (which carries
 * both directions, as `npm run sim -- --trace FILE` runs it).
 */
export function traceFiles(trace: string): Record<string, string> {
  let files = texts.get(trace);
  if (!files) {
    const names = bundledTraceFiles(trace);
    files = names.length > 0 ? Object.fromEntries(names.map((n) => [n, readFileSync(join(TRACE_DIR, n), 'utf8')])) : { [trace]: readFileSync(trace, 'utf8') };
    texts.set(trace, files);
  }
  return files;
}

/** How a trace is named to students: its bundled name, or its file's name. */
export const traceLabel = (trace: string) => (bundledTraceFiles(trace).length > 0 ? trace : basename(trace));
