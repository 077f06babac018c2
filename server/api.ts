import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayInfo } from '../shared/relay/info.ts';
import type { EchoRecords } from './echoRecords.ts';
import type { Leaderboard } from './leaderboard.ts';

export interface ApiContext {
  info: RelayInfo;
  board: Leaderboard;
  echo: EchoRecords;
  /** Records of clients' connections are the operator's (requests from this machine) unless shared. */
  shareRecords: boolean;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The address a client's connections come from, without the port. */
const hostOf = (remote: string) => remote.slice(0, remote.lastIndexOf(':'));

/** The relay's JSON and CSV endpoints; returns false for any other path. */
export function handleApi(req: IncomingMessage, res: ServerResponse, { info, board, echo, shareRecords }: ApiContext): boolean {
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
    case '/api/echo': {
      const viewer = req.socket.remoteAddress ?? '';
      if (LOOPBACK.test(viewer)) json(echo.all);
      else if (shareRecords) json(echo.all.filter((c) => hostOf(c.remote) === viewer));
      else res.writeHead(403, { 'content-type': 'text/plain' }).end('records of connections are for the operator: start the relay with --share-records to show each client its own\n');
      break;
    }
    default:
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such endpoint: ${path.slice(0, 100)}\n`);
  }
  return true;
}
