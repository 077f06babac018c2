import type { WebSocketLike } from '../live/bridgeSession.ts';

/**
 * A live fetch's one WebSocket, split across two workers: the page's own opens it to the relay's bridge and
 * passes its frames over a MessagePort (proxySocket), and the controller in the sandbox frame, which has no
 * network, reads and writes them there as if it held the socket (PortSocket). Binary frames are handed over
 * (transferred), never copied.
 *
 * The controller's side runs code from a link, so the page's side believes nothing it says: the URL is the
 * one the page built (the relay of the page's own origin, its /bridge path), and of what comes over the
 * port only a frame to send once the socket is open, or a request to close it, is acted on.
 */

/** What the page's side tells the controller: the socket's events, a frame at a time. */
export type FromSocket = { kind: 'open' } | { kind: 'message'; data: ArrayBuffer | string } | { kind: 'close' } | { kind: 'error' };
/** What the controller may ask of the socket. */
export type ToSocket = { kind: 'send'; data: ArrayBuffer | string } | { kind: 'close' };

/** The states of a WebSocket's readyState. */
const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

/** A message from the controller's side that the page's side acts on; anything else is dropped. */
export function isToSocket(m: unknown): m is ToSocket {
  if (typeof m !== 'object' || m === null) return false;
  const { kind, data } = m as { kind?: unknown; data?: unknown };
  return (kind === 'send' && (typeof data === 'string' || data instanceof ArrayBuffer)) || kind === 'close';
}

/** Whether `url` is the bridge of the origin this code was served from (ws: for http:, wss: for https:). */
export function isOwnBridge(url: string, own: { protocol: string; host: string }): boolean {
  const u = new URL(url);
  return u.protocol === own.protocol.replace(/^http/, 'ws') && u.host === own.host && u.pathname === '/bridge';
}

/** The socket as the page's side holds it: the browser's WebSocket and the `ws` package's both fit. */
export type ProxiedSocket = Omit<WebSocketLike, 'send'> & { send(data: ArrayBuffer | string): void };

/**
 * The page's side: opens `url` (which must be the page's own bridge: `own` is where this code was served
 * from) and relays between it and `port`. Returns the socket, to close it when the run ends.
 */
export function proxySocket(port: MessagePort, url: string, own: { protocol: string; host: string }, open: (url: string) => ProxiedSocket): ProxiedSocket {
  if (!isOwnBridge(url, own)) throw new Error(`a live fetch connects to its page's relay only, not ${url}`);
  const ws = open(url);
  ws.binaryType = 'arraybuffer';
  const tell = (m: FromSocket, transfer: Transferable[] = []) => port.postMessage(m, transfer);
  ws.addEventListener('open', () => tell({ kind: 'open' }));
  ws.addEventListener('message', (e) => {
    if (e.data instanceof ArrayBuffer) tell({ kind: 'message', data: e.data }, [e.data]);
    else if (typeof e.data === 'string') tell({ kind: 'message', data: e.data });
  });
  ws.addEventListener('error', () => tell({ kind: 'error' }));
  ws.addEventListener('close', () => {
    tell({ kind: 'close' });
    port.close();
  });
  port.onmessage = (e: MessageEvent) => {
    const m: unknown = e.data;
    if (!isToSocket(m)) return;
    if (m.kind === 'close') return ws.close(1000, 'done');
    // a frame before the socket opens (the browser would throw) or after it closed goes nowhere
    if (ws.readyState === OPEN) ws.send(m.data);
  };
  return ws;
}

type Listener = (e: { data: unknown }) => void;

/** The bytes of `data` in a buffer of their own, to transfer: the view's whole buffer when it is one. */
function ownBuffer(data: Uint8Array): ArrayBuffer {
  const whole = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer;
  return whole ? (data.buffer as ArrayBuffer) : (data.slice().buffer as ArrayBuffer);
}

/**
 * The controller's side: a WebSocket whose frames come and go over `port`. A frame sent is handed over,
 * so the bytes given to `send` are the socket's afterwards (a bridge session builds each frame anew).
 */
export class PortSocket implements WebSocketLike {
  binaryType = 'arraybuffer';
  readyState = CONNECTING;
  private readonly listeners: Record<FromSocket['kind'], Listener[]> = { open: [], message: [], close: [], error: [] };

  constructor(private readonly port: MessagePort) {
    port.onmessage = (e: MessageEvent<FromSocket>) => this.receive(e.data);
  }

  send(data: Uint8Array | string): void {
    if (typeof data === 'string') return this.port.postMessage({ kind: 'send', data } satisfies ToSocket);
    const buffer = ownBuffer(data);
    this.port.postMessage({ kind: 'send', data: buffer } satisfies ToSocket, [buffer]);
  }

  close(): void {
    this.port.postMessage({ kind: 'close' } satisfies ToSocket);
  }

  addEventListener(type: FromSocket['kind'], listener: Listener): void {
    this.listeners[type].push(listener);
  }

  private receive(m: FromSocket): void {
    if (m.kind === 'open') this.readyState = OPEN;
    if (m.kind === 'close') {
      this.readyState = CLOSED;
      this.port.close();
    }
    const event = { data: m.kind === 'message' ? m.data : undefined };
    for (const l of this.listeners[m.kind]) l(event);
  }
}
