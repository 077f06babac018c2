const IPV4_LOOPBACK = String.raw`127\.\d{1,3}\.\d{1,3}\.\d{1,3}`;
const LOOPBACK = new RegExp(`^(${IPV4_LOOPBACK}|::1|::ffff:${IPV4_LOOPBACK})$`);

/** Whether an address is this machine's loopback (IPv4, IPv6, or IPv4 mapped into IPv6). */
export const isLoopback = (address: string) => LOOPBACK.test(address);

/**
 * Whether a URL's hostname names this machine: a loopback address (IPv6 in brackets, as URLs write it) or
 * "localhost". A whole-address match, so a name such as "127.example.org" is not taken for one.
 */
export const isLoopbackHost = (hostname: string) => hostname === 'localhost' || isLoopback(hostname.replace(/^\[(.*)\]$/, '$1'));
