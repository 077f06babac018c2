import { createReadStream, fstatSync, statSync } from 'node:fs';
import { type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { basename, extname, join, normalize, resolve, sep } from 'node:path';
import { quote } from '../shared/text/quote.ts';
import { securityHeaders } from './securityHeaders.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.down': 'text/plain; charset=utf-8',
  '.up': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * A request's URL, or null when its target is neither a path nor a URL. A target that starts with "/"
 * is a path, even "//x/y", which `new URL(target, base)` would read as the host x; an absolute URL (a
 * proxy's form) is read as given.
 */
export function requestUrl(req: IncomingMessage): URL | null {
  const target = req.url ?? '/';
  return URL.parse(target.startsWith('/') ? `http://relay${target}` : target);
}

/** Serves the built app from `root`; paths without a file fall back to index.html (the app's routes). */
export function staticHandler(root: string) {
  const base = resolve(root);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end('method not allowed\n');
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(requestUrl(req)?.pathname ?? '');
    } catch {
      path = '';
    }
    if (!path) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad path: ${quote(req.url ?? '')}\n`);
      return;
    }
    const file = resolve(join(base, normalize(path)));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end('forbidden\n');
      return;
    }
    let target = file;
    if (!isFile(target)) {
      if (extname(path) !== '') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such file: ${quote(path)}\n`);
        return;
      }
      target = join(base, 'index.html');
      if (!isFile(target)) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('the app is not built: run `npm run build`\n');
        return;
      }
    }
    for (const [name, value] of Object.entries(securityHeaders(path))) res.setHeader(name, value);
    sendFile(req, res, target, path.startsWith('/assets/'));
  };
}

/** Whether a path names a regular file this process can see (not a directory, socket, pipe or loop of links). */
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

/** Sends a file once it is open; one that cannot be opened or read (its mode, a build replacing it) fails this request alone. */
function sendFile(req: IncomingMessage, res: ServerResponse, target: string, hashed: boolean): void {
  const head = { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream', 'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache' };
  const stream = createReadStream(target);
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(e.code === 'EACCES' ? 403 : 500, { 'content-type': 'text/plain' }).end(`the server cannot read ${basename(target)} (${e.code ?? e.message})\n`);
  });
  stream.on('open', (fd) => {
    res.writeHead(200, { ...head, 'content-length': fstatSync(fd).size });
    if (req.method === 'HEAD') {
      stream.destroy();
      res.end();
    } else stream.pipe(res);
  });
}

/**
 * Request headers up to this size are read: a shared experiment's URL (with a controller's code in it)
 * runs to tens of kilobytes, past Node's 16 KiB default.
 */
export const MAX_HEADER_BYTES = 256 * 1024;

const TOO_LONG_PAGE = `<!doctype html><meta charset="utf-8"><title>Link too long</title>
<p>This link is longer than the ${MAX_HEADER_BYTES / 1024} KiB this server reads, so the experiment in it cannot be opened.
Open <a href="/">the playground</a> and paste the controller's code into it instead.</p>\n`;

/** Answers a request the HTTP parser refused (headers too large, malformed) with a page that says why, not an empty 431. */
export function explainClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    const tooLong = err.code === 'HPE_HEADER_OVERFLOW';
    const body = tooLong ? TOO_LONG_PAGE : 'bad request\n';
    const head = tooLong ? '431 Request Header Fields Too Large' : '400 Bad Request';
    const type = tooLong ? 'text/html; charset=utf-8' : 'text/plain';
    socket.end(`HTTP/1.1 ${head}\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
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
    socket.end();
  });
  handle(req, res);
}
