import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { namedSegmentsTrace } from '../shared/stress/segments.ts';
import { parseTrace, TraceError, type Trace } from '../shared/trace/mahimahi.ts';
import { projectRoot } from './root.ts';

export const TRACE_DIR = join(projectRoot(import.meta.url), 'public/traces');

const cache = new Map<string, Trace>();

/** A bundled trace by file name (e.g. "Verizon-LTE-short.down"), or a Mahimahi file by path. */
export function loadTrace(name: string): Trace {
  const hit = cache.get(name);
  if (hit) return hit;
  const generated = namedSegmentsTrace(name);
  if (generated) return generated;
  const bundled = join(TRACE_DIR, name);
  const path = /^[\w.-]+$/.test(name) && existsSync(bundled) ? bundled : name;
  if (!existsSync(path)) throw new TraceError(`no bundled trace or file named "${name}"`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    // A directory, a file this process may not read: a mistake in the name given, said as one.
    throw new TraceError(`${name} cannot be read as a trace (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let trace: Trace;
  try {
    trace = parseTrace(text, name);
  } catch (e) {
    if (e instanceof TraceError) throw new TraceError(`${name}: ${e.message}`);
    throw e;
  }
  cache.set(name, trace);
  return trace;
}
