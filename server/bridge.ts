import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { BridgeLimits } from '../shared/bridge/protocol.ts';
import { admit } from './bridgeAdmission.ts';
import { ClientBudgets } from './bridgeBudget.ts';
import { type Hub, type Live, refuse, runSession, send } from './bridgeSession.ts';
import type { BridgedClients } from './bridgedClients.ts';
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
  /** Messages per second, and bytes, all the sessions of one client address may send together. */
  maxClientDatagramsPerSecond: number;
  maxClientBytesPerSecond: number;
  /** Bytes waiting for a browser beyond which datagrams and control replies are dropped (UDP) or the target paused (TCP). */
  maxBufferedBytes: number;
  /** A session over that bound this long, or silent to pings this long, is closed. */
  stallMs: number;
  /** Where the bridge marks the local ports of its UDP sockets, so servers keep bridged browsers apart. */
  bridgedPorts: PortSet | null;
  /** Where it marks the local ports of its TCP connections, so the echo server does not cap them as one address. */
  bridgedTcpPorts?: PortSet | null;
  /** Where it notes which page's address each of its sockets speaks for, for the records' owners. */
  bridgedClients?: BridgedClients;
  policyTargets: string[];
  /** Sets the policy an offset server (by target) gives a session key, or null when the operator allows none. */
  sessionPolicy: ((target: string, key: string, values: Record<string, number | string> | null) => Promise<void>) | null;
  /** The address a request comes from (a trusted proxy's client), when not the socket's peer. */
  clientAddress?: (req: IncomingMessage) => string;
}

export interface Bridge {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly sessions: number;
  /** Sockets to targets currently open (one per session). */
  readonly openSockets: number;
  /** Datagrams from targets, and replies to control messages, dropped because a browser was not reading. */
  readonly droppedForSlowReaders: number;
  /** Sessions cut off, by why: they stopped reading, or stopped answering pings. */
  readonly cutOff: Readonly<Record<string, number>>;
  close(): void;
}

const WS_HARD_LIMIT = 1 << 20;
const TICK_MS = 1000;

/**
 * The UDP↔WebSocket bridge: one socket to the target per browser session, messages passed unchanged
 * both ways, each one from the target stamped with the relay's clock. Refusals (target, origin, size,
 * rate, session counts, idleness, a page that stopped reading) send a JSON error to the browser, then close.
 */
export function createBridge(o: BridgeOptions): Bridge {
  const origin = performance.now();
  const hub: Hub = {
    o,
    relayNow: () => performance.now() - origin,
    live: new Set(),
    perClient: new Map(),
    budgets: new ClientBudgets(o),
    counts: { openSockets: 0, dropped: 0, cutOff: {} },
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_HARD_LIMIT, perMessageDeflate: false });
  const watchdog = setInterval(() => watchSessions(hub), TICK_MS);
  watchdog.unref();
  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        // A bad frame from a page being refused (or the refusal's own failure) is an 'error' on its socket: unheard, it would end the relay.
        ws.on('error', () => ws.terminate());
        try {
          const a = admit(req, o, { total: hub.live.size, perClient: hub.perClient });
          if ('refusal' in a) return refuse(ws, a.refusal, a.code);
          runSession(hub, ws, a);
        } catch (e) {
          refuse(ws, `relay error: ${(e as Error).message}`, 1011);
        }
      });
    },
    get sessions() {
      return hub.live.size;
    },
    get openSockets() {
      return hub.counts.openSockets;
    },
    get droppedForSlowReaders() {
      return hub.counts.dropped;
    },
    get cutOff() {
      return hub.counts.cutOff;
    },
    close() {
      clearInterval(watchdog);
      for (const s of hub.live) {
        s.ws.terminate();
        s.end();
      }
      wss.close();
    },
  };
}

/** Every tick: pings the quiet, closes the idle, and cuts off a page that stopped reading or answering. */
function watchSessions(hub: Hub): void {
  const { o } = hub;
  const now = hub.relayNow();
  hub.budgets.sweep(now, (client) => hub.perClient.has(client));
  for (const s of hub.live) {
    const ws = s.ws;
    if (ws.bufferedAmount <= o.maxBufferedBytes) s.overSince = -1;
    else if (s.overSince < 0) s.overSince = now;
    const v = verdict(s, now, o);
    if (v === 'stopped reading') stall(hub, ws, v, `closed: the page stopped reading (${Math.round(ws.bufferedAmount / 1024)} KB waiting)`);
    else if (v === 'idle') refuse(ws, `closed after ${Math.round(o.idleMs / 1000)} s without traffic`, 1000);
    else if (v === 'no pong') stall(hub, ws, v, `closed: no answer to a ping for ${Math.round(o.stallMs / 1000)} s`);
    else if (v === 'ping' && ws.readyState === ws.OPEN) {
      s.awaitingPong = true;
      s.pingedAt = now;
      ws.ping();
    }
  }
}

/** A peer that does not read will not complete a closing handshake either: say why, then cut it. */
function stall(hub: Hub, ws: WebSocket, why: string, message: string): void {
  hub.counts.cutOff[why] = (hub.counts.cutOff[why] ?? 0) + 1;
  console.warn(`bridge: ${message}`);
  send(ws, { type: 'error', message, fatal: true });
  ws.terminate();
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
