import { createServer, type Server, type Socket } from 'node:net';
import { Meter } from './bridgeMeter.ts';
import { EchoRecords } from './echoRecords.ts';

export interface EchoServerOptions {
  host: string;
  port: number;
  /** Connections silent this long are closed. */
  idleMs: number;
  maxConnections: number;
  /** Connections one remote address may hold at once (any address, this machine's too), so that no one client shuts the others out. */
  maxPerAddress: number;
  /**
   * Whether a connection is the relay's bridge carrying a browser's session (which the bridge caps per
   * browser): those are bounded by maxConnections alone.
   */
  fromBridge?: (socket: Socket) => boolean;
  /** A message begun this long ago and still unfinished closes its connection. */
  partialMs: number;
  /**
   * What one address's connections may send together each second (the bridge's connections apart: the
   * bridge meters those per page). Past it the server stops reading them until the budget refills, and TCP
   * holds the rest at the sender: a flood of tiny messages, each framed and echoed, would otherwise take the
   * relay's thread from every other client.
   */
  perAddress: { messagesPerSecond: number; bytesPerSecond: number };
}

export interface EchoServer {
  readonly port: number;
  readonly connections: number;
  /** Each connection's message sizes and round trips, as the server saw them. */
  readonly records: EchoRecords;
  close(): Promise<void>;
}

export const MIN_MESSAGE = 2;
export const MAX_MESSAGE = 65_535;

/**
 * The ping-pong echo server: each message starts with its total length as a 2-byte big-endian integer,
 * and each whole message comes back unchanged. A length below 2 cannot frame anything: the connection
 * is closed.
 */
export async function startEchoServer(o: EchoServerOptions): Promise<EchoServer> {
  const sockets = new Set<Socket>();
  const records = new EchoRecords();
  const perAddress = new Map<string, number>();
  const budgets = new AddressBudgets(o.perAddress);
  const server: Server = createServer((socket) => {
    const from = socket.remoteAddress ?? '';
    const held = perAddress.get(from) ?? 0;
    const bridged = o.fromBridge?.(socket) ?? false;
    // The ping-pong format has no room for a reason: a connection over the cap is closed at once.
    if (held >= o.maxPerAddress && !bridged) return void socket.destroy();
    perAddress.set(from, held + 1);
    sockets.add(socket);
    const record = records.open(`${socket.remoteAddress}:${socket.remotePort}`);
    socket.setNoDelay(true);
    socket.setTimeout(o.idleMs, () => socket.destroy());
    socket.on('close', () => {
      const n = (perAddress.get(from) ?? 1) - 1;
      if (n === 0) perAddress.delete(from);
      else perAddress.set(from, n);
      sockets.delete(socket);
      record.close();
    });
    socket.on('error', () => socket.destroy());
    echoMessages(socket, record, o.partialMs, bridged ? null : budgets.of(from, (a) => perAddress.has(a)));
  });
  server.maxConnections = o.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : o.port,
    get connections() {
      return sockets.size;
    },
    records,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Each address's budget, made full with its first connection. One is forgotten only once its address holds
 * no connection and it has saved up all it may (a new one would be the same): closing and reopening
 * connections does not refill it.
 */
class AddressBudgets {
  private readonly byAddress = new Map<string, Meter>();

  constructor(private readonly l: EchoServerOptions['perAddress']) {}

  of(address: string, connected: (address: string) => boolean): Meter {
    const now = performance.now();
    for (const [a, m] of this.byAddress) if (a !== address && !connected(a) && m.rested(now)) this.byAddress.delete(a);
    let meter = this.byAddress.get(address);
    if (!meter) {
      // A tenth of a second's messages and a second's bytes at once, as the bridge's budgets: a ping-pong series goes through whole.
      const burst = Math.max(100, this.l.messagesPerSecond / 10);
      meter = new Meter({ maxDatagramsPerSecond: this.l.messagesPerSecond, maxBytesPerSecond: this.l.bytesPerSecond, burst, maxMessageBytes: MAX_MESSAGE }, now);
      this.byAddress.set(address, meter);
    }
    return meter;
  }
}

/**
 * Sends each whole message back as it completes, while the address's `budget` (none: unmetered) has room;
 * past it, reading stops until it refills. Chunks are joined once a whole message (or its length) is there,
 * not at each one: a client dripping a 64 KB message a few bytes at a time would otherwise make the server
 * copy it thousands of times. A message must be whole within `partialMs` of its first byte: otherwise a
 * few bytes would hold a connection (one of an address's few) for the whole idle time.
 */
function echoMessages(socket: Socket, record: { message(size: number): void }, partialMs: number, budget: Meter | null): void {
  let deadline: ReturnType<typeof setTimeout> | null = null;
  const unfinished = (begun: boolean) => {
    if (deadline && !begun) clearTimeout(deadline);
    if (!begun) deadline = null;
    else deadline ??= setTimeout(() => socket.destroy(), partialMs);
  };
  /** Set while the budget is spent and the reader paused for it. */
  let refilling: ReturnType<typeof setTimeout> | null = null;
  socket.on('close', () => {
    if (deadline) clearTimeout(deadline);
    if (refilling) clearTimeout(refilling);
  });
  // One listener for the connection's life: the reader pauses when a write backs up and resumes here.
  socket.on('drain', () => refilling === null && socket.resume());
  let parts: Buffer[] = [];
  let have = 0;
  let need = 2;
  const refill = (ms: number) => {
    socket.pause();
    refilling = setTimeout(() => {
      refilling = null;
      if (!socket.writableNeedDrain) socket.resume();
      echoWhole();
    }, Math.ceil(ms));
  };
  const echoWhole = () => {
    const pending = parts.length === 1 ? parts[0] : Buffer.concat(parts, have);
    let start = 0;
    while (pending.length - start >= 2) {
      const length = pending.readUInt16BE(start);
      if (length < MIN_MESSAGE) return void socket.destroy();
      if (pending.length - start < length) break;
      const spent = budget?.delay(length, performance.now());
      if (spent) {
        refill(spent.ms);
        break;
      }
      record.message(length);
      start += length;
    }
    // Whole messages come back unchanged and in order: all those in hand in one write.
    if (start > 0) {
      unfinished(false);
      if (!socket.write(pending.subarray(0, start))) socket.pause();
    }
    const rest = pending.subarray(start);
    parts = rest.length ? [rest] : [];
    have = rest.length;
    need = rest.length >= 2 ? Math.max(2, rest.readUInt16BE(0)) : 2;
    // Whole messages held for the budget are the server's wait, not the client's unfinished message.
    unfinished(refilling === null && rest.length > 0);
  };
  socket.on('data', (chunk: Buffer) => {
    parts.push(chunk);
    have += chunk.length;
    // What was on its way as the reader paused waits with the rest for the budget.
    if (refilling) return;
    unfinished(true);
    if (have >= need) echoWhole();
  });
}
