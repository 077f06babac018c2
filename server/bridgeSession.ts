import type { RawData, WebSocket } from 'ws';
import { frame, FRAME_DATA, FRAME_SENT, type ControlMessage, type RelaySession } from '../shared/bridge/protocol.ts';
import type { Admitted } from './bridgeAdmission.ts';
import { type ClientBudgets, withinBudget } from './bridgeBudget.ts';
import { Meter } from './bridgeMeter.ts';
import { openTarget, type Target } from './bridgeTarget.ts';
import { timedSender } from './bridgeTimed.ts';
import type { BridgeOptions } from './bridge.ts';
import { quote } from '../shared/text/quote.ts';

/** UDP carries at most 65,507 bytes in one IPv4 datagram. */
const MAX_UDP_PAYLOAD = 65_507;
/** Control messages are a few dozen bytes of JSON. */
const MAX_CONTROL_BYTES = 1024;

/** A session as the watchdog sees it. */
export interface Live {
  ws: WebSocket;
  lastHeard: number;
  overSince: number;
  awaitingPong: boolean;
  pingedAt: number;
  end(): void;
}

/** What every session of one bridge shares: its options, its clock, the sessions open and its tallies. */
export interface Hub {
  o: BridgeOptions;
  relayNow(): number;
  live: Set<Live>;
  perClient: Map<string, number>;
  budgets: ClientBudgets;
  counts: { openSockets: number; dropped: number; cutOff: Record<string, number> };
}

export const send = (ws: WebSocket, m: ControlMessage) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
};

/** The most bytes of UTF-8 a WebSocket close frame's reason may hold. */
const MAX_REASON_BYTES = 123;

/** A message as a close reason: whole if it fits, else the start that fits with "…", cut between characters. */
function closeReason(message: string): string {
  const bytes = new TextEncoder().encode(message);
  if (bytes.length <= MAX_REASON_BYTES) return message;
  let end = MAX_REASON_BYTES - 3; // room for the 3 bytes of "…"
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return `${new TextDecoder().decode(bytes.subarray(0, end))}…`;
}

export const refuse = (ws: WebSocket, message: string, code = 1008) => {
  send(ws, { type: 'error', message, fatal: true });
  ws.close(code, closeReason(message));
};

/** One session more (`by` 1) or fewer (−1) for a client. */
function countClient(hub: Hub, client: string, by: 1 | -1): void {
  const n = (hub.perClient.get(client) ?? 0) + by;
  if (n > 0) hub.perClient.set(client, n);
  else hub.perClient.delete(client);
}

/**
 * What the page hears once the session may start: the target, the relay's clock, the limits it keeps, and
 * (UDP) the key the relay's servers record the session under, which only this page is told.
 */
function readyMessage(hub: Hub, a: Admitted, limit: number, session: RelaySession | null): ControlMessage {
  const { o } = hub;
  return {
    type: 'ready',
    target: a.target,
    transport: a.transport,
    relayTime: hub.relayNow(),
    limits: { maxMessageBytes: limit, maxDatagramsPerSecond: o.maxDatagramsPerSecond, maxBytesPerSecond: o.maxBytesPerSecond, idleMs: o.idleMs },
    ...(session && { session }),
  };
}

/** The key an offset server records a bridged session under (server/portSet.ts's sessionKey): the socket's address. */
const bridgedKey = (a: Admitted, port: number) => `${a.host}:${port}`;

/** What a session's handler of the page's messages works with. */
interface SessionParts {
  a: Admitted;
  state: Live;
  target: Target;
  page: ReturnType<typeof toPage>;
  timed: ReturnType<typeof timedSender> | null;
  /** The largest binary message the target takes, bytes. */
  limit: number;
  /** What the session's address may still send, shared by its sessions. */
  shared: Meter;
  gate: ReturnType<typeof pauseGate>;
}

/**
 * The page's messages: within the session's limits, text is a control message and a binary message goes
 * to the target (at its asked time, when timed); past them the session is refused. Past its address's
 * budget, shared with the address's other sessions, they wait their turn.
 */
