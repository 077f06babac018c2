import { createSocket, type Socket } from 'node:dgram';

/** A UDP client on 127.0.0.1 that collects what comes back, for conformance tests. */
export class UdpProbe {
  readonly socket: Socket;
  private readonly inbox: Buffer[] = [];
  private waiter: (() => void) | null = null;

  private constructor(port: number) {
    this.socket = createSocket('udp4');
    this.socket.on('message', (m) => {
      this.inbox.push(m);
      this.waiter?.();
    });
    this.socket.connect(port, '127.0.0.1');
  }

  static async open(port: number): Promise<UdpProbe> {
    const p = new UdpProbe(port);
    await new Promise<void>((r) => p.socket.once('connect', () => r()));
    return p;
  }

  send(data: string | Uint8Array): void {
    this.socket.send(typeof data === 'string' ? Buffer.from(data) : data);
  }

  /** The next datagram, or null if none comes within `ms`. */
  async next(ms = 500): Promise<Buffer | null> {
    if (this.inbox.length) return this.inbox.shift()!;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.waiter = () => {
        clearTimeout(t);
        resolve();
      };
    });
    this.waiter = null;
    return this.inbox.shift() ?? null;
  }

  /** Everything that arrived within `ms`. */
  async drain(ms: number): Promise<Buffer[]> {
    await new Promise((r) => setTimeout(r, ms));
    return this.inbox.splice(0);
  }

  close(): void {
    this.socket.close();
  }
}

export const text = (b: Buffer | null) => (b ? b.toString('latin1') : null);
