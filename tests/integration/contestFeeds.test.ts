import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contestRelay } from '../helpers/contest.ts';
import { until } from '../helpers/relay.ts';

/** Opens the contest's live feed from `from`; resolves with its status, the stream left open, and whether the relay has ended it. */
function watch(url: string, from: string): Promise<{ status: number; ended: () => boolean; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/contest/events`, { localAddress: from }, (res) => {
      let ended = false;
      res.on('end', () => (ended = true));
      res.resume();
      resolve({ status: res.statusCode ?? 0, ended: () => ended, close: () => req.destroy() });
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

  it('256 pages from 86 addresses fill the feed: a page of 127.0.0.2 still gets in, ending the oldest page of an address holding the most', async () => {
    const flood: Awaited<ReturnType<typeof watch>>[] = [];
    // 85 addresses at their share of 3, and a last one's page: 256 in all.
    for (let host = 1; host <= 86; host++) for (let i = 0; i < (host < 86 ? 3 : 1); i++) flood.push(await watch(relay.url, `127.0.1.${host}`));
    expect(flood.every((w) => w.status === 200)).toBe(true);
    const student = await watch(relay.url, '127.0.0.2');
    expect(student.status).toBe(200);
    expect(await until(() => flood[0].ended(), 5000)).toBe(true);
    expect(flood.slice(1).some((w) => w.ended())).toBe(false);
    for (const w of [...flood, student]) w.close();
  });
});
