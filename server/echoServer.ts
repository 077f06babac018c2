import { createServer, type Server, type Socket } from 'node:net';
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
  const server: Server = createServer((socket) => {
    const from = socket.remoteAddress ?? '';
    const held = perAddress.get(from) ?? 0;
    // The ping-pong format has no room for a reason: a connection over the cap is closed at once.
    if (held >= o.maxPerAddress && !o.fromBridge?.(socket)) return void socket.destroy();
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
    echoMessages(socket, record, o.partialMs);
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
 * Sends each whole message back as it completes. Chunks are joined once a whole message (or its length)
 * is there, not at each one: a client dripping a 64 KB message a few bytes at a time would otherwise make
 * the server copy it thousands of times. A message must be whole within `partialMs` of its first byte:
 * otherwise a few bytes would hold a connection (one of an address's few) for the whole idle time.
 */
function echoMessages(socket: Socket, record: { message(size: number): void }, partialMs: number): void {
  let deadline: ReturnType<typeof setTimeout> | null = null;
  const unfinished = (begun: boolean) => {
    if (deadline && !begun) clearTimeout(deadline);
    if (!begun) deadline = null;
    else deadline ??= setTimeout(() => socket.destroy(), partialMs);
  };
  socket.on('close', () => deadline && clearTimeout(deadline));
  // One listener for the connection's life: the reader pauses when a write backs up and resumes here.
  socket.on('drain', () => socket.resume());
  let parts: Buffer[] = [];
  let have = 0;
  let need = 2;
  socket.on('data', (chunk: Buffer) => {
    parts.push(chunk);
    have += chunk.length;
    unfinished(true);
    if (have < need) return;
    const pending = parts.length === 1 ? parts[0] : Buffer.concat(parts, have);
    let start = 0;
    while (pending.length - start >= 2) {
      const length = pending.readUInt16BE(start);
      if (length < MIN_MESSAGE) {
        socket.destroy();
        return;
      }
      if (pending.length - start < length) break;
      record.message(length);
      const ok = socket.write(pending.subarray(start, start + length));
      start += length;
      unfinished(false);
      if (!ok) socket.pause();
    }
    const rest = pending.subarray(start);
    unfinished(rest.length > 0);
    parts = rest.length ? [rest] : [];
    have = rest.length;
    need = rest.length >= 2 ? Math.max(2, rest.readUInt16BE(0)) : 2;
  });
}
