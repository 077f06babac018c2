import { type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A request's URL, or null when its target is neither a path nor a URL. A target that starts with "/"
 * is a path, even "//x/y", which `new URL(target, base)` would read as the host x; an absolute URL (a
 * proxy's form) is read as given.
 */
export function requestUrl(req: IncomingMessage): URL | null {
  const target = req.url ?? '/';
  return URL.parse(target.startsWith('/') ? `http://relay${target}` : target);
}

/**
 * Request headers up to this size are read: a shared experiment's URL (with a controller's code in it)
 * runs to tens of kilobytes, past Node's 16 KiB default.
 */
export const MAX_HEADER_BYTES = 256 * 1024;

const TOO_LONG_PAGE = `<!doctype html><meta charset="utf-8"><title>Link too long</title>
<p>This link is longer than the ${MAX_HEADER_BYTES / 1024} KiB this server reads, so the experiment in it cannot be opened.
Open <a href="/">the playground</a> and paste the controller's code into it instead.</p>\n`;

/** A request the server refused before any route saw it, answered with why. */
interface Refusal {
  status: string;
  type: string;
  body: string;
}

/**
 * Why the HTTP layer refused a request: headers too large (a page), a request that did not arrive in time,
 * or what the parser found malformed (its own words, never the client's bytes).
 */
function refusalOf(err: NodeJS.ErrnoException & { reason?: string }, server: Server): Refusal {
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: '431 Request Header Fields Too Large', type: 'text/html; charset=utf-8', body: TOO_LONG_PAGE };
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: '408 Request Timeout',
      type: 'text/plain',
      body: `the request did not arrive in time: its headers are waited for ${server.headersTimeout / 1000} s, the whole of it ${server.requestTimeout / 1000} s\n`,
    };
  }
  return { status: '400 Bad Request', type: 'text/plain', body: `bad request: ${err.reason ?? err.code ?? 'malformed'}\n` };
}

/** Answers a request the HTTP parser refused (headers too large, too slow, malformed) with why, not an empty 4xx. */
export function explainClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection that sent nothing by the headers' deadline (a browser's connection opened ahead of its
    // next request) is closed without an answer: one written there would be read as that request's.
    const silent = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && (socket as Socket).bytesRead === 0;
    if (!socket.writable || silent) return socket.destroy();
    const { status, type, body } = refusalOf(err, server);
    // Closed once the answer is written, not only half-closed: a client that never reads nor closes
    // would otherwise hold its connection (and its address's share) for good.
    socket.once('finish', () => socket.destroy());
    socket.end(`HTTP/1.1 ${status}\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}

/**
 * Answers a request that asked to upgrade to a protocol this server does not speak in plain HTTP/1.1,
 * as a server without upgrades does, then closes the connection.
 */
export function answerWithoutUpgrade(req: IncomingMessage, socket: Socket, handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.on('finish', () => {
    res.detachSocket(socket);
    socket.destroySoon(); // closed, not half-closed: see explainClientErrors
  });
  handle(req, res);
}
