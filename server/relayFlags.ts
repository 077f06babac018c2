import { isIP } from 'node:net';
import { num, choice } from '../shared/controllers/types.ts';
import { type FlagSpec, flagName, wholeFlag, listFlag, readFlag, splitHostPort, switchFlag, textFlag, UsageError } from './cli/flags.ts';
import { RECORDS_FILE } from './records/open.ts';
import { CONTEST_FLAGS, readContestFlags } from './contest/flags.ts';
import { DEFAULT_RELAY, type RelayOptions } from './relayOptions.ts';

/**
 * The relay's own flags, as a table for the tools' one flag layer (server/cli/flags.ts): parsing, checks,
 * messages and --help come from there, like the link and policy flags generated from their schemas.
 */

/** One flag: its parameter, the option it sets, and a factor from the flag's unit to the option's. */
interface RelayFlag {
  param: FlagSpec;
  field: keyof RelayOptions;
  scale?: number;
}

const d = DEFAULT_RELAY;
const port = (name: string, def: number, doc: string) => wholeFlag(name, '', 0, 65_535, def, doc);

/** Every relay flag but the offset-policy ones (those come from OFFSET_PARAMS). */
export const RELAY_FLAGS: readonly RelayFlag[] = [
  { param: textFlag('host', 'ADDR', d.host, "address every service binds (0.0.0.0: every interface; the page then works at each of this machine's addresses)"), field: 'host' },
  { param: port('httpPort', d.httpPort, 'the playground, the bridge and the API'), field: 'httpPort' },
  { param: port('udpPort', d.constantPort, 'constant-rate offset server'), field: 'constantPort' },
  { param: port('variablePort', d.variablePort, 'variable-rate offset server'), field: 'variablePort' },
  { param: port('echoPort', d.echoPort, 'ping-pong echo server, TCP'), field: 'echoPort' },
  { param: wholeFlag('fileSize', 'bytes', 1, 1_000_000_000, d.fileSize, 'size of the generated file'), field: 'fileSize' },
  { param: textFlag('file', 'PATH', null, 'serve this file instead of a generated one'), field: 'filePath' },
  { param: wholeFlag('seed', '', 0, 2 ** 31 - 1, d.seed, "seed of the file and of the servers' loss streams"), field: 'seed' },
  { param: choice('key', ['ip', 'ip:port'], d.keyBy, 'what a client session is keyed by (the course server uses ip)'), field: 'keyBy' },
  {
    param: switchFlag('allowSessionPolicy', "let a bridged session ask for its own offset-server policy (the page's server settings), within the flags' bounds"),
    field: 'allowSessionPolicy',
  },
  { param: switchFlag('tournament', 'the course tournament: Reset is ignored, one session per key for good'), field: 'tournament' },
  {
    param: wholeFlag(
      'serverSessions',
      'sessions',
      1,
      1_000_000,
      d.serverSessions,
      'sessions each offset server keeps (one never served data, or idle, makes room for a new one; else the new one is refused)',
    ),
    field: 'serverSessions',
  },
  {
    param: textFlag('leaderboard', 'FILE', null, 'keep every ranked Submit in this records file, on disk before it is answered (default: in memory, starts empty)'),
    field: 'leaderboardFile',
  },
  { param: textFlag('data', 'DIR', null, `keep the class's records (leaderboard and contest) in ${RECORDS_FILE} in this folder`), field: 'dataDir' },
  { param: num('delay', 'ms', 0, 60_000, 0.1, d.delayMs, 'hold replies this long'), field: 'delayMs' },
  { param: num('jitter', 'ms', 0, 60_000, 0.1, d.jitterMs, '± uniform variation of that hold'), field: 'jitterMs' },
  { param: num('reorder', '%', 0, 100, 0.1, d.reorder * 100, 'replies sent at once, skipping the hold, so they overtake'), field: 'reorder', scale: 0.01 },
  {
    param: listFlag('allow', 'HOST:PORT', 'another target the bridge may reach (repeatable; UDP and TCP)', {
      accepts: (v) => splitHostPort(v, 1) !== null,
      means: 'HOST:PORT with a port from 1 to 65535',
    }),
    field: 'allow',
  },
  { param: listFlag('allowOrigin', 'URL', 'another page origin that may use the bridge and the API: a name or proxy (repeatable)', { accepts: /^https?:\/\/\S+$/ }), field: 'allowOrigins' },
  { param: wholeFlag('maxSessions', 'sessions', 1, 10_000, d.maxSessions, 'bridge sessions at once'), field: 'maxSessions' },
  { param: wholeFlag('maxPerClient', 'sessions', 1, 10_000, d.maxSessionsPerClient, 'bridge sessions one client address may hold'), field: 'maxSessionsPerClient' },
  { param: wholeFlag('maxHttpPerClient', 'connections', 1, 100_000, d.maxHttpPerClient, 'HTTP connections one address may hold (pages, feeds, bridge sessions)'), field: 'maxHttpPerClient' },
  {
    param: wholeFlag('maxFeedsPerClient', 'streams', 1, 10_000, d.maxFeedsPerClient, "pages one address may watch each live feed from (the leaderboard's, the contest's)"),
    field: 'maxFeedsPerClient',
  },
  {
    param: wholeFlag('maxEchoPerClient', 'connections', 1, 10_000, d.maxEchoPerClient, "echo-server connections one address may hold (the bridge's count per page instead)"),
    field: 'maxEchoPerClient',
  },
  {
    param: wholeFlag(
      'maxServerSessionsPerClient',
      'sessions',
      1,
      1_000_000,
      d.maxServerSessionsPerClient,
      "sessions one source address may hold on each offset server (the bridge's count per page instead)",
    ),
    field: 'maxServerSessionsPerClient',
  },
  {
    param: wholeFlag(
      'serverQuiet',
      'ms',
      100,
      86_400_000,
      d.serverQuietMs,
      "at its share of sessions, a new port of an address takes the place of that address's session silent this long (a student mid-fetch asks again within its timeout)",
    ),
    field: 'serverQuietMs',
  },
  {
    param: wholeFlag(
      'maxServerBytesPerClient',
      'bytes/s',
      1500,
      10_000_000_000,
      d.maxServerBytesPerClient,
      "replies each offset server sends one source address (the bridge's have --max-bytes); past it, requests go unanswered",
    ),
    field: 'maxServerBytesPerClient',
  },
  { param: wholeFlag('maxMessage', 'bytes', 1, 1 << 20, d.maxMessageBytes, 'largest message through the bridge (UDP: at most 65507)'), field: 'maxMessageBytes' },
  { param: wholeFlag('maxRate', 'messages/s', 1, 10_000_000, d.maxDatagramsPerSecond, 'messages per second per bridge session, text or binary'), field: 'maxDatagramsPerSecond' },
  { param: wholeFlag('maxBytes', 'bytes/s', 1000, 10_000_000_000, d.maxBytesPerSecond, 'bytes per second per bridge session'), field: 'maxBytesPerSecond' },
  {
    param: wholeFlag(
      'maxRatePerClient',
      'messages/s',
      1,
      10_000_000,
      d.maxClientDatagramsPerSecond,
      "messages per second all of one address's bridge sessions may send together (and, apart, its echo connections); past it they wait",
    ),
    field: 'maxClientDatagramsPerSecond',
  },
  {
    param: wholeFlag(
      'maxBytesPerClient',
      'bytes/s',
      1000,
      10_000_000_000,
      d.maxClientBytesPerSecond,
      "bytes per second all of one address's bridge sessions may send together (and, apart, its echo connections); past it they wait",
    ),
    field: 'maxClientBytesPerSecond',
  },
  { param: wholeFlag('maxBuffered', 'bytes', 16_384, 1 << 30, d.maxBufferedBytes, 'bytes waiting for a page before its datagrams are dropped'), field: 'maxBufferedBytes' },
  {
    param: wholeFlag('stall', 'ms', 1000, 600_000, d.stallMs, 'close a page that stops reading or answering pings, or an echo connection that leaves a message unfinished, this long'),
    field: 'stallMs',
  },
  { param: wholeFlag('idle', 'ms', 1000, 86_400_000, d.idleMs, 'close bridge sessions and forget server sessions idle this long'), field: 'idleMs' },
  { param: switchFlag('singleThread', 'run the offset servers on the main thread too (by default each has its own)'), field: 'singleThread' },
  { param: switchFlag('shareRecords', 'let each client read the records of its own sessions and connections (default: the operator only)'), field: 'shareRecords' },
  { param: switchFlag('shareAllRecords', 'let every client read every session and connection record, not only its own'), field: 'shareAllRecords' },
  { param: wholeFlag('recordSessions', 'sessions', 1, 100_000, d.recordSessions, 'offset-server sessions kept for /api/sessions, per server (oldest forgotten first)'), field: 'recordSessions' },
  { param: wholeFlag('recordEvents', 'events', 100, 10_000_000, d.recordEvents, 'events kept of each recorded session (the newest)'), field: 'recordEvents' },
  {
    param: textFlag('operatorToken', 'TOKEN', null, "the operator's secret (default: a new random one each start, printed in the operator's URL)"),
    field: 'operatorToken',
  },
  {
    param: listFlag('trustProxy', 'ADDR', 'a reverse proxy whose X-Forwarded-For names the client (repeatable; others are not believed)', {
      accepts: (v) => isIP(v) !== 0,
      means: 'an IPv4 or IPv6 address',
    }),
    field: 'trustProxies',
  },
  { param: switchFlag('dev', 'serve the app through Vite with hot reload'), field: 'dev' },
  { param: textFlag('dist', 'DIR', d.distDir, 'the built app to serve'), field: 'distDir' },
];

