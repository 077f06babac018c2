import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket as TcpSocket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { frame, FRAME_DATA, FRAME_SENT, type BridgeLimits, type ControlMessage } from '../shared/bridge/protocol.ts';

export interface BridgeOptions extends BridgeLimits {
  /** host:port pairs a session may reach over UDP, and over TCP. */
  udpTargets: string[];
  tcpTargets: string[];
  /** Origins allowed to open a session (the relay's own page, plus what the operator adds). */
  origins: string[];
  maxSessions: number;
  /** Burst the datagram-rate bucket allows. */
  burst: number;
}

export interface Bridge {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly sessions: number;
  /** Sockets to targets currently open (one per session). */
  readonly openSockets: number;
  close(): void;
}

const WS_HARD_LIMIT = 1 << 20;

function normalizeTarget(raw: string): string | null {
  const m = /^(localhost|[\d.]+|\[[\da-f:]+\]):(\d{1,5})$/i.exec(raw.trim());
  if (!m || Number(m[2]) > 65_535) return null;
  return `${m[1].toLowerCase() === 'localhost' ? '127.0.0.1' : m[1]}:${Number(m[2])}`;
}

/**
 * The UDP↔WebSocket bridge: one socket to the target per browser session, messages passed unchanged
 * both ways, each one from the target stamped with the relay's clock. Refusals (target, origin, size,
 * rate, session count, idleness) send a JSON error to the browser, then close.
 */
export function createBridge(o: BridgeOptions): Bridge {
  const origin = performance.now();
  const relayNow = () => performance.now() - origin;
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_HARD_LIMIT, perMessageDeflate: false });
  const allowedUdp = new Set(o.udpTargets.map((t) => normalizeTarget(t)!));
  const allowedTcp = new Set(o.tcpTargets.map((t) => normalizeTarget(t)!));
  let sessions = 0;
  let openSockets = 0;
  const live = new Set<WebSocket>();

  const send = (ws: WebSocket, m: ControlMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
  };
  const refuse = (ws: WebSocket, message: string, code = 1008) => {
    send(ws, { type: 'error', message, fatal: true });
    ws.close(code, message.slice(0, 120));
  };

  function session(ws: WebSocket, req: IncomingMessage): void {
    const url = new URL(req.url ?? '/', 'http://relay');
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && !o.origins.includes(requestOrigin)) {
      return refuse(ws, `origin ${requestOrigin} is not allowed to use this relay`);
    }
    if (sessions >= o.maxSessions) return refuse(ws, `the relay already has ${o.maxSessions} sessions; try again later`, 1013);
    const transport = url.searchParams.get('transport') ?? 'udp';
    if (transport !== 'udp' && transport !== 'tcp') return refuse(ws, `transport must be udp or tcp (got "${transport}")`);
    const target = normalizeTarget(url.searchParams.get('target') ?? '');
    const allowed = transport === 'udp' ? allowedUdp : allowedTcp;
    if (!target || !allowed.has(target)) {
      return refuse(ws, `target ${url.searchParams.get('target') ?? '(none)'} over ${transport} is not allowed; allowed: ${[...allowed].join(', ') || 'none'}`);
    }
    const receipts = url.searchParams.get('receipts') === '1';
    const [host, portText] = [target.slice(0, target.lastIndexOf(':')).replace(/^\[|\]$/g, ''), target.slice(target.lastIndexOf(':') + 1)];
    const port = Number(portText);

    sessions++;
    live.add(ws);
    let sent = 0;
    let tokens = o.burst;
    let refilledAt = relayNow();
    let lastHeard = relayNow();
    let udp: UdpSocket | null = null;
    let tcp: TcpSocket | null = null;
    let ended = false;

    const toBrowser = (payload: Uint8Array) => {
      lastHeard = relayNow();
      if (ws.readyState === ws.OPEN) ws.send(frame(FRAME_DATA, lastHeard, payload), { binary: true });
    };
    const end = () => {
      if (ended) return;
      ended = true;
      sessions--;
      live.delete(ws);
      clearInterval(watchdog);
      if (udp) {
        udp.close();
        openSockets--;
      }
      if (tcp) {
        tcp.destroy();
        openSockets--;
      }
    };

    if (transport === 'udp') {
      udp = createSocket({ type: host.includes(':') ? 'udp6' : 'udp4', recvBufferSize: 1 << 20 });
      openSockets++;
      udp.on('message', toBrowser);
      udp.on('error', (e) => send(ws, { type: 'error', message: `UDP: ${e.message}`, fatal: false }));
      udp.connect(port, host);
    } else {
      tcp = connect({ host, port, noDelay: true });
      openSockets++;
      tcp.on('data', toBrowser);
      tcp.on('error', (e) => refuse(ws, `TCP: ${e.message}`, 1011));
      tcp.on('close', () => ws.readyState === ws.OPEN && ws.close(1000, 'target closed the connection'));
    }

    const watchdog = setInterval(() => {
      if (relayNow() - lastHeard > o.idleMs) refuse(ws, `closed after ${Math.round(o.idleMs / 1000)} s without traffic`, 1000);
      else if (ws.readyState === ws.OPEN) ws.ping();
    }, Math.min(5000, o.idleMs / 2));

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      lastHeard = relayNow();
      if (!isBinary) return control(bytes.toString('utf8'));
      if (bytes.length > o.maxMessageBytes) return refuse(ws, `message of ${bytes.length} bytes is over the limit of ${o.maxMessageBytes}`, 1009);
      const now = relayNow();
      tokens = Math.min(o.burst, tokens + ((now - refilledAt) * o.maxDatagramsPerSecond) / 1000);
      refilledAt = now;
      if (tokens < 1) return refuse(ws, `over the limit of ${o.maxDatagramsPerSecond} datagrams per second`);
      tokens -= 1;
      sent++;
      const stamp = () => {
        if (ws.readyState !== ws.OPEN) return;
        const count = new Uint8Array(4);
        new DataView(count.buffer).setUint32(0, sent);
        ws.send(frame(FRAME_SENT, relayNow(), count));
      };
      if (udp) {
        if (receipts) udp.send(bytes, (e) => (e ? send(ws, { type: 'error', message: `UDP: ${e.message}`, fatal: false }) : stamp()));
        else udp.send(bytes);
      } else if (tcp) {
        if (receipts) tcp.write(bytes, stamp);
        else tcp.write(bytes);
      }
    });

    const control = (text: string) => {
      let m: unknown;
      try {
        m = JSON.parse(text);
      } catch {
        return send(ws, { type: 'error', message: 'text messages must be JSON control messages', fatal: false });
      }
      const msg = m as { type?: unknown; t?: unknown };
      if (msg.type === 'ping') send(ws, { type: 'pong', t: typeof msg.t === 'number' ? msg.t : 0, relayTime: relayNow() });
      else send(ws, { type: 'error', message: `unknown control message ${JSON.stringify(msg.type ?? null)}`, fatal: false });
    };

    ws.on('close', end);
    ws.on('error', end);
    send(ws, {
      type: 'ready',
      target,
      transport,
      relayTime: relayNow(),
      limits: { maxMessageBytes: o.maxMessageBytes, maxDatagramsPerSecond: o.maxDatagramsPerSecond, idleMs: o.idleMs },
    });
  }

  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        try {
          session(ws, req);
        } catch (e) {
          refuse(ws, `relay error: ${(e as Error).message}`, 1011);
        }
      });
    },
    get sessions() {
      return sessions;
    },
    get openSockets() {
      return openSockets;
    },
    close() {
      for (const ws of live) ws.terminate();
      wss.close();
    },
  };
}
