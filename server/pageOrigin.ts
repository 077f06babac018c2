import type { IncomingMessage } from 'node:http';
import { quote } from '../shared/text/quote.ts';

/**
 * The origins whose pages may use the relay: its own page's, however its address is written on this port,
 * and those the operator names with --allow-origin. A page of any other origin must not open a bridge
 * session nor change anything (submit, reveal): its visitor's browser would act, from the visitor's
 * address and with the visitor's cookie, for whoever wrote that page.
 */
export function pageOrigins(host: string, httpPort: number, allowOrigins: readonly string[]): string[] {
  return [`http://${host}:${httpPort}`, `http://localhost:${httpPort}`, `http://127.0.0.1:${httpPort}`, ...allowOrigins];
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
