import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
