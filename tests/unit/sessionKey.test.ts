import { describe, expect, it } from 'vitest';
import { PortSet, sessionKey } from '../../server/portSet.ts';

describe('the offset server’s session key', () => {
  const bridged = new PortSet();
  bridged.add(40_001);
  bridged.add(40_002);

  it('is the source’s IP and port by default', () => {
    expect(sessionKey('ip:port', '10.0.0.7', 5000, bridged, '127.0.0.1')).toBe('10.0.0.7:5000');
  });

  it('by IP, as the course server keys, every client of one host is one session', () => {
    expect(sessionKey('ip', '10.0.0.7', 5000, bridged, '127.0.0.1')).toBe('10.0.0.7');
    expect(sessionKey('ip', '127.0.0.1', 5000, bridged, '127.0.0.1')).toBe('127.0.0.1');
  });

  it('by IP, each bridged browser stays its own, from loopback and from the address the relay serves on', () => {
    expect(sessionKey('ip', '127.0.0.1', 40_001, bridged, '127.0.0.1')).toBe('127.0.0.1:40001');
    // a relay in front of a class, serving on its LAN address: the bridge's sockets come from that address
    expect(sessionKey('ip', '192.168.1.5', 40_001, bridged, '192.168.1.5')).toBe('192.168.1.5:40001');
    expect(sessionKey('ip', '192.168.1.5', 40_002, bridged, '192.168.1.5')).toBe('192.168.1.5:40002');
  });

  it('by IP, another host sending from a port number the bridge uses is keyed by its IP alone', () => {
    expect(sessionKey('ip', '192.168.1.9', 40_001, bridged, '192.168.1.5')).toBe('192.168.1.9');
    bridged.delete(40_001);
    expect(sessionKey('ip', '127.0.0.1', 40_001, bridged, '127.0.0.1')).toBe('127.0.0.1');
  });
});
