/** Whether an address is this machine's loopback (IPv4, IPv6, or IPv4 mapped into IPv6). */
export const isLoopback = (address: string) => /^(127\.|::1$|::ffff:127\.)/.test(address);
