import { describe, expect, it } from 'vitest';
import { testRelay } from '../helpers/relay.ts';

describe("the relay's lines at start", () => {
  it('warn that sessions keyed by address merge the students behind one address, and only then', async () => {
    const byAddress = await testRelay({ keyBy: 'ip' });
    const bySocket = await testRelay();
    try {
      expect(byAddress.lines.filter((l) => l.startsWith('sessions'))).toEqual([
        'sessions        keyed by address (--key ip): students behind one address (NAT) share one session, and only its first id is ranked; --key ip:port keeps them apart',
      ]);
      expect(bySocket.lines.filter((l) => l.startsWith('sessions'))).toEqual([]);
    } finally {
      await Promise.all([byAddress.close(), bySocket.close()]);
    }
  });
});
