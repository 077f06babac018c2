/** The watch address as typed or given in the URL, or why it cannot be one. */
export function watchUrl(raw: string): { url: string } | { error: string } {
  try {
    const u = new URL(raw);
    // A shared URL must not make a viewer's page poll another machine: the link runs beside the relay.
    const loopback = /^127\.\d+\.\d+\.\d+$/.test(u.hostname) || u.hostname === 'localhost' || u.hostname === '[::1]';
    if ((u.protocol === 'http:' || u.protocol === 'https:') && loopback) return { url: `${u.origin}/link.csv` };
  } catch {
    // answered below
  }
  return { error: `“${raw.slice(0, 100)}” is not an emulated link's watch address on this machine: start one with \`npm run link -- … --watch 127.0.0.1:PORT\` and give http://127.0.0.1:PORT` };
}
