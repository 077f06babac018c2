import { createSocket, type Socket } from 'node:dgram';

/** A UDP client (on 127.0.0.1 unless `from` says another loopback address) that collects what comes back. */
export class UdpProbe {
  readonly socket: Socket;
  private readonly inbox: Buffer[] = [];
  private waiter: (() => void) | null = null;

  private constructor(port: number, from: string) {
    this.socket = createSocket('udp4');
    this.socket.on('message', (m) => {
      this.inbox.push(m);
      this.waiter?.();
    });
    this.socket.bind(0, from, () => this.socket.connect(port, '127.0.0.1'));
  }

  static async open(port: number, from = '127.0.0.1'): Promise<UdpProbe> {
    const p = new UdpProbe(port, from);
    await new Promise<void>((r) => p.socket.once('connect', () => r()));
    return p;
  }

  send(data: string | Uint8Array): void {
    this.socket.send(typeof data === 'string' ? Buffer.from(data) : data);
  }

  /**
   * The next datagram, or null if none comes within `ms`. The default waits long enough for an answer on a
   * busy machine; a test that expects silence names its own, shorter wait.
   */
  async next(ms = 5000): Promise<Buffer | null> {
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

  /**
   * The text of the next datagram that starts as `head` says, passing over the others: a reply to a data
   * request can come after the client has moved on (a retry's twin, a duplicate), and must not be read as the
   * answer to what came next. Null if none comes within `ms`.
   */
  async answer(head: RegExp, ms = 10_000): Promise<string | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const got = text(await this.next(Math.max(0, deadline - Date.now())));
      if (got === null || head.test(got)) return got;
    }
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

/**
 * Makes `p`'s session one that was served the whole file, as the leaderboard asks of a Submit it ranks: asks
 * for each chunk until it comes, 8 ms apart so that each request finds a token (the bucket refills one per
 * 4 ms). Gives up after `limitMs`.
 */
export async function fetchWhole(p: UdpProbe, limitMs = 15_000): Promise<void> {
  const started = Date.now();
  p.send('SendSize\n\n');
  const size = Number(/Size: (\d+)/.exec((await p.answer(/^Size: /)) ?? '')?.[1]);
  for (let offset = 0; offset < size; offset += 1448) {
    for (;;) {
      if (Date.now() - started > limitMs) throw new Error(`the file was not fetched within ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 8));
      p.send(`Offset: ${offset}\nNumBytes: 1448\n\n`);
      if (text(await p.next(30))?.startsWith(`Offset: ${offset}\n`)) break;
    }
  }
}
