import { FRAME_DATA, FRAME_SENT, unframe, type ControlMessage } from '../../shared/bridge/protocol.ts';

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
  onSent?(count: number, relayTime: number): void;
}

/** The relay's bridge URL for a target, e.g. bridgeUrl('ws://127.0.0.1:8080', '127.0.0.1:9801'). */
export function bridgeUrl(base: string, target: string, transport: 'udp' | 'tcp' = 'udp', receipts = false): string {
  const u = new URL('/bridge', base);
  u.searchParams.set('target', target);
  u.searchParams.set('transport', transport);
  if (receipts) u.searchParams.set('receipts', '1');
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
        this.h.onReady?.(m);
        for (const d of this.queue.splice(0)) this.ws.send(d);
      } else if (m.type === 'error') this.h.onError?.(m.message, m.fatal);
      return;
    }
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
    const f = bytes && unframe(bytes);
    if (!f) return;
    if (f.type === FRAME_DATA) this.h.onData(f.payload, f.relayTime);
    else if (f.type === FRAME_SENT) this.h.onSent?.(new DataView(f.payload.buffer, f.payload.byteOffset).getUint32(0), f.relayTime);
  }
}

/** A bridged session as the transport of a live fetch. */
export function bridgeTransport(ws: WebSocketLike): import('../../live/liveFetch.ts').DatagramTransport {
  let session: BridgeSession | null = null;
  return {
    send: (d) => session?.send(d),
    listen(onDatagram, onFailure) {
      session = new BridgeSession(ws, {
        onData: (payload) => onDatagram(payload),
        onError: (message, fatal) => fatal && onFailure(message),
        onClose: () => onFailure('the relay closed the session'),
      });
    },
    close: () => session?.close(),
  };
}
