import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { handleApi } from './api.ts';
import type { Contest } from './contest/contest.ts';
import { leaveUnread } from './contest/body.ts';
import { handleContest } from './contest/routes.ts';
import type { Bridge } from './bridge.ts';
import { answerWithoutUpgrade, explainClientErrors, MAX_HEADER_BYTES, requestUrl } from './http.ts';
import { staticFiles } from './static.ts';
import { capConnectionsPerAddress, DEADLINE_CHECK_MS, HEADERS_TIMEOUT_MS, hasBody, REQUEST_TIMEOUT_MS, refuseBody } from './httpLimits.ts';
import type { Operator } from './operator.ts';
import { foreignPage } from './pageOrigin.ts';
import type { RelayOptions } from './relayOptions.ts';

/** HTTP connections the relay keeps open beside its bridge sessions. */
export const HTTP_CONNECTIONS_BESIDE_SESSIONS = 512;

/** The HTTP server, listening: port 0 gives a free port (tests), which `httpPort` tells. */
export async function listenHttp(o: RelayOptions, operator: Operator): Promise<{ http: Server; httpPort: number }> {
  const http = createServer({
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: DEADLINE_CHECK_MS,
  });
  // A connection may hold a quarter megabyte of unfinished headers: past the bridge's sessions and room
  // for pages, the leaderboard's watchers and downloads, a new one is closed at once; and one address may
  // hold only its share of those.
  http.maxConnections = o.maxSessions + HTTP_CONNECTIONS_BESIDE_SESSIONS;
  capConnectionsPerAddress(http, o.maxHttpPerClient, operator.isTrustedProxy);
  explainClientErrors(http);
  await new Promise<void>((res, rej) => {
    http.once('error', rej);
    http.listen(o.httpPort, o.host, () => res());
  });
  const address = http.address();
  return { http, httpPort: typeof address === 'object' && address ? address.port : o.httpPort };
}

/** Who may do what over HTTP: the operator, the pages whose origins may change anything, and the contest if one runs. */
export interface Gates {
  operator: Operator;
  origins: readonly string[];
  contest: Contest | null;
}

/**
 * Refuses a request that may change something (any method but GET and HEAD: a submission, a reveal) sent
 * by a page of another origin, without reading its body. Returns whether it refused.
 */
function refusedFromForeignPage(req: IncomingMessage, res: ServerResponse, origins: readonly string[]): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  const error = foreignPage(req, origins);
  if (error === null) return false;
  leaveUnread(req);
  res.writeHead(403, { 'content-type': 'application/json', 'cache-control': 'no-store', connection: 'close' }).end(JSON.stringify({ error }));
  return true;
}

/** Requests to the API or the app (built, or Vite's in dev), and WebSocket upgrades to the bridge. */
export async function route(http: Server, o: RelayOptions, api: Parameters<typeof handleApi>[2], bridge: Bridge, { operator, origins, contest }: Gates): Promise<void> {
  const serveApp = o.dev ? await viteMiddleware(http) : staticFiles(o.distDir);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (refusedFromForeignPage(req, res, origins)) return;
      if (contest && handleContest(req, res, contest)) return;
      if (hasBody(req)) refuseBody(req, res);
      else if (!operator.signIn(req, res) && !handleApi(req, res, api)) serveApp(req, res);
    } catch (e) {
      // A request no handler expected: say so, serve everyone else.
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`bad request: ${(e as Error).message}\n`);
    }
  };
  http.on('request', handle);
  http.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const path = requestUrl(req)?.pathname;
    if (path === '/bridge') bridge.handleUpgrade(req, socket, head);
    // Anything else asking to upgrade (curl --http2 asks for h2c) is answered in HTTP/1.1, as if it had not asked; in dev, Vite takes its own.
    else if (!o.dev || path === undefined) answerWithoutUpgrade(req, socket as Socket, handle);
  });
}

/** Vite in middleware mode, sharing the relay's HTTP server for hot reload. */
async function viteMiddleware(http: Server) {
  const { createServer: createVite } = await import('vite');
  const vite = await createVite({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    server: { middlewareMode: true, hmr: { server: http } },
  });
  http.on('close', () => void vite.close());
  return (req: IncomingMessage, res: ServerResponse) => vite.middlewares(req, res, () => res.writeHead(404).end('not found\n'));
}
