import { isLoopback } from '../shared/net/loopback.ts';

/**
 * A set of port numbers shared between threads: the bridge marks the local ports of its sockets so an
 * offset server (in its own thread) or the echo server can tell a bridged browser from another client on
 * the same host. UDP and TCP ports each have a set of their own.
 */
export class PortSet {
  private readonly bits: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(65_536 / 8)) {
    this.bits = new Int32Array(buffer);
  }

  add(port: number): void {
    Atomics.or(this.bits, port >>> 5, 1 << (port & 31));
  }

  delete(port: number): void {
    Atomics.and(this.bits, port >>> 5, ~(1 << (port & 31)));
  }

  has(port: number): boolean {
    return (Atomics.load(this.bits, port >>> 5) & (1 << (port & 31))) !== 0;
  }
}

/**
 * The session key of a datagram's source: by IP as the course server, except that each bridged browser
 * stays its own. The bridge's sockets reach the offset server from this machine: from loopback, or from
 * the address the server is bound to (`relayHost`, as the socket reports it: a host name given on the
 * command line is resolved there) when that is another one; a datagram from elsewhere that happens to come
 * from a bridged port number is keyed by its IP alone.
 */
export function sessionKey(keyBy: 'ip' | 'ip:port', address: string, port: number, bridged: PortSet | null, relayHost: string): string {
  return keyBy === 'ip:port' || fromBridge(bridged, address, port, relayHost) ? `${address}:${port}` : address;
}

/**
 * Whether a datagram or connection is one of the bridge's: from a port it marked, and from this machine
 * (loopback, or `relayHost`, the address the server is bound to).
 */
export function fromBridge(bridged: PortSet | null, address: string, port: number, relayHost: string): boolean {
  return bridged?.has(port) === true && (isLoopback(address) || address === relayHost);
}
