import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { generateFile } from '../shared/offset/file.ts';
import { md5Hex } from '../shared/offset/md5.ts';
import type { Submission } from '../shared/offset/policy.ts';
import type { RelayInfo } from '../shared/relay/info.ts';
import { createBridge, type Bridge, type BridgeOptions } from './bridge.ts';
import { Contest } from './contest/contest.ts';
import { startEchoServer, type EchoServer } from './echoServer.ts';
import { projectRoot } from './root.ts';
import { Leaderboard } from './leaderboard.ts';
import type { Journal } from './records/journal.ts';
import { openRelayRecords, keepRecord, recordsLine, recordsStatus } from './records/relayRecords.ts';
import { startOffsetServerFor, type RunningOffsetServer } from './relayServers.ts';
import type { SubmitKept, SubmitSource } from './offsetServer.ts';
import { BridgedClients } from './bridgedClients.ts';
import { fromBridge, PortSet } from './portSet.ts';
import { listenHttp, route } from './relayHttp.ts';
import { createOperator, type Operator } from './operator.ts';
import { pageHosts, pageOrigins } from './pageOrigin.ts';
import type { RelayOptions } from './relayOptions.ts';

export const ROOT = projectRoot(import.meta.url);

export interface Relay {
  url: string;
  info: RelayInfo;
  /** What Submit is graded against: printed for the operator, never served. */
  md5: string;
  constant: RunningOffsetServer;
  variable: RunningOffsetServer;
  echo: EchoServer;
  bridge: Bridge;
  leaderboard: Leaderboard;
  /** Who the operator is: the token, and the client address of a request. */
  operator: Operator;
  /** The class's records on disk (ranked Submits, contest submissions), or null if the relay keeps none. */
  journal: Journal | null;
  contest: Contest | null;
  http: Server;
  /** One line per service, as printed at start. */
  lines: string[];
  close(): Promise<void>;
}

/**
 * What an offset server tells of each Submit: only what the policy ranks goes on the board (a session served
 * the file's size); every Submit is still answered as the course server answers it, a ranked one once its
 * record is on disk (else with why not).
 */
function boardSubmits(leaderboard: Leaderboard, journal: Journal | null, clients: BridgedClients) {
  // A bridged page's Submits come from the relay's own socket: they are its page's address's, as its
  // bridge sessions are, or every student in a browser would count as one address on the board.
  const sender = ({ address, bridgedSocket }: SubmitSource) => (bridgedSocket === null ? undefined : clients.clientOf(bridgedSocket, performance.timeOrigin + performance.now())) ?? address;
  return (server: 'constant' | 'variable') =>
    ({ ranked, ...s }: Submission, from: SubmitSource): SubmitKept =>
      ranked ? keepRecord(journal, () => leaderboard.add({ ...s, server, at: new Date().toISOString() }, sender(from))) : undefined;
}

/** Starts every service of the relay; the offset servers get a thread each unless told otherwise. Port 0 picks a free port (tests). */
export async function startRelay(o: RelayOptions): Promise<Relay> {
  const file = o.filePath ? new Uint8Array(readFileSync(o.filePath)) : generateFile(o.fileSize, o.seed);
  const md5 = md5Hex(file);
  const operator = createOperator({ token: o.operatorToken, trustedProxies: o.trustProxies, allowOrigins: o.allowOrigins });
  const records = openRelayRecords(o);
  const journal = records?.journal ?? null;
  const leaderboard = new Leaderboard(journal, o.maxFeedsPerClient, o.boardIds);
  const bridged = { udp: new PortSet(), tcp: new PortSet(), clients: new BridgedClients() };
  const submitted = boardSubmits(leaderboard, journal, bridged.clients);
  const constant = await startOffsetServerFor(o, file, bridged.udp, false, submitted('constant'));
  const variable = await startOffsetServerFor(o, file, bridged.udp, true, submitted('variable'));
  const echo = await echoFor(o, bridged.tcp);

  const { http, httpPort } = await listenHttp(o, operator);
  const hosts = pageHosts(o.host);
  const url = `http://${hosts[0]}:${httpPort}`;
  const contest = o.contest ? await Contest.start({ ...o.contest, maxFeedsPerClient: o.maxFeedsPerClient }, operator, journal) : null;
  const info = relayInfoOf(o, file.length, { constant: constant.port, variable: variable.port, echo: echo.port }, contest);
  const servers = { [info.offsetConstant]: constant, [info.offsetVariable]: variable };
  const sessionPolicy = o.allowSessionPolicy ? (target: string, key: string, values: Record<string, number | string> | null) => servers[target].setSessionPolicy(key, values) : null;
  const origins = pageOrigins(o.host, httpPort, o.allowOrigins);
  const bridge = bridgeFor(o, info, origins, bridged, sessionPolicy, operator);

  const sessions = async () => [...(await constant.sessions()), ...(await variable.sessions())];
  const sessionCsv = async (id: string) => (await constant.sessionCsv(id)) ?? (await variable.sessionCsv(id));
  const api = {
    info,
    operator,
    board: leaderboard,
    records: () => recordsStatus(journal),
    echo: echo.records,
    shareRecords: o.shareRecords,
    shareAllRecords: o.shareAllRecords,
    sessions,
    sessionCsv,
    bridgedClients: bridged.clients,
  };
  await route(http, o, api, bridge, { operator, origins, contest });

  const lines = serviceLines(o, { url, hosts, httpPort, info, md5, operator });
  if (records) lines.push(recordsLine(records, leaderboard));
  if (contest) lines.push(...contest.linesAt(url));
  return {
    url,
    info,
    md5,
    constant,
    variable,
    echo,
    bridge,
    leaderboard,
    operator,
    journal,
    contest,
    http,
    lines,
    async close() {
      bridge.close();
      await contest?.close();
      http.closeAllConnections();
      await Promise.all([new Promise<void>((r) => http.close(() => r())), constant.close(), variable.close(), echo.close()]);
      // Last, once the offset threads have exited: a Submit they answered may still be on its way to the board.
      await leaderboard.close();
    },
  };
}

