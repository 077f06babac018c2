import { FRAME_DATA, FRAME_SENT, unframe, type ControlMessage, type RelaySession } from '../../shared/bridge/protocol.ts';
import type { DatagramTransport } from '../../live/liveFetch.ts';
import { type ClockSample, relayOffset, settled } from '../../live/relayClock.ts';
import type { WallClock } from '../../live/wallClock.ts';

/** What a session needs of a WebSocket: the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  binaryType: string;
  readyState: number;
  send(data: Uint8Array | string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: (e: unknown) => void): void;
}

export interface BridgeHandlers {
  /** A datagram (or TCP bytes) from the target, with the relay's clock when it arrived. */
  onData(payload: Uint8Array, relayTime: number): void;
  onReady?(m: Extract<ControlMessage, { type: 'ready' }>): void;
  /** A refusal or failure, as the relay or the socket reports it. */
  onError?(message: string, fatal: boolean): void;
  onClose?(): void;
  /** A datagram left the relay: its message number (from 1), the relay's clock then, and (timed) when it reached the relay. */
  onSent?(number: number, relayTime: number, arrivedAt?: number): void;
  onPong?(t: number, relayTime: number): void;
}

/** The relay's bridge URL for a target, e.g. bridgeUrl('ws://127.0.0.1:8080', '127.0.0.1:9801'). */
export function bridgeUrl(base: string, target: string, transport: 'udp' | 'tcp' = 'udp', mode: 'receipts' | 'timed' | null = null): string {
  const u = new URL('/bridge', base);
  u.searchParams.set('target', target);
  u.searchParams.set('transport', transport);
  if (mode) u.searchParams.set(mode, '1');
  return u.toString();
}

/**
 * One bridged session: sends datagrams as binary messages, hands back the target's datagrams with the
 * relay's timestamps, and turns the relay's JSON refusals into onError.
 */
export class BridgeSession {
  private ready = false;
  private readonly queue: Uint8Array[] = [];
  private closed = false;
  /** What the relay's servers record this session under, once it is ready (a UDP session, from a relay that says). */
  relaySession: RelaySession | null = null;

  constructor(
    private readonly ws: WebSocketLike,
    private readonly h: BridgeHandlers,
  ) {
    ws.binaryType = 'arraybuffer';
    ws.addEventListener('message', (e) => this.onMessage(e.data));
    ws.addEventListener('error', () => this.h.onError?.('the relay cannot be reached', true));
    ws.addEventListener('close', () => {
      this.closed = true;
      this.h.onClose?.();
    });
  }

  send(datagram: Uint8Array): void {
    if (this.closed) return;
    if (this.ready) this.ws.send(datagram);
    else this.queue.push(datagram);
  }

  ping(t: number): void {
    if (this.ready) this.ws.send(JSON.stringify({ type: 'ping', t }));
  }

  close(): void {
    this.closed = true;
    this.ws.close(1000, 'done');
  }

  private onMessage(data: unknown): void {
    if (typeof data === 'string') {
      let m: ControlMessage;
      try {
        m = JSON.parse(data) as ControlMessage;
      } catch {
        this.h.onError?.('the relay sent something unreadable', false);
        return;
      }
      if (m.type === 'ready') {
        this.ready = true;
        this.relaySession = m.session ?? null;
        this.h.onReady?.(m);
        for (const d of this.queue.splice(0)) this.ws.send(d);
      } else if (m.type === 'error') this.h.onError?.(m.message, m.fatal);
      else if (m.type === 'pong') this.h.onPong?.(m.t, m.relayTime);
      return;
    }
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
    const f = bytes && unframe(bytes);
    if (!f) return;
    if (f.type === FRAME_DATA) this.h.onData(f.payload, f.relayTime);
    else if (f.type === FRAME_SENT && f.payload.length >= 4) {
      const view = new DataView(f.payload.buffer, f.payload.byteOffset, f.payload.byteLength);
      this.h.onSent?.(view.getUint32(0), f.relayTime, f.payload.length >= 12 ? view.getFloat64(4) : undefined);
    }
  }
}

/** Where a session's events go; each is replaced as the session moves on from matching clocks to the fetch. */
export interface SessionSink {
  onData(payload: Uint8Array, relayTime: number): void;
  onSent(number: number, relayTime: number, arrivedAt?: number): void;
  onPong(t: number, relayTime: number): void;
  fail(message: string): void;
  ready(): void;
}

/** A session whose events go to a sink that its users rewire as they go. */
export function sinkSession(ws: WebSocketLike): { session: BridgeSession; sink: SessionSink } {
  const sink: SessionSink = { onData: () => {}, onSent: () => {}, onPong: () => {}, fail: () => {}, ready: () => {} };
  const session = new BridgeSession(ws, {
    onData: (p, t) => sink.onData(p, t),
    onSent: (n, t, arrivedAt) => sink.onSent(n, t, arrivedAt),
    onPong: (t, r) => sink.onPong(t, r),
    onReady: () => sink.ready(),
    onError: (message, fatal) => fatal && sink.fail(message),
    onClose: () => sink.fail('the relay closed the session'),
  });
  return { session, sink };
}

/** Pings judged together; a session is quiet once a run of them is quick, or after MAX_PINGS or QUIET_WAIT_MS. */
const SYNC_PINGS = 8;
const MAX_PINGS = 120;
const PING_GAP_MS = 5;
/** How long to wait for a quiet hop once the relay answers: a busy machine may never give one. */
const QUIET_WAIT_MS = 1000;
/** How long to wait for the relay's first answer. */
const SYNC_GIVE_UP_MS = 5000;

/**
 * Waits for the session, then pings the relay until the last few pings come back quickly (a page that has
 * just started a run is still busy drawing and compiling; a fetch waits that out rather than stall in
 * its first second and take the stall for losses), and matches the clocks.
 */
export async function synchronize(session: BridgeSession, wall: WallClock, sink: SessionSink): Promise<{ offsetMs: number; base: number; samples: ClockSample[] }> {
  const samples: ClockSample[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the relay did not answer within ${SYNC_GIVE_UP_MS / 1000} s`)), SYNC_GIVE_UP_MS);
    sink.fail = (message) => {
      clearTimeout(timer);
      reject(new Error(message));
    };
    const ping = () => session.ping(wall.now);
    sink.onPong = (t, relayTime) => {
      clearTimeout(timer);
      samples.push({ sentAt: t, relayTime, answeredAt: wall.now });
      const waited = wall.now - samples[0].sentAt;
      if (!settled(samples.slice(-SYNC_PINGS), SYNC_PINGS) && samples.length < MAX_PINGS && waited < QUIET_WAIT_MS) return void setTimeout(ping, PING_GAP_MS);
      resolve();
    };
    sink.ready = ping;
  });
  const recent = samples.slice(-SYNC_PINGS);
  return { offsetMs: relayOffset(recent), base: recent[recent.length - 1].relayTime, samples: recent };
}

/** A bridged session as the transport of a live fetch, each datagram sent as it is handed over. */
export function bridgeTransport(ws: WebSocketLike): DatagramTransport {
  const { session, sink } = sinkSession(ws);
  return {
    send: (d) => session.send(d),
    listen(onDatagram, onFailure) {
      sink.onData = (payload) => onDatagram(payload);
      sink.fail = onFailure;
    },
    close: () => session.close(),
  };
}
