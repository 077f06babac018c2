import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { frame, FRAME_DATA, FRAME_SENT, type BridgeLimits, type ControlMessage } from '../shared/bridge/protocol.ts';
import { Meter } from './bridgeMeter.ts';
import { admit, type Admitted } from './bridgeAdmission.ts';
import { openTarget, type Target } from './bridgeTarget.ts';
import { timedSender } from './bridgeTimed.ts';
import type { PortSet } from './portSet.ts';

export interface BridgeOptions extends BridgeLimits {
  /** host:port pairs a session may reach over UDP, and over TCP. */
  udpTargets: string[];
  tcpTargets: string[];
  /** Origins allowed to open a session (the relay's own page, plus what the operator adds). */
  origins: string[];
  maxSessions: number;
  /** Sessions one client address may hold at once. */
  maxSessionsPerClient: number;
  /** Burst the datagram-rate bucket allows. */
  burst: number;
  /** Bytes waiting for a browser beyond which datagrams are dropped (UDP) or the target paused (TCP). */
  maxBufferedBytes: number;
  /** A session over that bound this long, or silent to pings this long, is closed. */
  stallMs: number;
  /** Where the bridge marks the local ports of its UDP sockets, so servers keep bridged browsers apart. */
  bridgedPorts: PortSet | null;
  policyTargets: string[];
  /** Sets the policy an offset server (by target) gives a session key, or null when the operator allows none. */
  sessionPolicy: ((target: string, key: string, values: Record<string, number | string> | null) => Promise<void>) | null;
}

export interface Bridge {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly sessions: number;
  /** Sockets to targets currently open (one per session). */
  readonly openSockets: number;
  /** Datagrams from targets dropped because a browser was not reading. */
  readonly droppedForSlowReaders: number;
  /** Sessions cut off, by why: they stopped reading, or stopped answering pings. */
  readonly cutOff: Readonly<Record<string, number>>;
  close(): void;
}

/** UDP carries at most 65,507 bytes in one IPv4 datagram. */
export const MAX_UDP_PAYLOAD = 65_507;
/** Control messages are a few dozen bytes of JSON. */
export const MAX_CONTROL_BYTES = 1024;
const WS_HARD_LIMIT = 1 << 20;
const TICK_MS = 1000;

interface Live {
  ws: WebSocket;
  lastHeard: number;
  overSince: number;
  awaitingPong: boolean;
  pingedAt: number;
  end(): void;
}

/**
 * The UDP↔WebSocket bridge: one socket to the target per browser session, messages passed unchanged
 * both ways, each one from the target stamped with the relay's clock. Refusals (target, origin, size,
 * rate, session counts, idleness, a page that stopped reading) send a JSON error to the browser, then close.
 */
