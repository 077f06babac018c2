import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEADER_BYTES } from './emulatedLink.ts';

/**
 * Measurements of a running link proxy from the outside, on loopback: a sender and a receiver socket in
 * this process, so both ends read one clock. Each datagram carries its number and send time. The tests
 * and the benchmark share these.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Arrival {
  id: number;
  sentAt: number;
  at: number;
  bytes: number;
}

/** A probe datagram's number and send time; datagrams too short to carry them count with number -1. */
const arrival = (m: Buffer): Arrival =>
  m.length >= 12
    ? { id: m.readUInt32BE(0), sentAt: m.readDoubleBE(4), at: performance.now(), bytes: m.length + HEADER_BYTES }
    : { id: -1, sentAt: NaN, at: performance.now(), bytes: m.length + HEADER_BYTES };

export class ProbeEnds {
  readonly arrivals: Arrival[] = [];
  /** Echoes that came back to the sender, when `echo` is on. */
  readonly replies: Arrival[] = [];
  /** Whether the receiver sends every datagram back, for the reply direction. */
  echo = false;
  private constructor(
    readonly sender: Socket,
    readonly receiver: Socket,
  ) {
    receiver.on('message', (m, from) => {
      this.arrivals.push(arrival(m));
      if (this.echo) receiver.send(m, from.port, from.address);
    });
    sender.on('message', (m) => this.replies.push(arrival(m)));
  }

  static async open(): Promise<ProbeEnds> {
    const bind = () =>
      new Promise<Socket>((r) => {
        const s = createSocket({ type: 'udp4', recvBufferSize: 8 << 20, sendBufferSize: 8 << 20 });
        s.bind(0, '127.0.0.1', () => r(s));
      });
    return new ProbeEnds(await bind(), await bind());
  }

  get receiverPort(): number {
    return this.receiver.address().port;
  }

  send(port: number, id: number, payload: number): void {
    const b = Buffer.alloc(Math.max(12, payload));
    b.writeUInt32BE(id, 0);
    b.writeDoubleBE(performance.now(), 4);
    this.sender.send(b, port, '127.0.0.1');
  }

  /** Waits until `count` datagrams have arrived, or `ms` pass with none arriving. */
  async settle(count: number, ms = 200): Promise<void> {
    let seen = -1;
    while (this.arrivals.length < count && this.arrivals.length !== seen) {
      seen = this.arrivals.length;
      await sleep(ms);
    }
  }

  close(): void {
    this.sender.close();
    this.receiver.close();
  }
}

/**
 * One-way delays of `n` small datagrams sent `gapMs` apart (the link idle between them), ms, sorted.
 * The first `warmUp` are sent and left out: a freshly started process compiles its code paths then.
 */
export async function idleDelays(ends: ProbeEnds, port: number, n = 200, gapMs = 4, warmUp = 50): Promise<number[]> {
  ends.arrivals.length = 0;
  for (let i = 0; i < warmUp; i++) {
    ends.send(port, i, 64);
    await sleep(gapMs);
  }
  await ends.settle(warmUp);
  ends.arrivals.length = 0;
  for (let i = 0; i < n; i++) {
    ends.send(port, i, 64);
    await sleep(gapMs);
  }
  await ends.settle(n);
  return ends.arrivals.map((a) => a.at - a.sentAt).sort((a, b) => a - b);
}

/**
 * Overloads the link at `factor` × `mbps` with `payload`-byte datagrams for `ms`, and returns the rate
 * at which they arrive (wire bytes, as the link counts them): bits after the first arrival ÷ the time
 * from the first arrival to the last, Mbit/s.
 */
export async function overloadRate(ends: ProbeEnds, port: number, mbps: number, ms: number, payload = 1000, factor = 1.5): Promise<number> {
  ends.arrivals.length = 0;
  const perMs = (factor * mbps * 1000) / 8 / (payload + HEADER_BYTES);
  const start = performance.now();
  let sent = 0;
  while (performance.now() - start < ms) {
    const owed = Math.floor((performance.now() - start) * perMs) - sent;
    for (let k = 0; k < owed; k++) ends.send(port, sent++, payload);
    await sleep(2);
  }
  await ends.settle(Infinity);
  const a = ends.arrivals;
  if (a.length < 2) return NaN;
  const bits = a.slice(1).reduce((s, x) => s + x.bytes * 8, 0);
  return bits / (a[a.length - 1].at - a[0].at) / 1000;
}

/**
 * Sends `n` numbered datagrams in paced batches (so no socket buffer overflows on the way) and returns
 * the fraction lost (numbers never seen) and the fraction duplicated (extra copies per number seen).
 */
export async function lossAndDuplication(ends: ProbeEnds, port: number, n = 10_000, batch = 50): Promise<{ loss: number; duplicate: number }> {
  ends.arrivals.length = 0;
  for (let i = 0; i < n; i += batch) {
    for (let k = i; k < Math.min(n, i + batch); k++) ends.send(port, k, 32);
    await sleep(1);
  }
  await ends.settle(Infinity);
  const seen = new Set(ends.arrivals.map((a) => a.id));
  return { loss: 1 - seen.size / n, duplicate: (ends.arrivals.length - seen.size) / seen.size };
}

/** Starts `npm run link` as its own process and resolves with its listening port once it is up. */
export async function startLinkProcess(args: string[]): Promise<{ child: ChildProcess; port: number; stop: () => Promise<string> }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'server/cli/link.ts'), '--listen', '127.0.0.1:0', ...args], { cwd: ROOT });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^link: [\d.]+:(\d+) →/m.exec(out);
      if (m) resolvePort(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`link exited with ${code}: ${err}`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    port,
    stop: async () => {
      child.kill('SIGINT');
      await exited;
      return out;
    },
  };
}
