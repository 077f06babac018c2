import { describe, expect, it } from 'vitest';
import { watchUrl } from '../../web/sessions/watchUrl.ts';

describe('the link watch address', () => {
  it('reads the trace from a link on this machine', () => {
    expect(watchUrl('http://127.0.0.1:9000')).toEqual({ url: 'http://127.0.0.1:9000/link.csv' });
    expect(watchUrl('http://localhost:9000/anything')).toEqual({ url: 'http://localhost:9000/link.csv' });
    expect(watchUrl('http://[::1]:9000')).toEqual({ url: 'http://[::1]:9000/link.csv' });
  });

  it('refuses other machines and other schemes, so a shared URL cannot make a page poll them', () => {
    for (const raw of ['http://10.0.0.1:9000', 'https://example.org', 'file:///etc/passwd', 'javascript:alert(1)', '127.0.0.1:9000', '']) expect(watchUrl(raw)).toHaveProperty('error');
  });
});