function fromPage(hub: Hub, ws: WebSocket, { a, state, target, page, timed, limit, shared, gate }: SessionParts) {
  const meter = new Meter(hub.o, hub.relayNow());
  let sent = 0;
  const pass = (bytes: Buffer, isBinary: boolean) => {
    if (!isBinary) return control(hub, ws, bytes.toString('utf8'));
    sent++;
    if (!timed) return target.send(bytes, a.receipts ? page.stamp(sent) : null);
    const wrong = timed.push(bytes, sent);
    if (wrong && ws.bufferedAmount > hub.o.maxBufferedBytes) hub.counts.dropped++;
    else if (wrong) send(ws, { type: 'error', message: wrong, fatal: false });
  };
  const told = (over: string) => {
    const message = `over the limit of ${over} shared by the ${hub.perClient.get(a.client) ?? 1} sessions of ${a.client}: this session's messages wait their turn`;
    send(ws, { type: 'error', message, fatal: false });
  };
  const budget = withinBudget(shared, hub.relayNow, { pause: () => gate.pause('budget'), resume: () => gate.resume('budget'), told }, pass);
  const take = (data: RawData, isBinary: boolean) => {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    state.lastHeard = hub.relayNow();
    const refusal = meter.admit(bytes.length, isBinary ? limit : MAX_CONTROL_BYTES, state.lastHeard);
    if (refusal) return refuse(ws, refusal, refusal.startsWith('message of') ? 1009 : 1008);
    budget.take(bytes, isBinary);
  };
  return { take, close: budget.close };
}

/** Pauses reading the page while any reason holds: its target backed up, its address over budget. */
function pauseGate(ws: WebSocket) {
  const reasons = new Set<string>();
  return {
    pause(why: string) {
      reasons.add(why);
      ws.pause();
    },
    resume(why: string) {
      reasons.delete(why);
      if (reasons.size === 0) ws.resume();
    },
  };
}

/** One browser session: a socket to its target, messages passed unchanged both ways until either side ends. */
export function runSession(hub: Hub, ws: WebSocket, a: Admitted): void {
  const { o, relayNow } = hub;
  countClient(hub, a.client, 1);
  const state: Live = { ws, lastHeard: relayNow(), overSince: -1, awaitingPong: false, pingedAt: relayNow(), end: () => end() };
  hub.live.add(state);
  const page = toPage(hub, ws, () => target);
  const gate = pauseGate(ws);
  const shared = hub.budgets.of(a.client, relayNow());
  const target: Target = openTarget(
    a,
    {
      data: (payload) => {
        state.lastHeard = relayNow();
        page.deliver(FRAME_DATA, payload);
      },
      error: (message, fatal) => (fatal ? refuse(ws, message, 1011) : send(ws, { type: 'error', message, fatal: false })),
      closed: () => ws.readyState === ws.OPEN && ws.close(1000, 'target closed the connection'),
      // The page sends faster than the target takes: stop reading the page until the target drains.
      backedUp: () => gate.pause('target'),
      drained: () => gate.resume('target'),
      localPort: (port) => o.bridgedClients?.opened(bridgedKey(a, port), performance.timeOrigin + performance.now(), a.client),
    },
    o.maxBufferedBytes,
    o.bridgedPorts,
    o.bridgedTcpPorts ?? null,
  );
  hub.counts.openSockets++;
  // A timed datagram is stamped as it is handed to the socket: that is its send time, not a later callback's.
  const timed = a.timed
    ? timedSender(
        relayNow,
        (datagram, number, arrivedAt) => {
          target.send(datagram, null);
          page.stamp(number, arrivedAt)();
        },
        shared.timed,
      )
    : null;
  const limit = a.transport === 'udp' ? Math.min(o.maxMessageBytes, MAX_UDP_PAYLOAD) : o.maxMessageBytes;
  // Dated on the clock the offset servers date their sessions by (server/offsetServer.ts).
  const ready = () => void target.bound.then((port) => send(ws, readyMessage(hub, a, limit, port ? { key: bridgedKey(a, port), since: performance.timeOrigin + performance.now() } : null)));
  const policy = askPolicy(o, a, target, (message) => refuse(ws, message, 1011), ready);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    policy.forget();
    timed?.close();
    messages.close();
    hub.live.delete(state);
    countClient(hub, a.client, -1);
    target.close();
    hub.counts.openSockets--;
  };
  const messages = fromPage(hub, ws, { a, state, target, page, timed, limit, shared: shared.meter, gate });
  ws.on('message', messages.take);
  ws.on('pong', () => (state.awaitingPong = false));
  ws.on('close', end);
  ws.on('error', end);
}

