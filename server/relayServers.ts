import type { OffsetPolicyConfig, Submission } from '../shared/offset/policy.ts';
import { startOffsetServer, type OffsetServerOptions, type SubmitKept, type SubmitSource } from './offsetServer.ts';
import { startOffsetThread } from './offsetThread.ts';
import { withPolicyValues } from '../shared/offset/params.ts';
import type { PortSet } from './portSet.ts';
import type { RelayOptions } from './relayOptions.ts';
import type { SessionSummary } from './sessionRecords.ts';

export interface RunningOffsetServer {
  readonly port: number;
  sessions(): Promise<SessionSummary[]>;
  sessionCsv(id: string): Promise<string | null>;
  setSessionPolicy(key: string, values: Record<string, number | string> | null): Promise<void>;
  close(): Promise<void>;
}

async function inThisThread(options: OffsetServerOptions): Promise<RunningOffsetServer> {
  const server = await startOffsetServer(options);
  return Object.assign(server, {
    sessions: async () => server.records.summaries,
    sessionCsv: async (id: string) => server.records.csv(id),
    setSessionPolicy: async (key: string, values: Record<string, number | string> | null) => server.policy.setSessionPolicy(key, values ? withPolicyValues(options.policy, values) : null),
  });
}

/** One of the relay's offset servers, in a thread of its own unless `singleThread`. */
export function startOffsetServerFor(
  o: RelayOptions,
  file: Uint8Array,
  bridgedPorts: PortSet,
  variable: boolean,
  onSubmit: (s: Submission, from: SubmitSource) => SubmitKept,
): Promise<RunningOffsetServer> {
  const policy: OffsetPolicyConfig = { ...o.policy, variable };
  const options: OffsetServerOptions = {
    host: o.host,
    port: variable ? o.variablePort : o.constantPort,
    file,
    seed: o.seed,
    keyBy: o.keyBy,
    delayMs: o.delayMs,
    jitterMs: o.jitterMs,
    reorder: o.reorder,
    idleMs: o.idleMs,
    maxSessions: o.serverSessions,
    maxSessionsPerAddress: o.maxServerSessionsPerClient,
    quietMs: o.serverQuietMs,
    maxBytesPerAddress: o.maxServerBytesPerClient,
    tournament: o.tournament,
    bridgedPorts,
    policy,
    onSubmit,
    records: { sessions: o.recordSessions, eventsPerSession: o.recordEvents },
  };
  return o.singleThread ? inThisThread(options) : startOffsetThread(options);
}
