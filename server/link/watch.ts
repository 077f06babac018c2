import { createServer, type Server } from 'node:http';
import type { Address } from './emulatedLink.ts';
import { requestUrl } from '../http.ts';

/** What the watch endpoint needs of the link: its trace CSV so far and how many rows that is. */
export interface Watched {
  csv(): string;
  readonly rowCount: number;
}

/**
 * A tiny HTTP endpoint through which the page's Sessions view watches the link live:
 * `GET /link.csv` is the trace CSV so far (made again only when rows were added). Any page may read it
 * (the link's timings and sizes, never payloads), so it answers with `access-control-allow-origin: *`;
 * it binds the address given, loopback unless the operator says otherwise.
 */
export async function serveWatch(link: Watched, at: Address): Promise<{ port: number; close(): void }> {
  let cached = { rows: -1, body: '' };
  const server: Server = createServer((req, res) => {
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    const path = requestUrl(req)?.pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end('method not allowed\n');
    if (path !== '/link.csv') return void res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('the link serves /link.csv\n');
    if (cached.rows !== link.rowCount) cached = { rows: link.rowCount, body: link.csv() };
    res.writeHead(200, { ...headers, 'content-type': 'text/csv; charset=utf-8' }).end(cached.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
  const address = server.address();
  const close = () => {
    server.close();
    // close() alone waits for every open connection, and one holding an unfinished request would keep the
    // link from exiting at Ctrl-C until the request timeout, minutes later.
    server.closeAllConnections();
  };
  return { port: typeof address === 'object' && address ? address.port : at.port, close };
}
