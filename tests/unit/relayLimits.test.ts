import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ReplyBudget } from '../../server/offsetAdmission.ts';
import { createOperator } from '../../server/operator.ts';

describe('ReplyBudget: bytes per second one source address may draw', () => {
  it('3,000 bytes/s: two 1,474-byte replies, then silence until the bucket is above zero again', () => {
    const b = new ReplyBudget(3000);
    expect(b.allows('a', 0)).toBe(true);
    b.spend('a', 1474, 0); // 1,526 left
    expect(b.allows('a', 0)).toBe(true);
    b.spend('a', 1474, 0); // 52 left
    expect(b.allows('a', 0)).toBe(true);
    b.spend('a', 1474, 0); // −1,422: in debt by the last reply
    expect(b.allows('a', 400)).toBe(false); // −1,422 + 1,200 = −222
    expect(b.allows('a', 500)).toBe(true); // −222 + 300 = 78
    expect(b.allows('b', 500)).toBe(true); // another address has its own bucket
  });

  it('never holds more than one second of budget, and forgets buckets that have refilled', () => {
    const b = new ReplyBudget(3000);
    b.spend('a', 3000, 0); // 0 left
    expect(b.allows('a', 10_000)).toBe(true); // refilled to 3,000, not 30,000
    b.spend('a', 3000, 10_000);
    b.spend('a', 1, 10_000); // −1
    expect(b.allows('a', 10_000)).toBe(false);
    b.prune(10_999); // 2,996 of 3,000 refilled: kept
    expect(b.allows('a', 10_000)).toBe(false);
    b.prune(11_001); // full: forgotten, so a new bucket starts full
    expect(b.allows('a', 10_000)).toBe(true);
  });
});

describe('the operator and the client address', () => {
  const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;
  const operator = createOperator({ token: 'secret', trustedProxies: ['127.0.0.1', '10.0.0.1'] });

  it('is the token holder, from any address; loopback alone is no one in particular', () => {
    expect(operator.isOperator(req('127.0.0.1'))).toBe(false);
    expect(operator.isOperator(req('203.0.113.5', { authorization: 'Bearer secret' }))).toBe(true);
    expect(operator.isOperator(req('127.0.0.1', { authorization: 'Bearer secrets' }))).toBe(false);
  });

  it('reads X-Forwarded-For from the right, past trusted proxies, and only from a trusted peer', () => {
    const xff = { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.0.0.1' };
    expect(operator.clientAddress(req('127.0.0.1', xff))).toBe('198.51.100.7'); // 6.6.6.6 is what the client claimed
    expect(operator.clientAddress(req('::ffff:127.0.0.1', xff))).toBe('198.51.100.7');
    expect(operator.clientAddress(req('127.0.0.2', xff))).toBe('127.0.0.2'); // not a trusted proxy: not believed
    expect(operator.clientAddress(req('127.0.0.1'))).toBe('127.0.0.1'); // a trusted proxy's own request
  });
});
