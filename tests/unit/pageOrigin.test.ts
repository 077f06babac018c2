import type { IncomingMessage } from 'node:http';
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { foreignPage, pageHosts, pageOrigins } from '../../server/pageOrigin.ts';

const v4 = (address: string, internal = false) => ({ address, family: 'IPv4', internal, netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;
const v6 = (address: string, internal = false) => ({ address, family: 'IPv6', internal, netmask: '', mac: '', cidr: null, scopeid: 0 }) as NetworkInterfaceInfo;
/** A lab machine: loopback, a wired address with its IPv6 ones, and a second interface. */
const LAB = () => ({ lo: [v4('127.0.0.1', true), v6('::1', true)], eth0: [v4('10.1.2.3'), v6('fe80::1'), v6('2001:db8::3')], wlan0: [v4('192.168.0.7')] });

/** A request of a page of `origin` that reached the relay's socket at `local` (address, port). */
const request = (origin: string, localAddress: string, localPort = 8080) => ({ headers: { origin }, socket: { localAddress, localPort } }) as unknown as IncomingMessage;

describe('the addresses the relay prints', () => {
  it('bound to one address: that address', () => {
    expect(pageHosts('127.0.0.1', LAB)).toEqual(['127.0.0.1']);
    expect(pageHosts('10.1.2.3', LAB)).toEqual(['10.1.2.3']);
  });

  it('bound to every interface: each of the machine’s IPv4 addresses, those a class reaches first, where it printed http://0.0.0.0', () => {
    expect(pageHosts('0.0.0.0', LAB)).toEqual(['10.1.2.3', '192.168.0.7', '127.0.0.1']);
    expect(pageHosts('0', LAB)).toEqual(['10.1.2.3', '192.168.0.7', '127.0.0.1']);
    // a machine that lists no interface, or will not list them: loopback, never "undefined"
    expect(pageHosts('0.0.0.0', () => ({}))).toEqual(['127.0.0.1']);
    expect(
      pageHosts('0.0.0.0', () => {
        throw new Error('uv_interface_addresses returned Unknown system error 13');
      }),
    ).toEqual(['127.0.0.1']);
  });
});

describe('the pages that may use the relay', () => {
  const origins = pageOrigins('0.0.0.0', 8080, ['http://relay.example.edu:8080']);

  it('a page at the very address and port its request came to is the relay’s own, however the relay was reached', () => {
    expect(foreignPage(request('http://10.1.2.3:8080', '10.1.2.3'), origins)).toBeNull();
    expect(foreignPage(request('http://10.1.2.3:8080', '::ffff:10.1.2.3'), origins)).toBeNull();
    expect(foreignPage(request('http://relay.example.edu:8080', '10.1.2.3'), origins)).toBeNull();
  });

  it('a page at another address or port is not: another machine of the visitor’s network, another server of this one', () => {
    const refused = /^origin "http:\/\/[\d.:]+" is not allowed to use this relay \(its operator may allow it with --allow-origin\)$/;
    expect(foreignPage(request('http://192.168.122.1:8080', '10.1.2.3'), origins)).toMatch(refused);
    expect(foreignPage(request('http://10.1.2.3:3000', '10.1.2.3'), origins)).toMatch(refused);
    expect(foreignPage(request('http://10.1.2.3:8080', '192.168.0.7'), origins)).toMatch(refused);
  });
});
