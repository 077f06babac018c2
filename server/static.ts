import { statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, relative, resolve, sep } from 'node:path';
import send from 'send';
import { quote } from '../shared/text/quote.ts';
import { requestUrl } from './http.ts';
import { securityHeaders } from './securityHeaders.ts';

/**
 * The built app's files, sent by `send` (pillarjs, Express's static server): ETag and Last-Modified with
 * conditional GET, ranges, a failed read failing its request alone. Text files go compressed where the
 * build wrote FILE.br or FILE.gz beside them (scripts/build.mjs) and the browser takes that encoding; the
 * hashed /assets/ are cached for good, the rest revalidated. A path without an extension is the app (its
 * index.html), one with an extension that names no file a 404.
 */
const COMPRESSED_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.md': 'text/markdown; charset=utf-8',
  '.down': 'text/plain; charset=utf-8',
  '.up': 'text/plain; charset=utf-8',
};
/** The compressed copies the build writes beside a file, and the suffix each is served under (routes name them too). */
export const ENCODINGS = [
  { name: 'br', suffix: '.br', accepts: /\bbr\b/ },
  { name: 'gzip', suffix: '.gz', accepts: /\bgzip\b/ },
] as const;

const isFile = (path: string) => {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
};

export function staticFiles(root: string) {
  const base = resolve(root);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end('method not allowed\n');
    let path: string;
    try {
      path = decodeURIComponent(requestUrl(req)?.pathname ?? '');
    } catch {
      path = '';
    }
    if (!path) return void res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad path: ${quote(req.url ?? '')}\n`);
    const file = resolve(join(base, normalize(path)));
    if (file !== base && !file.startsWith(base + sep)) return void res.writeHead(403).end('forbidden\n');
    let target = file;
    if (!isFile(target)) {
      if (extname(path) !== '') return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such file: ${quote(path)}\n`);
      target = join(base, 'index.html');
      if (!isFile(target)) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('the app is not built: run `npm run build`\n');
    }
    for (const [name, value] of Object.entries(securityHeaders(path))) res.setHeader(name, value);
    sendFile(req, res, base, target, path.startsWith('/assets/'));
  };
}

function sendFile(req: IncomingMessage, res: ServerResponse, base: string, target: string, hashed: boolean): void {
  const type = COMPRESSED_TYPES[extname(target)];
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding = type ? ENCODINGS.find((e) => e.accepts.test(accepted) && isFile(target + e.suffix)) : undefined;
  if (type) {
    res.setHeader('content-type', type);
    res.setHeader('vary', 'Accept-Encoding');
  }
  if (encoding) res.setHeader('content-encoding', encoding.name);
  res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  const file = relative(base, target + (encoding?.suffix ?? ''))
    .split(sep)
    .map(encodeURIComponent)
    .join('/');
  send(req, `/${file}`, { root: base, cacheControl: false, dotfiles: 'allow', index: false })
    .on('error', (e: Error & { status?: number }) => {
      if (res.headersSent) return void res.destroy();
      res.removeHeader('content-encoding');
      res.writeHead(e.status ?? 500, { 'content-type': 'text/plain' }).end(`the server cannot read ${quote(relative(base, target))} (${e.message})\n`);
    })
    .pipe(res);
}