export const RELAY_SPECS = [...RELAY_FLAGS.map((f) => f.param), ...CONTEST_FLAGS];

/** The options the given flags set, checked against the table; an error names the flag and what it accepts. */
export function readRelayFlags(values: Record<string, unknown>): Partial<RelayOptions> {
  const out: Record<string, unknown> = {};
  for (const { param, field, scale } of RELAY_FLAGS) {
    const raw = values[flagName(param.name)];
    if (raw === undefined) continue;
    const v = readFlag(param, raw);
    out[field] = typeof v === 'number' && scale ? v * scale : v;
  }
  const contest = readContestFlags(values);
  if (contest) out.contest = contest;
  refuseSharedPorts({ ...DEFAULT_RELAY, ...(out as Partial<Ports>) });
  if (out.dataDir && out.leaderboardFile) throw new UsageError(`--data keeps the leaderboard in DIR/${RECORDS_FILE}: give --data or --leaderboard, not both`);
  // the tokens handed out count only while the records hold them: in memory, a restart would void them all
  if (contest?.roster && !out.dataDir && !out.leaderboardFile)
    throw new UsageError(
      '--contest-roster needs --data DIR (or --leaderboard FILE): without records a restart forgets every submission and issues each id on the roster a new token, so the ones handed out stop working',
    );
  return out as Partial<RelayOptions>;
}

type Ports = Pick<RelayOptions, 'httpPort' | 'constantPort' | 'variablePort' | 'echoPort'>;

/**
 * Two of the relay's own services asked to listen on one port would fail to bind as if another program
 * held it: say which flags clash instead. Port 0 (any free port) may repeat.
 */
function refuseSharedPorts(o: Ports): void {
  const clash = (a: keyof Ports, b: keyof Ports) => {
    if (o[a] !== 0 && o[a] === o[b]) throw new UsageError(`--${flagOf(a)} and --${flagOf(b)} are both ${o[a]}: each service needs a port of its own`);
  };
  clash('constantPort', 'variablePort'); // both UDP
  clash('httpPort', 'echoPort'); // both TCP
}

const flagOf = (field: RelayFlag['field']) => flagName(RELAY_FLAGS.find((f) => f.field === field)!.param.name);
