import { generateFile } from '../../shared/offset/file.ts';
import { DEFAULT_POLICY, type OffsetPolicyConfig } from '../../shared/offset/policy.ts';
import { DEFAULT_RELAY } from '../../server/relayOptions.ts';
import { type OffsetServer, type OffsetServerOptions, startOffsetServer } from '../../server/offsetServer.ts';

/**
 * An offset server of a test's own on a free port of 127.0.0.1: the course's policy with `policy` over it,
 * no teaching delays, sessions keyed by address and port, serving `file` (100 kB from seed 5 unless given).
 */
export function testOffsetServer(policy: Partial<OffsetPolicyConfig> = {}, extra: Partial<OffsetServerOptions> = {}): Promise<OffsetServer> {
  return startOffsetServer({
    host: '127.0.0.1',
    port: 0,
    policy: { ...DEFAULT_POLICY, ...policy },
    file: generateFile(100_000, 5),
    seed: 1,
    keyBy: 'ip:port',
    delayMs: 0,
    jitterMs: 0,
    reorder: 0,
    idleMs: 60_000,
    maxSessions: 10_000,
    maxSessionsPerAddress: DEFAULT_RELAY.maxServerSessionsPerClient,
    quietMs: DEFAULT_RELAY.serverQuietMs,
    maxBytesPerAddress: DEFAULT_RELAY.maxServerBytesPerClient,
    tournament: false,
    bridgedPorts: null,
    records: { sessions: 16, eventsPerSession: 1000 },
    ...extra,
  });
}