/** What /api/relay tells a page of the relay's services, its file and its rules. */
function relayInfoOf(o: RelayOptions, fileSize: number, ports: { constant: number; variable: number; echo: number }, contest: Contest | null): RelayInfo {
  const local = (port: number) => `${o.host}:${port}`;
  return {
    offsetConstant: local(ports.constant),
    offsetVariable: local(ports.variable),
    echo: local(ports.echo),
    bridge: '/bridge',
    fileSize,
    tournament: o.tournament,
    policy: o.policy,
    sessionPolicy: o.allowSessionPolicy,
    contest: contest !== null,
    // files of the bundled traces alone: a held-out trace of the operator's own is never served, so never named
    ...(contest && { heldOutFiles: [...contest.heldOutFiles].sort() }),
  };
}

/** The echo server: every address holds its share, but for the bridge's connections (capped per page). */
function echoFor(o: RelayOptions, bridgedTcpPorts: PortSet): Promise<EchoServer> {
  return startEchoServer({
    host: o.host,
    port: o.echoPort,
    idleMs: o.idleMs,
    partialMs: o.stallMs,
    maxConnections: o.maxSessions,
    maxPerAddress: o.maxEchoPerClient,
    perAddress: { messagesPerSecond: o.maxClientDatagramsPerSecond, bytesPerSecond: o.maxClientBytesPerSecond },
    fromBridge: (s) => fromBridge(bridgedTcpPorts, s.remoteAddress ?? '', s.remotePort ?? 0, s.localAddress ?? ''),
  });
}

function bridgeFor(
  o: RelayOptions,
  info: RelayInfo,
  origins: string[],
  bridgedPorts: { udp: PortSet; tcp: PortSet; clients: BridgedClients },
  sessionPolicy: BridgeOptions['sessionPolicy'],
  operator: Operator,
): Bridge {
  return createBridge({
    udpTargets: [info.offsetConstant, info.offsetVariable, ...o.allow],
    tcpTargets: [info.echo, ...o.allow],
    origins,
    maxSessions: o.maxSessions,
    maxSessionsPerClient: o.maxSessionsPerClient,
    maxMessageBytes: o.maxMessageBytes,
    maxDatagramsPerSecond: o.maxDatagramsPerSecond,
    maxBytesPerSecond: o.maxBytesPerSecond,
    burst: Math.max(100, o.maxDatagramsPerSecond / 10),
    maxClientDatagramsPerSecond: o.maxClientDatagramsPerSecond,
    maxClientBytesPerSecond: o.maxClientBytesPerSecond,
    maxBufferedBytes: o.maxBufferedBytes,
    stallMs: o.stallMs,
    idleMs: o.idleMs,
    bridgedPorts: bridgedPorts.udp,
    bridgedTcpPorts: bridgedPorts.tcp,
    bridgedClients: bridgedPorts.clients,
    policyTargets: [info.offsetConstant, info.offsetVariable],
    sessionPolicy,
    clientAddress: operator.clientAddress,
  });
}

/** One line per service, as the relay prints them at start. */
function serviceLines(o: RelayOptions, r: { url: string; hosts: string[]; httpPort: number; info: RelayInfo; md5: string; operator: Operator }): string[] {
  const also = r.hosts.slice(1).map((h) => `http://${h}:${r.httpPort}`);
  const lines = [
    `playground      ${r.url}${also.length ? ` (also ${also.join(', ')})` : ''}${o.dev ? ' (dev, hot reload)' : ''}`,
    `bridge          ws://${r.hosts[0]}:${r.httpPort}/bridge`,
    `offset server   udp://${r.info.offsetConstant} (constant rate ${o.policy.rate}/s) · file ${r.info.fileSize} bytes, MD5 ${r.md5}${o.tournament ? ' · tournament' : ''}`,
    `offset server   udp://${r.info.offsetVariable} (variable rate ${o.policy.initialRate}/s then ${o.policy.rates.join('/')}/s, ${o.policy.variableModel} model)`,
    `echo server     tcp://${r.info.echo}`,
    `operator        ${r.operator.url(r.url)} (keep it to yourself: it shows every record)`,
  ];
  if (o.keyBy === 'ip') lines.push('sessions        keyed by address (--key ip): students behind one address (NAT) share one session, and only its first id is ranked; --key ip:port keeps them apart');
  return lines;
}
