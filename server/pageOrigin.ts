import type { IncomingMessage } from 'node:http';
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { quote } from '../shared/text/quote.ts';

/** Addresses that bind every IPv4 interface (the relay's UDP servers are IPv4). */
const WILDCARDS = new Set(['0.0.0.0', '0']);

/**
 * The hosts a page of the relay is opened at, as the relay prints them: `host` itself, or for a wildcard
 * the machine's own IPv4 addresses (read at start), those reachable from elsewhere first; loopback where
 * the machine tells none.
 */
export function pageHosts(host: string, interfaces: () => NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces): string[] {
  if (!WILDCARDS.has(host)) return [host.includes(':') ? `[${host}]` : host];
  let all: NetworkInterfaceInfo[] = [];
  try {
    all = Object.values(interfaces())
      .flat()
      .filter((a): a is NetworkInterfaceInfo => a?.family === 'IPv4');
  } catch {
    // a platform that will not list its interfaces: the page is still at loopback
  }
  const hosts = [...all.filter((a) => !a.internal), ...all.filter((a) => a.internal)].map((a) => a.address);
  return hosts.length ? hosts : ['127.0.0.1'];
}

/**
 * The origins whose pages may use the relay besides the one each request came to (see foreignPage): its
 * own page's as its address is written on this port, and those the operator names with --allow-origin. A
 * page of any other origin must not open a bridge session nor change anything (submit, reveal): its
 * visitor's browser would act, from the visitor's address and with the visitor's cookie, for whoever
 * wrote that page.
 */
export function pageOrigins(host: string, httpPort: number, allowOrigins: readonly string[]): string[] {
  return [...new Set([host, 'localhost', '127.0.0.1'].map((h) => `http://${h}:${httpPort}`)), ...allowOrigins];
}

/**
 * The origin of a page served at the very address and port this request came to: the relay's own (no
 * other server answers there), however the relay was reached, where a wildcard binds every interface. An
 * address of the same number elsewhere (another machine of the visitor's network) is another origin's.
 */
function arrivedAt(req: IncomingMessage): string | null {
  const address = req.socket.localAddress?.replace(/^::ffff:/, '');
  if (!address || req.socket.localPort === undefined) return null;
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

/** What a browser says in Sec-Fetch-Site of a request its page made to its own origin, or that its user made (an address typed). */
const OWN_SITE = new Set(['same-origin', 'none']);

/**
 * Why a request a browser sent for a page of another origin is refused, or null when it may be taken.
 * Browsers name the page in `Origin` on every POST and WebSocket handshake, and tell `Sec-Fetch-Site`,
 * where sent alone, whether the page was the target's own; tools (curl, the command-line tools) send
 * neither and are taken as before.
 */
export function foreignPage(req: IncomingMessage, origins: readonly string[]): string | null {
  const origin = req.headers.origin;
  const allowIt = '(its operator may allow it with --allow-origin)';
  if (origin !== undefined) return origins.includes(origin) || origin === arrivedAt(req) ? null : `origin ${quote(origin)} is not allowed to use this relay ${allowIt}`;
  const site = req.headers['sec-fetch-site'];
  if (site === undefined || OWN_SITE.has(site)) return null;
  return `a page of another origin (Sec-Fetch-Site: ${quote(site)}) is not allowed to use this relay ${allowIt}`;
}
