import type { IncomingMessage } from 'node:http';
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { quote } from '../shared/text/quote.ts';

/** Addresses that bind every interface: the relay's page is opened at one of the machine's own addresses instead. */
const WILDCARDS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

/**
 * The hosts a page of the relay is opened at, as a URL writes them: `host` itself, or for a wildcard the
 * machine's own addresses (`interfaces`, read at start), those reachable from elsewhere first. IPv6 ones
 * only for an IPv6 wildcard, and not link-local ones, which no origin can name.
 */
export function pageHosts(host: string, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  if (!WILDCARDS.has(host)) return [host.includes(':') ? `[${host}]` : host];
  const all = Object.values(interfaces)
    .flat()
    .filter((a): a is NetworkInterfaceInfo => a !== undefined && (a.family === 'IPv4' || (host !== '0.0.0.0' && !a.address.startsWith('fe80:'))));
  return [...all.filter((a) => !a.internal), ...all.filter((a) => a.internal)].map((a) => (a.family === 'IPv6' ? `[${a.address}]` : a.address));
}

/**
 * The origins whose pages may use the relay: its own page's, however its address is written on this port
 * (on a wildcard, each of the machine's addresses), and those the operator names with --allow-origin. A
 * page of any other origin must not open a bridge session nor change anything (submit, reveal): its
 * visitor's browser would act, from the visitor's address and with the visitor's cookie, for whoever
 * wrote that page. A page at one of the machine's own addresses is the relay's: only it serves that port.
 */
export function pageOrigins(hosts: readonly string[], httpPort: number, allowOrigins: readonly string[]): string[] {
  return [...new Set([...hosts, 'localhost', '127.0.0.1'].map((h) => `http://${h}:${httpPort}`)), ...allowOrigins];
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
  if (origin !== undefined) return origins.includes(origin) ? null : `origin ${quote(origin)} is not allowed to use this relay ${allowIt}`;
  const site = req.headers['sec-fetch-site'];
  if (site === undefined || OWN_SITE.has(site)) return null;
  return `a page of another origin (Sec-Fetch-Site: ${quote(site)}) is not allowed to use this relay ${allowIt}`;
}
