import { createServer, type Server, type Socket } from 'node:net';
import { EchoRecords } from './echoRecords.ts';

export interface EchoServerOptions {
  host: string;
  port: number;
  /** Connections silent this long are closed. */
  idleMs: number;
  maxConnections: number;
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
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const record = records.open(`${socket.remoteAddress}:${socket.remotePort}`);
    socket.setNoDelay(true);
    socket.setTimeout(o.idleMs, () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      record.close();
    });
    socket.on('error', () => socket.destroy());
    // One listener for the connection's life: the reader pauses when a write backs up and resumes here.
    socket.on('drain', () => socket.resume());
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
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
        if (!ok) socket.pause();
      }
      pending = start === pending.length ? Buffer.alloc(0) : pending.subarray(start);
    });
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
