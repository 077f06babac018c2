import { describe, expect, it } from 'vitest';
import { BridgedClients, MAX_OPENINGS } from '../../server/bridgedClients.ts';

describe('BridgedClients', () => {
  it("names the page of a socket's latest opening before the record started, a second of clock slack allowed", () => {
    const c = new BridgedClients();
    c.opened('127.0.0.1:5000', 10_000, '127.0.0.2');
    c.opened('127.0.0.1:5000', 20_000, '127.0.0.3'); // the port, reused once its socket closed
    expect(c.clientOf('127.0.0.1:5000', 15_000)).toBe('127.0.0.2');
    expect(c.clientOf('127.0.0.1:5000', 20_000)).toBe('127.0.0.3');
    expect(c.clientOf('127.0.0.1:5000', 19_000)).toBe('127.0.0.3'); // 1 s early: another thread's clock
    expect(c.clientOf('127.0.0.1:5000', 18_999)).toBe('127.0.0.2');
    expect(c.clientOf('127.0.0.1:5000', 8_999)).toBeUndefined(); // before any opening: a client of its own
    expect(c.clientOf('127.0.0.1:5001', 15_000)).toBeUndefined();
  });

  it(`forgets the oldest openings past ${MAX_OPENINGS}`, () => {
    const c = new BridgedClients();
    for (let i = 0; i <= 2 * MAX_OPENINGS; i++) c.opened(`127.0.0.1:${i % 3 === 0 ? 7 : 10_000 + i}`, i, `10.0.0.${i % 250}`);
    // openings 0…MAX_OPENINGS are forgotten, the last MAX_OPENINGS kept; port 7's newest is 8190 (the last multiple of 3)
    expect(c.clientOf('127.0.0.1:10001', 5)).toBeUndefined();
    expect(c.clientOf(`127.0.0.1:${10_000 + MAX_OPENINGS + 1}`, 1e9)).toBe(`10.0.0.${(MAX_OPENINGS + 1) % 250}`);
    expect(c.clientOf('127.0.0.1:7', 2 * MAX_OPENINGS)).toBe('10.0.0.190');
    expect(c.clientOf('127.0.0.1:7', MAX_OPENINGS - 1002)).toBeUndefined();
  });
});
