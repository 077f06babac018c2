import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayInfo } from '../shared/relay/info.ts';
import type { Leaderboard } from './leaderboard.ts';

/** The relay's JSON and CSV endpoints; returns false for any other path. */
export function handleApi(req: IncomingMessage, res: ServerResponse, info: RelayInfo, board: Leaderboard): boolean {
  const path = new URL(req.url ?? '/', 'http://relay').pathname;
  if (!path.startsWith('/api/')) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end('method not allowed\n');
    return true;
  }
  const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  switch (path) {
    case '/api/relay':
      json(info);
      break;
    case '/api/leaderboard':
      json(board.all);
      break;
    case '/api/leaderboard.csv':
      res
        .writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="leaderboard.csv"', 'cache-control': 'no-store' })
        .end(board.csv());
      break;
    case '/api/leaderboard/events':
      board.watch(res);
      break;
    default:
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such endpoint: ${path.slice(0, 100)}\n`);
  }
  return true;
}
