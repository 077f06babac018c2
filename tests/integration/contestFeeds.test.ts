import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contestRelay } from '../helpers/contest.ts';

/** Opens the contest's live feed from `from`; resolves with its status, the stream left open. */
function watch(url: string, from: string): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/contest/events`, { localAddress: from }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe("the contest's live feed: one address holds at most --max-feeds-per-client pages", () => {
  let relay: Awaited<ReturnType<typeof contestRelay>>;
  beforeAll(async () => {
    relay = await contestRelay(['--max-feeds-per-client', '3', '--dist', 'public']);
  }, 120_000);
  afterAll(() => relay.stop());

  it('a fourth page from 127.0.0.1 is refused; 127.0.0.2 still watches', async () => {
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await watch(relay.url, '127.0.0.1'));
    expect(held.map((w) => w.status)).toEqual([200, 200, 200, 503]);
    const victim = await watch(relay.url, '127.0.0.2');
    expect(victim.status).toBe(200);
    for (const w of [...held, victim]) w.close();
  });
});
