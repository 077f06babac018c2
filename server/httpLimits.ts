import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Headers still unfinished after this long close their connection (Node's default is a minute). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request (headers and any body) must arrive within this (Node's default is five minutes). */
export const REQUEST_TIMEOUT_MS = 15_000;
/** How often Node looks for connections past those deadlines (its default, 30 s, would let them run on). */
export const DEADLINE_CHECK_MS = 1000;

/**
 * Caps the connections one peer address holds on the HTTP server: past `maxPerAddress` a new one is
 * closed at once, whatever the address (this machine's too), so no one client takes every connection.
 * A trusted proxy's connections carry many clients: they are bounded by the server's total alone.
 */
export function capConnectionsPerAddress(server: Server, maxPerAddress: number, uncapped: (address: string) => boolean): void {
  const held = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const from = socket.remoteAddress ?? '';
    if (uncapped(from)) return;
    const n = held.get(from) ?? 0;
    if (n >= maxPerAddress) return void socket.destroy();
    held.set(from, n + 1);
    socket.once('close', () => {
      const left = (held.get(from) ?? 1) - 1;
      if (left === 0) held.delete(from);
      else held.set(from, left);
    });
  });
}

/** Whether a request comes with a body (no route of the relay takes one). */
export const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Answers a request that carries a body without reading it, and closes the connection: otherwise Node
 * reads the rest to reuse the connection, and a GET with `Content-Length: 2000000000` costs the relay 2 GB.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse): void {
  res.shouldKeepAlive = false;
  res.on('finish', () => req.socket.destroy());
  res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('this relay takes no request bodies\n');
}
