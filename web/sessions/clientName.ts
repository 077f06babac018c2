/**
 * A record's client as a class reads it: a page's address when the page ran it through the relay's bridge
 * (the record's own address is then the relay's socket, the same for every student), else that address.
 */
export function clientName(r: { browser?: string }, socket: string): { text: string; title?: string } {
  return r.browser === undefined ? { text: socket } : { text: `${r.browser} (page)`, title: `a page at ${r.browser}, through the relay's socket ${socket}` };
}
