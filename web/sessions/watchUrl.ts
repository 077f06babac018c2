import { isLoopbackHost } from '../../shared/net/loopback.ts';
import { quote } from '../../shared/text/quote.ts';

/** The watch address as typed or given in the URL, or why it cannot be one. */
export function watchUrl(raw: string): { url: string } | { error: string } {
  try {
    const u = new URL(raw);
    // A shared URL must not make a viewer's page poll another machine: the link runs beside the relay.
    if ((u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(u.hostname)) return { url: `${u.origin}/link.csv` };
  } catch {
    // answered below
  }
  return { error: `${quote(raw)} is not an emulated link's watch address on this machine: start one with \`npm run link -- … --watch 127.0.0.1:PORT\` and give http://127.0.0.1:PORT` };
}
