import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestUrl } from './http.ts';

/**
 * Who runs the relay, told by a secret rather than by where a request comes from: behind a reverse proxy
 * on the same host every client arrives from loopback. The operator holds a token the relay prints at
 * start (as notebook servers do): opening a page with `?token=…` sets a cookie, and a tool sends
 * `Authorization: Bearer …`. Client addresses are the socket's peer, or, for a request that a trusted proxy
 * forwarded, the address its X-Forwarded-For names.
 */
export interface Operator {
  /** The secret; printed once, in the operator's URL. */
  readonly token: string;
  /** Whether the request carries the token (the cookie a `?token=` visit set, or a bearer header). */
  isOperator(req: IncomingMessage): boolean;
  /** The address a request comes from: the peer, or the forwarded client when the peer is a trusted proxy. */
  clientAddress(req: IncomingMessage): string;
  /** Whether connections from this peer address are a trusted proxy's (each carries many clients). */
  isTrustedProxy(address: string): boolean;
  /**
   * A request with `?token=` in its URL: the right one gets the cookie and is sent to the same URL without
   * it (so the token stays out of history and links); a wrong one is refused. Returns whether it answered.
   */
  signIn(req: IncomingMessage, res: ServerResponse): boolean;
  /** The URL the operator opens: `base` with the token. */
  url(base: string): string;
}

export interface OperatorOptions {
  /** The token; null draws a new random one (each start, unless the operator fixes it with --operator-token). */
  token: string | null;
  /** Peer addresses whose X-Forwarded-For is believed. */
  trustedProxies: readonly string[];
  /** Page origins besides the relay's own whose requests may carry the operator's cookie (--allow-origin). */
  allowOrigins?: readonly string[];
}

/** A token drawn for this start: 24 random bytes, URL-safe. */
export const newToken = () => randomBytes(24).toString('base64url');

/** Addresses as sockets report them: an IPv4 peer of a dual-stack socket reads ::ffff:a.b.c.d. */
const plain = (address: string) => address.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');

const sameSecret = (given: string, token: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** One cookie a request sent, by name. */
function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether a request may use the cookie: SameSite=Strict still sends it from another port of this host or
 * another subdomain of the site, so a request whose Origin is not the relay's own (or an allowed one) is
 * refused the operator's rights. Navigations and same-origin GETs send no Origin.
 */
function fromOwnPage(req: IncomingMessage, allowOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || allowOrigins.includes(origin)) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

export function createOperator(o: OperatorOptions): Operator {
  const token = o.token ?? newToken();
  const proxies = new Set(o.trustedProxies.map(plain));
  // Named after the token, so relays on other ports of one host (cookies ignore ports) keep theirs apart.
  const cookieName = `pipefill-operator-${createHash('sha256').update(token).digest('hex').slice(0, 8)}`;
  const isTrustedProxy = (address: string) => proxies.has(plain(address));
  return {
    token,
    isTrustedProxy,
    isOperator(req) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const given = bearer ?? (fromOwnPage(req, o.allowOrigins ?? []) ? cookie(req, cookieName) : undefined);
      return given !== undefined && sameSecret(given, token);
    },
    clientAddress(req) {
      const peer = plain(req.socket.remoteAddress ?? '');
      if (!isTrustedProxy(peer)) return peer;
      // Each proxy appends the address it heard from: read from the right, past the trusted ones.
      const chain = String(req.headers['x-forwarded-for'] ?? '')
        .split(',')
        .map(plain)
        .filter((a) => a !== '');
      let client = peer;
      for (let i = chain.length - 1; i >= 0 && isTrustedProxy(client); i--) client = chain[i];
      return client;
    },
    signIn(req, res) {
      const url = requestUrl(req);
      const given = url?.searchParams.get('token');
      if (!url || given === null || given === undefined) return false;
      if (!sameSecret(given, token)) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('wrong operator token: open the URL the relay printed at start\n');
        return true;
      }
      url.searchParams.delete('token');
      res
        .writeHead(303, {
          location: `${url.pathname}${url.search}`,
          'set-cookie': `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`,
          'cache-control': 'no-store',
        })
        .end();
      return true;
    },
    url: (base) => `${base}/?token=${token}`,
  };
}
