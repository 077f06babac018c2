import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { pageHosts, pageOrigins } from '../../server/pageOrigin.ts';

const v4 = (address: string, internal = false) => ({ address, family: 'IPv4', internal, netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;
const v6 = (address: string, internal = false) => ({ address, family: 'IPv6', internal, netmask: '', mac: '', cidr: null, scopeid: 0 }) as NetworkInterfaceInfo;
/** A lab machine: loopback, a wired address with its IPv6 ones, and a second interface. */
const LAB = { lo: [v4('127.0.0.1', true), v6('::1', true)], eth0: [v4('10.1.2.3'), v6('fe80::1'), v6('2001:db8::3')], wlan0: [v4('192.168.0.7')] };

describe('the origins whose pages may use the relay', () => {
  it('bound to one address: that address, as the page is opened there', () => {
    expect(pageHosts('127.0.0.1', LAB)).toEqual(['127.0.0.1']);
    expect(pageHosts('10.1.2.3', LAB)).toEqual(['10.1.2.3']);
    expect(pageHosts('2001:db8::3', LAB)).toEqual(['[2001:db8::3]']);
    expect(pageOrigins(['127.0.0.1'], 8080, [])).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080']);
  });

  it('bound to every interface: each of the machine’s own addresses, those a class reaches first, where it was only http://0.0.0.0', () => {
    expect(pageHosts('0.0.0.0', LAB)).toEqual(['10.1.2.3', '192.168.0.7', '127.0.0.1']);
    // IPv6 too for an IPv6 wildcard, without the link-local address no origin names
    expect(pageHosts('::', LAB)).toEqual(['10.1.2.3', '[2001:db8::3]', '192.168.0.7', '127.0.0.1', '[::1]']);
    expect(pageOrigins(pageHosts('0.0.0.0', LAB), 8080, ['http://relay.example.edu:8080'])).toEqual([
      'http://10.1.2.3:8080',
      'http://192.168.0.7:8080',
      'http://127.0.0.1:8080',
      'http://localhost:8080',
      'http://relay.example.edu:8080',
    ]);
  });
});
