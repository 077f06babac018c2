import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../shared/net/loopback.ts';
import { watchUrl } from '../../web/sessions/watchUrl.ts';

describe('the link watch address', () => {
  it('reads the trace from a link on this machine', () => {
    expect(watchUrl('http://127.0.0.1:9000')).toEqual({ url: 'http://127.0.0.1:9000/link.csv' });
    expect(watchUrl('http://localhost:9000/anything')).toEqual({ url: 'http://localhost:9000/link.csv' });
    expect(watchUrl('http://[::1]:9000')).toEqual({ url: 'http://[::1]:9000/link.csv' });
  });

  it('refuses other machines and other schemes, so a shared URL cannot make a page poll them', () => {
    for (const raw of ['http://10.0.0.1:9000', 'http://127.example.org:9000', 'http://[::2]:9000', 'https://example.org', 'file:///etc/passwd', 'javascript:alert(1)', '127.0.0.1:9000', ''])
      expect(watchUrl(raw)).toHaveProperty('error');
  });

  it('takes the one definition of loopback the relay uses: whole addresses only', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address), address).toBe(true);
    for (const address of ['10.0.0.1', '1127.0.0.1', '127.example.org', '::ffff:10.0.0.1', '::12', 'localhost']) expect(isLoopback(address), address).toBe(false);
  });
});