export function createBridge(o: BridgeOptions): Bridge {
  const origin = performance.now();
  const relayNow = () => performance.now() - origin;
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_HARD_LIMIT, perMessageDeflate: false });
  const live = new Set<Live>();
  const perClient = new Map<string, number>();
  let openSockets = 0;
  let dropped = 0;
  const cutOff: Record<string, number> = {};

  const send = (ws: WebSocket, m: ControlMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const refuse = (ws: WebSocket, message: string, code = 1008) => {
    send(ws, { type: 'error', message, fatal: true });
    ws.close(code, message.slice(0, 120));
  };

  function session(ws: WebSocket, a: Admitted): void {
    perClient.set(a.client, (perClient.get(a.client) ?? 0) + 1);
    const meter = new Meter(o, relayNow());
    const limit = a.transport === 'udp' ? Math.min(o.maxMessageBytes, MAX_UDP_PAYLOAD) : o.maxMessageBytes;
    let sent = 0;
    let ended = false;
    const state: Live = { ws, lastHeard: relayNow(), overSince: -1, awaitingPong: false, pingedAt: relayNow(), end: () => end() };
    live.add(state);

    /** To the page; past the bound a datagram is dropped (and counted), a TCP target paused until the page reads. */
    const deliver = (type: number, payload: Uint8Array) => {
      if (ws.readyState !== ws.OPEN) return;
      const full = ws.bufferedAmount > o.maxBufferedBytes;
      if (full && target.datagrams) return void dropped++;
      if (target.datagrams) return ws.send(frame(type, relayNow(), payload), { binary: true });
      if (full) target.pause();
      ws.send(frame(type, relayNow(), payload), { binary: true }, () => ws.bufferedAmount <= o.maxBufferedBytes / 2 && target.resumeIfPaused());
    };
    const stamp = (number: number, arrivedAt?: number) => () => {
      const payload = new Uint8Array(arrivedAt === undefined ? 4 : 12);
      const view = new DataView(payload.buffer);
      view.setUint32(0, number);
      if (arrivedAt !== undefined) view.setFloat64(4, arrivedAt);
      deliver(FRAME_SENT, payload);
    };
    const target = openTarget(
      a,
      {
        data: (payload) => {
          state.lastHeard = relayNow();
          deliver(FRAME_DATA, payload);
        },
        error: (message, fatal) => (fatal ? refuse(ws, message, 1011) : send(ws, { type: 'error', message, fatal: false })),
        closed: () => ws.readyState === ws.OPEN && ws.close(1000, 'target closed the connection'),
        // The page sends faster than the target takes: stop reading the page until the target drains.
        backedUp: () => ws.pause(),
        drained: () => ws.resume(),
      },
      o.maxBufferedBytes,
      o.bridgedPorts,
    );
    openSockets++;
    // A timed datagram is stamped as it is handed to the socket: that is its send time, not a later callback's.
    const timed = a.timed
      ? timedSender(relayNow, (datagram, number, arrivedAt) => {
          target.send(datagram, null);
          stamp(number, arrivedAt)();
        })
      : null;
    const policy = askPolicy(
      a,
      target,
      (message) => refuse(ws, message, 1011),
      () =>
        send(ws, {
          type: 'ready',
          target: a.target,
          transport: a.transport,
          relayTime: relayNow(),
          limits: { maxMessageBytes: limit, maxDatagramsPerSecond: o.maxDatagramsPerSecond, maxBytesPerSecond: o.maxBytesPerSecond, idleMs: o.idleMs },
        }),
    );
    const end = () => {
      if (ended) return;
      ended = true;
      policy.forget();
      timed?.close();
      live.delete(state);
      const n = (perClient.get(a.client) ?? 1) - 1;
      if (n === 0) perClient.delete(a.client);
      else perClient.set(a.client, n);
      target.close();
      openSockets--;
    };

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      state.lastHeard = relayNow();
      const refusal = meter.admit(bytes.length, isBinary ? limit : MAX_CONTROL_BYTES, state.lastHeard);
      if (refusal) return refuse(ws, refusal, refusal.startsWith('message of') ? 1009 : 1008);
      if (!isBinary) return control(ws, bytes.toString('utf8'));
      sent++;
      if (!timed) return target.send(bytes, a.receipts ? stamp(sent) : null);
      const wrong = timed.push(bytes, sent);
      if (wrong) send(ws, { type: 'error', message: wrong, fatal: false });
    });
    ws.on('pong', () => (state.awaitingPong = false));
    ws.on('close', end);
    ws.on('error', end);
  }

  /**
   * A session that asked for its own policy is ready once its offset server has it (keyed by the
   * session's socket); the server's own policy is back for that key when the session ends.
   */
  function askPolicy(a: Admitted, target: Target, fail: (message: string) => void, ready: () => void): { forget(): void } {
    const set = o.sessionPolicy;
    if (!a.policy || !set) {
      ready();
      return { forget: () => {} };
    }
    const key = target.bound.then((port) => `${a.host}:${port}`);
    key.then((k) => set(a.target, k, a.policy)).then(ready, (e: Error) => fail(`the offset server did not take the session's policy: ${e.message}`));
    return { forget: () => void key.then((k) => set(a.target, k, null)).catch(() => {}) };
  }

  const control = (ws: WebSocket, text: string) => {
    const m = parseControl(text);
    if (typeof m === 'string') return send(ws, { type: 'error', message: m, fatal: false });
    send(ws, { type: 'pong', t: m.t, relayTime: relayNow() });
  };

  const watchdog = setInterval(() => {
    const now = relayNow();
    for (const s of live) {
      const ws = s.ws;
      if (ws.bufferedAmount <= o.maxBufferedBytes) s.overSince = -1;
      else if (s.overSince < 0) s.overSince = now;
      const v = verdict(s, now, o);
      if (v === 'stopped reading') stall(ws, v, `closed: the page stopped reading (${Math.round(ws.bufferedAmount / 1024)} KB waiting)`);
      else if (v === 'idle') refuse(ws, `closed after ${Math.round(o.idleMs / 1000)} s without traffic`, 1000);
      else if (v === 'no pong') stall(ws, v, `closed: no answer to a ping for ${Math.round(o.stallMs / 1000)} s`);
      else if (v === 'ping' && ws.readyState === ws.OPEN) {
        s.awaitingPong = true;
        s.pingedAt = now;
        ws.ping();
      }
    }
  }, TICK_MS);
  watchdog.unref();

  /** A peer that does not read will not complete a closing handshake either: say why, then cut it. */
  const stall = (ws: WebSocket, why: string, message: string) => {
    cutOff[why] = (cutOff[why] ?? 0) + 1;
    console.warn(`bridge: ${message}`);
    send(ws, { type: 'error', message, fatal: true });
    ws.terminate();
  };

  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        try {
          const a = admit(req, o, { total: live.size, perClient });
          if ('refusal' in a) return refuse(ws, a.refusal, a.code);
          session(ws, a);
        } catch (e) {
          refuse(ws, `relay error: ${(e as Error).message}`, 1011);
        }
      });
    },
    get sessions() {
      return live.size;
    },
    get openSockets() {
      return openSockets;
    },
    get droppedForSlowReaders() {
      return dropped;
    },
    get cutOff() {
      return cutOff;
    },
    close() {
      clearInterval(watchdog);
      for (const s of live) {
        s.ws.terminate();
        s.end();
      }
      wss.close();
    },
  };
}

/** A control message as untrusted JSON: a ping with its number, or why it is refused. */
export function parseControl(text: string): { t: number } | string {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return 'text messages must be JSON control messages';
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'a control message must be a JSON object with a "type"';
  const { type, t } = m as Record<string, unknown>;
  if (type !== 'ping') {
    const shown = typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeof type;
    return `unknown control message ${shown}`;
  }
  return { t: typeof t === 'number' && Number.isFinite(t) ? t : 0 };
}

/** What the watchdog does with a session at `now`. */
function verdict(s: Live, now: number, o: BridgeOptions): 'stopped reading' | 'idle' | 'no pong' | 'ping' | null {
  const unanswered = s.awaitingPong && now - s.pingedAt > o.stallMs;
  // A page with data piling up that does not answer pings is not reading at all (the ping waits unread).
  if (s.overSince >= 0 && (now - s.overSince > o.stallMs || unanswered)) return 'stopped reading';
  if (now - s.lastHeard > o.idleMs) return 'idle';
  if (unanswered) return 'no pong';
  if (!s.awaitingPong && now - s.pingedAt > Math.min(5000, o.stallMs / 2)) return 'ping';
  return null;
}
