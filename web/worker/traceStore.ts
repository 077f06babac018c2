/// <reference lib="webworker" />
import { namedSegmentsTrace, SEGMENTS_PREFIX } from '../../shared/stress/segments.ts';
import { parseTrace, type Trace } from '../../shared/trace/mahimahi.ts';
import { toPage } from './host.ts';
import type { WorkerResponse } from './protocol.ts';
import type { TraceAnswer } from './sandboxHost.ts';

/**
 * Bundled traces, asked of the page once (this worker may have no network: the page fetches them from its
 * own server, web/worker/sandboxHost.ts); uploaded ones as the page handed them over.
 */
const traces = new Map<string, Trace>();
const pending = new Map<string, Promise<Trace>>();
/**
 * Traces that came but could not be read: the page sends each trace once, so one asked for again would
 * never come. A run that asks is refused at once with why.
 */
const unreadable = new Map<string, Error>();
/** Asks for traces the page has not answered yet. */
const asked = new Map<string, { resolve(text: string): void; reject(e: Error): void }>();

export function loadTrace(name: string): Promise<Trace> {
  const have = traces.get(name);
  if (have) return Promise.resolve(have);
  const refused = unreadable.get(name);
  if (refused) return Promise.reject(refused);
  // Made from its name, and not kept: a search tries hundreds.
  if (name.startsWith(SEGMENTS_PREFIX)) return new Promise((resolve) => resolve(namedSegmentsTrace(name)!));
  let p = pending.get(name);
  if (!p) {
    p = new Promise<string>((resolve, reject) => {
      asked.set(name, { resolve, reject });
      toPage({ id: 0, kind: 'need-trace', name } satisfies WorkerResponse);
    }).then((text) => read(name, text));
    // A trace that failed to come is asked for again next time (the server may be back).
    p.catch(() => pending.delete(name));
    pending.set(name, p);
  }
  return p;
}

export function traceArrived(a: TraceAnswer): void {
  const waiting = asked.get(a.name);
  asked.delete(a.name);
  if ('error' in a) return waiting?.reject(new Error(a.error));
  // Sent unasked as the worker starts (the traces of the runs the page opens on): kept for the run that
  // asks. A copy that comes after (the answer to an ask made before it) is not read again.
  if (!waiting && traces.has(a.name)) return;
  const text = new TextDecoder().decode(a.bytes);
  if (waiting) return waiting.resolve(text);
  try {
    read(a.name, text);
  } catch {
    // kept in `unreadable`: the run that asks for it is told why
  }
}

/** Keeps a bundled trace that came, or why it cannot be read. */
function read(name: string, text: string): Trace {
  try {
    const t = parseTrace(text, name);
    traces.set(name, t);
    return t;
  } catch (err) {
    const why = new Error(`the trace ${name} is not a Mahimahi trace: ${(err as Error).message}`);
    unreadable.set(name, why);
    throw why;
  }
}

/** An uploaded trace, as the page handed it over: runs name it `upload:NAME`. */
export function keepUpload(name: string, trace: Trace): void {
  traces.set(`upload:${name}`, trace);
}