/**
 * Frames to the page, each stamped with the relay's clock; past the bound a datagram is dropped (and
 * counted), a TCP target paused until the page reads. `stamp` makes the receipt of a message sent.
 */
function toPage(hub: Hub, ws: WebSocket, target: () => Target) {
  const { o, relayNow } = hub;
  const deliver = (type: number, payload: Uint8Array) => {
    if (ws.readyState !== ws.OPEN) return;
    const t = target();
    const full = ws.bufferedAmount > o.maxBufferedBytes;
    if (full && t.datagrams) return void hub.counts.dropped++;
    if (t.datagrams) return ws.send(frame(type, relayNow(), payload), { binary: true });
    if (full) t.pause();
    ws.send(frame(type, relayNow(), payload), { binary: true }, () => ws.bufferedAmount <= o.maxBufferedBytes / 2 && t.resumeIfPaused());
  };
  const stamp = (number: number, arrivedAt?: number) => () => {
    const payload = new Uint8Array(arrivedAt === undefined ? 4 : 12);
    const view = new DataView(payload.buffer);
    view.setUint32(0, number);
    if (arrivedAt !== undefined) view.setFloat64(4, arrivedAt);
    deliver(FRAME_SENT, payload);
  };
  return { deliver, stamp };
}

/**
 * A session that asked for its own policy is ready once its offset server has it (keyed by the
 * session's socket); the server's own policy is back for that key when the session ends.
 */
function askPolicy(o: BridgeOptions, a: Admitted, target: Target, fail: (message: string) => void, ready: () => void): { forget(): void } {
  const set = o.sessionPolicy;
  if (!a.policy || !set) {
    ready();
    return { forget: () => {} };
  }
  const key = target.bound.then((port) => bridgedKey(a, port));
  key.then((k) => set(a.target, k, a.policy)).then(ready, (e: Error) => fail(`the offset server did not take the session's policy: ${e.message}`));
  return { forget: () => void key.then((k) => set(a.target, k, null)).catch(() => {}) };
}

/**
 * Answers a control message. A reply can outweigh what it answers ("x" earns a sentence), so a page that
 * sends them and does not read gets none past the bound, as it would get no datagrams.
 */
function control(hub: Hub, ws: WebSocket, text: string): void {
  if (ws.bufferedAmount > hub.o.maxBufferedBytes) return void hub.counts.dropped++;
  const m = parseControl(text);
  if (typeof m === 'string') return send(ws, { type: 'error', message: m, fatal: false });
  send(ws, { type: 'pong', t: m.t, relayTime: hub.relayNow() });
}

/** A control message as untrusted JSON: a ping with its number, or why it is refused. */
function parseControl(text: string): { t: number } | string {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return 'text messages must be JSON control messages';
  }
  const { type, t } = (typeof m === 'object' && m !== null && !Array.isArray(m) ? m : {}) as Record<string, unknown>;
  if (typeof type !== 'string') return 'a control message must be a JSON object with a "type" (the bridge takes "ping")';
  if (type !== 'ping') return `unknown control message ${quote(type)} (the bridge takes "ping")`;
  return { t: typeof t === 'number' && Number.isFinite(t) ? t : 0 };
}
