import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { testRelay, until } from '../helpers/relay.ts';

/** Opens the leaderboard's live feed from `from`: its status and body so far, and whether the relay has ended it. */
function watch(url: string, from: string): Promise<{ status: number; body: () => string; ended: () => boolean; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/leaderboard/events`, { localAddress: from }, (res) => {
      let body = '';
      let ended = false;
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => (ended = true));
      resolve({ status: res.statusCode ?? 0, body: () => body, ended: () => ended, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a few addresses cannot fill the leaderboard’s live feed', () => {
  it('256 pages of 127.0.0.1 fill the live feed: a page of 127.0.0.2 still gets in, ending 127.0.0.1’s oldest; 127.0.0.1’s next is refused', async () => {
    const relay = await testRelay({ singleThread: true, maxFeedsPerClient: 300 });
    const flood: Awaited<ReturnType<typeof watch>>[] = [];
    for (let i = 0; i < 256; i++) flood.push(await watch(relay.url, '127.0.0.1'));
    expect(flood.every((w) => w.status === 200)).toBe(true);
    const student = await watch(relay.url, '127.0.0.2');
    expect(student.status).toBe(200);
    expect(await until(() => flood[0].ended(), 5000)).toBe(true);
    expect(flood.slice(1).some((w) => w.ended())).toBe(false);
    const next = await watch(relay.url, '127.0.0.1');
    expect(next.status).toBe(503);
    expect(await until(() => next.ended(), 5000)).toBe(true);
    expect(next.body()).toBe('too many pages are watching the leaderboard\n');
    expect(student.ended()).toBe(false);
    for (const w of [...flood, student, next]) w.close();
    await relay.close();
  });
});
