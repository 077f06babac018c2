import { parentPort, workerData } from 'node:worker_threads';
import { PortSet } from './portSet.ts';
import { startOffsetServer, type OffsetServerOptions, type SubmitSource } from './offsetServer.ts';
import { withPolicyValues } from '../shared/offset/params.ts';
import type { Submission } from '../shared/offset/policy.ts';

/** The thread side of an offset server run off the relay's main thread (see offsetThread.ts). */
export type WorkerOptions = Omit<OffsetServerOptions, 'bridgedPorts' | 'onSubmit'> & { bridgedPorts: SharedArrayBuffer | null };

export type FromWorker =
  | { type: 'ready'; port: number }
  | ({ type: 'submit'; n: number; from: SubmitSource } & Submission)
  | { type: 'stats'; sessions: number; handled: number }
  | { type: 'answer'; n: number; body: unknown }
  | { type: 'failed'; message: string; code?: string };

const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
const o = (workerData as { options: WorkerOptions }).options;

/** Ranked Submits whose answers wait for the main thread to say their records are on disk (or why not), by number. */
const recording = new Map<number, (notKept: string | null) => void>();
let submits = 0;
const submitted = (s: Submission, from: SubmitSource) => {
  post({ type: 'submit', n: ++submits, from, ...s });
  return s.ranked ? new Promise<string | null>((r) => recording.set(submits, r)) : undefined;
};

try {
  const server = await startOffsetServer({
    ...o,
    bridgedPorts: o.bridgedPorts ? new PortSet(o.bridgedPorts) : null,
    onSubmit: submitted,
  });
  port.on('message', (m: { type: string; n: number; id: string; values?: Record<string, number | string> | null; notKept?: string | null }) => {
    if (m.type === 'recorded') {
      recording.get(m.n)?.(m.notKept ?? null);
      recording.delete(m.n);
    }
    if (m.type === 'session-policy') {
      server.policy.setSessionPolicy(m.id, m.values ? withPolicyValues(o.policy, m.values) : null);
      post({ type: 'answer', n: m.n, body: null });
    }
    if (m.type === 'stats') post({ type: 'stats', sessions: server.policy.sessionCount, handled: server.handled });
    if (m.type === 'sessions') post({ type: 'answer', n: m.n, body: server.records.summaries });
    if (m.type === 'csv') post({ type: 'answer', n: m.n, body: server.records.csv(m.id) });
    if (m.type === 'close') void server.close().then(() => port.close());
  });
  post({ type: 'ready', port: server.port });
} catch (e) {
  post({ type: 'failed', message: (e as Error).message, code: (e as { code?: string }).code });
}
