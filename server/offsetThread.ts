import { Worker } from 'node:worker_threads';
import type { Submission } from '../shared/offset/policy.ts';
import type { OffsetServerOptions } from './offsetServer.ts';
import type { FromWorker } from './offsetWorker.ts';
import type { SessionSummary } from './sessionRecords.ts';

/** An offset server running in its own thread, so the relay's main thread keeps the bridge and HTTP. */
export interface OffsetThread {
  readonly port: number;
  stats(): Promise<{ sessions: number; handled: number }>;
  sessions(): Promise<SessionSummary[]>;
  sessionCsv(id: string): Promise<string | null>;
  /** The policy a key's sessions start under (checked values of OFFSET_PARAMS), or null for the server's. */
  setSessionPolicy(key: string, values: Record<string, number | string> | null): Promise<void>;
  close(): Promise<void>;
}

const BOOT = new URL('./threadBoot.mjs', import.meta.url);
const MODULE = new URL('./offsetWorker.ts', import.meta.url).href;

export function startOffsetThread(o: OffsetServerOptions): Promise<OffsetThread> {
  const { onSubmit, bridgedPorts, ...rest } = o;
  const worker = new Worker(BOOT, { workerData: { module: MODULE, options: { ...rest, bridgedPorts: bridgedPorts?.buffer ?? null } } });
  const waiting: ((s: { sessions: number; handled: number }) => void)[] = [];
  const answers = new Map<number, (body: unknown) => void>();
  let asked = 0;
  const ask = <T>(m: { type: string; id?: string; values?: Record<string, number | string> | null }) =>
    new Promise<T>((r) => {
      answers.set(++asked, r as (body: unknown) => void);
      worker.postMessage({ ...m, n: asked });
    });
  return new Promise((resolve, reject) => {
    worker.on('error', reject);
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'failed') reject(Object.assign(new Error(m.message), { code: m.code }));
      else if (m.type === 'submit') {
        const { type: _, n, from, ...s } = m;
        const stored = onSubmit?.(s satisfies Submission, from);
        // The thread holds a ranked Submit's answer until its record is on disk, or refused.
        const recorded = (notKept: string | null) => worker.postMessage({ type: 'recorded', n, notKept });
        if (s.ranked)
          void Promise.resolve(stored).then(
            (why) => recorded(why ?? null),
            (e: unknown) => recorded(String((e as Error | undefined)?.message ?? e)),
          );
      } else if (m.type === 'stats') waiting.shift()?.(m);
      else if (m.type === 'answer') {
        answers.get(m.n)?.(m.body);
        answers.delete(m.n);
      } else if (m.type === 'ready') {
        resolve({
          port: m.port,
          stats: () => new Promise((r) => (waiting.push(r), worker.postMessage({ type: 'stats' }))),
          sessions: () => ask<SessionSummary[]>({ type: 'sessions' }),
          sessionCsv: (id) => ask<string | null>({ type: 'csv', id }),
          setSessionPolicy: (key, values) => ask<void>({ type: 'session-policy', id: key, values }),
          close: () =>
            new Promise<void>((r) => {
              worker.once('exit', () => r());
              worker.postMessage({ type: 'close' });
            }),
        });
      }
    });
  });
}
