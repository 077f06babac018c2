import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { extname, join, normalize, resolve, sep } from 'node:path';

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
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://relay').pathname);
    } catch {
      res.writeHead(400).end('bad path\n');
      return;
    }
    const file = resolve(join(base, normalize(path)));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end('forbidden\n');
      return;
    }
    let target = file;
    if (!existsSync(target) || statSync(target).isDirectory()) {
      if (extname(path) !== '') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such file: ${path}\n`);
        return;
      }
      target = join(base, 'index.html');
      if (!existsSync(target)) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('the app is not built: run `npm run build`\n');
        return;
      }
    }
    const hashed = path.startsWith('/assets/');
    res.writeHead(200, {
      'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
      'content-length': statSync(target).size,
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(target).pipe(res);
  };
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
