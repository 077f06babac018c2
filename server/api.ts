import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayInfo } from '../shared/relay/info.ts';
import type { BridgedClients } from './bridgedClients.ts';
import type { EchoRecords } from './echoRecords.ts';
import type { Leaderboard } from './leaderboard.ts';
import { loopbackRtt } from './loopbackRtt.ts';
import type { SessionSummary } from './sessionRecords.ts';
import { requestUrl } from './http.ts';
import type { Operator } from './operator.ts';

export interface ApiContext {
  info: RelayInfo;
  operator: Operator;
  board: Leaderboard;
  /** The records journal's state, for the operator and /api/relay (null: the relay keeps no records). */
  records?: () => RelayInfo['records'];
  echo: EchoRecords;
  /** Records of clients' sessions and connections are the operator's (requests with the token) unless shared. */
  shareRecords: boolean;
  /** …and then every client sees every record, not only those from its own address. */
  shareAllRecords?: boolean;
  sessions(): Promise<SessionSummary[]>;
  sessionCsv(id: string): Promise<string | null>;
  /** The pages behind the bridge's sockets: a bridged record is the page's address's, not the relay's. */
  bridgedClients?: BridgedClients;
}

/** The address a client's connections come from, without the port. */
const hostOf = (remote: string) => remote.slice(0, remote.lastIndexOf(':'));
/** A session key is an IPv4 address (the offset servers listen on IPv4), or address:port. */
const addressOfKey = (key: string) => key.split(':')[0];

/**
 * A record of one of the relay's sockets (`remote`, address:port, opened at `atMs`) with `browser`, the
 * address of the page it spoke for when it is one of the bridge's: that page's owns it.
 */
function withBrowser<T extends object>(context: ApiContext, r: T, remote: string, atMs: number): T & { browser?: string } {
  const browser = context.bridgedClients?.clientOf(remote, atMs);
  return browser === undefined ? r : { ...r, browser };
}

const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));

/**
 * Who asks, and which records they may see: the operator (a request with the token) every one; another
 * client those of its own address if the relay shares records, or every one if it shares them all.
 */
function viewerOf(req: IncomingMessage, { shareRecords, shareAllRecords = false, operator: who }: ApiContext) {
  const viewer = who.clientAddress(req);
  const operator = who.isOperator(req);
  const clientRecords = operator || shareRecords || shareAllRecords;
  return {
    viewer,
    operator,
    mine: (address: string) => operator || shareAllRecords || address === viewer,
    /** Whether records may be shown at all. */
    clientRecords,
    /** Whether records may be shown at all; if not, answers why. */
    mayView(res: ServerResponse): boolean {
      if (clientRecords) return true;
      res
        .writeHead(403, { 'content-type': 'text/plain' })
        .end('records of clients are for the operator: start the relay with --share-records to show each client its own, or --share-all-records to show everyone all\n');
      return false;
    },
  };
}

/** A recorded session's CSV by its id (as escaped in the path), or 404 for one unknown or not the viewer's. */
async function sendSessionCsv(res: ServerResponse, context: ApiContext, escaped: string, mine: (address: string) => boolean): Promise<void> {
  let id = escaped;
  try {
    id = decodeURIComponent(escaped);
  } catch {
    // not an escape of any recorded id: answered as unknown below
  }
  const [key, start] = id.split('@');
  const owner = context.bridgedClients?.clientOf(key, Number(start)) ?? addressOfKey(key);
  const body = mine(owner) ? await context.sessionCsv(id).catch(() => null) : null;
  if (body === null) res.writeHead(404, { 'content-type': 'text/plain' }).end(`no recorded session ${id.slice(0, 100)}\n`);
  else res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'cache-control': 'no-store' }).end(body);
}

/** The relay's JSON and CSV endpoints; returns false for any other path. */
export function handleApi(req: IncomingMessage, res: ServerResponse, context: ApiContext): boolean {
  const { info, board, echo } = context;
  const path = requestUrl(req)?.pathname ?? '';
  if (!path.startsWith('/api/')) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end('method not allowed\n');
    return true;
  }
  const { viewer, operator, mine, mayView, clientRecords } = viewerOf(req, context);
  switch (path) {
    case '/api/relay':
      void loopbackRtt().then(
        (loopbackRttMs) => json(res, { ...info, operator, clientRecords, loopbackRttMs, records: context.records?.() ?? null }),
        () => json(res, { ...info, operator, clientRecords, records: context.records?.() ?? null }),
      );
      break;
    case '/api/leaderboard':
      json(res, board.all);
      break;
    case '/api/leaderboard.csv':
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="leaderboard.csv"', 'cache-control': 'no-store' }).end(board.csv());
      break;
    case '/api/leaderboard/attempts':
      json(res, board.attempts(requestUrl(req)?.searchParams.get('id') ?? ''));
      break;
    case '/api/leaderboard/events':
      board.watch(res, viewer, req.method === 'HEAD');
      break;
    case '/api/echo':
      if (mayView(res))
        json(
          res,
          echo.all.map((c) => withBrowser(context, c, c.remote, Date.parse(c.openedAt))).filter((c) => mine(c.browser ?? hostOf(c.remote))),
        );
      break;
    case '/api/sessions':
      if (mayView(res))
        void context.sessions().then(
          (all) =>
            json(
              res,
              all.map((s) => withBrowser(context, s, s.key, Date.parse(s.started))).filter((s) => mine(s.browser ?? addressOfKey(s.key))),
            ),
          () => res.writeHead(500, { 'content-type': 'text/plain' }).end('the offset servers did not answer\n'),
        );
      break;
    default: {
      const csv = /^\/api\/sessions\/([^/]+)\/csv$/.exec(path);
      if (csv && mayView(res)) void sendSessionCsv(res, context, csv[1], mine);
      else if (!csv) res.writeHead(404, { 'content-type': 'text/plain' }).end(`no such endpoint: ${path.slice(0, 100)}\n`);
    }
  }
  return true;
}
