import { resolve } from 'node:path';
import type { OffsetPolicyConfig } from '../shared/offset/policy.ts';
import type { ContestOptions } from './contest/contest.ts';
import { projectRoot } from './root.ts';

/** Everything a relay is started with: its ports, its servers' rules, each address's share, its records. */
export interface RelayOptions {
  host: string;
  httpPort: number;
  constantPort: number;
  variablePort: number;
  echoPort: number;
  policy: OffsetPolicyConfig;
  fileSize: number;
  filePath: string | null;
  seed: number;
  keyBy: 'ip' | 'ip:port';
  tournament: boolean;
  /** A bridged session may ask the relay's offset servers for its own policy (srv.* in its bridge URL). */
  allowSessionPolicy: boolean;
  /** Sessions each offset server keeps, and those of one source address (beside the bridge's). */
  serverSessions: number;
  maxServerSessionsPerClient: number;
  /** At that share, a new port of the address takes the place of its session silent this long, ms. */
  serverQuietMs: number;
  /** Bytes per second each offset server sends one source address (beside the bridge's). */
  maxServerBytesPerClient: number;
  /** The records file (server/records/journal.ts) ranked Submits are kept in; null keeps them in memory, starting empty. */
  leaderboardFile: string | null;
  /** Ids the leaderboard shows (default MAX_IDS); a test's own, small enough to fill. */
  boardIds?: number;
  /** A folder for the class's records (its records.jsonl): the leaderboard's and the contest's. */
  dataDir: string | null;
  delayMs: number;
  jitterMs: number;
  reorder: number;
  allow: string[];
  allowOrigins: string[];
  maxSessions: number;
  maxSessionsPerClient: number;
  /** HTTP connections, event streams (the leaderboard's feed) and echo-server connections one address may hold. */
  maxHttpPerClient: number;
  maxFeedsPerClient: number;
  maxEchoPerClient: number;
  maxMessageBytes: number;
  maxDatagramsPerSecond: number;
  maxBytesPerSecond: number;
  /** What all the bridge sessions of one address may send together, messages and bytes per second. */
  maxClientDatagramsPerSecond: number;
  maxClientBytesPerSecond: number;
  maxBufferedBytes: number;
  stallMs: number;
  idleMs: number;
  /** Offset servers on the main thread instead of one thread each. */
  singleThread: boolean;
  /** Let every client see the records of its own connections (by default only this machine sees records). */
  shareRecords: boolean;
  /** Let every client see every client's records (the operator's choice for a class that shares its runs). */
  shareAllRecords: boolean;
  /** Offset-server sessions kept for /api/sessions, per server, and events kept of each. */
  recordSessions: number;
  recordEvents: number;
  /** Serve the app through Vite with hot reload instead of the built files. */
  dev: boolean;
  /** Where the built app is. */
  distDir: string;
  /** The operator's token; null draws a new one at each start. */
  operatorToken: string | null;
  /** Peer addresses (reverse proxies) whose X-Forwarded-For names the client. */
  trustProxies: string[];
  /** The class contest (--contest), or null. */
  contest: ContestOptions | null;
}

/**
 * Students one address may stand for under the default per-address limits: a lab room behind one NAT
 * address. Each student's share: a page's connections, its event stream and two bridge sessions, two echo
 * connections and four offset-server sessions of their own programs, and replies at the constant server's
 * 250 chunks/s of 1,474 bytes at most.
 */
export const ROOM = 40;

export const DEFAULT_RELAY: Omit<RelayOptions, 'policy'> = {
  host: '127.0.0.1',
  httpPort: 8080,
  constantPort: 9801,
  variablePort: 9802,
  echoPort: 18000,
  fileSize: 1_000_000,
  filePath: null,
  seed: 1,
  keyBy: 'ip:port',
  tournament: false,
  serverSessions: 10_000,
  maxServerSessionsPerClient: 4 * ROOM,
  serverQuietMs: 5000,
  maxServerBytesPerClient: ROOM * 250 * 1500,
  leaderboardFile: null,
  dataDir: null,
  delayMs: 0,
  jitterMs: 0,
  reorder: 0,
  allow: [],
  allowOrigins: [],
  maxSessions: 512,
  maxSessionsPerClient: 2 * ROOM,
  maxHttpPerClient: 10 * ROOM,
  maxFeedsPerClient: 2 * ROOM,
  maxEchoPerClient: 2 * ROOM,
  maxMessageBytes: 65_535,
  maxDatagramsPerSecond: 50_000,
  maxBytesPerSecond: 12_500_000,
  // A room's live fetches all at the fastest the servers grant (the variable server's 1,000 chunks/s phase):
  // a budget under it would pace a class's fetches and change their Times. Bytes for two pages' ping-pong
  // series at a session's --max-bytes at once.
  maxClientDatagramsPerSecond: ROOM * 1000,
  maxClientBytesPerSecond: 2 * 12_500_000,
  maxBufferedBytes: 1 << 20,
  stallMs: 10_000,
  idleMs: 120_000,
  singleThread: false,
  allowSessionPolicy: false,
  shareRecords: false,
  shareAllRecords: false,
  recordSessions: 128,
  recordEvents: 5000,
  dev: false,
  distDir: resolve(projectRoot(import.meta.url), 'dist'),
  operatorToken: null,
  trustProxies: [],
  contest: null,
};
