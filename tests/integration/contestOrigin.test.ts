import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../../shared/contest/api.ts';
import { contestRelay, OPERATOR_TOKEN } from '../helpers/contest.ts';

/**
 * A page of another origin cannot make its visitor's browser change the relay (cross-site request forgery):
 * submit under an id, spend the visitor's address's submission budgets, reveal the held-out scores with the
 * operator's cookie. The relay's own page, the operator's --allow-origin ones and tools (no Origin) can.
 */

const CODE = 'export default { title: "x", params: [], create() { return { windowSize() { return 10; }, onAck() {}, onTimeout() {} }; } };';
const ALLOWED = 'http://course.example';
const EVIL = 'http://evil.example';
const REFUSED = `origin "${EVIL}" is not allowed to use this relay (its operator may allow it with --allow-origin)`;

let relay: Awaited<ReturnType<typeof contestRelay>>;

beforeAll(async () => {
  relay = await contestRelay(['--contest-trace', 'Verizon-LTE-short', '--contest-held-out', 'ATT-LTE-driving-2016', '--allow-origin', ALLOWED]);
});
afterAll(() => relay?.stop());

/** POSTs a submission under `id` as a browser would send it, with `headers`, and reads the JSON answer. */
async function submit(id: string, headers: Record<string, string>) {
  const res = await fetch(`${relay.url}/api/contest/submissions`, { method: 'POST', headers, body: JSON.stringify({ id, code: CODE }) });
  return { status: res.status, json: (await res.json()) as Record<string, string> };
}

const board = async (): Promise<Board> => (await fetch(`${relay.url}/api/contest/leaderboard`)).json();
/** Every submission the board knows of, as `id submission`: ranked, waiting or failed. */
const submissions = async () => {
  const b = await board();
  return [...b.rows, ...b.pending, ...b.failed].flatMap((r) => r.attempts.map((a) => `${r.id} ${a.submission}`)).sort();
};
const ids = async () => (await submissions()).map((s) => s.split(' ')[0]);

describe('state-changing requests from pages of another origin', () => {
  it('refuses a cross-origin plain-text submission with 403 and records nothing: the id stays free for its student', async () => {
    const before = await submissions();
    const forged = await submit('csrf@evil', { origin: EVIL, 'content-type': 'text/plain' });
    expect(forged).toEqual({ status: 403, json: { error: REFUSED } });
    const unnamed = await submit('csrf@evil', { 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' });
    expect(unnamed).toEqual({
      status: 403,
      json: { error: 'a page of another origin (Sec-Fetch-Site: "cross-site") is not allowed to use this relay (its operator may allow it with --allow-origin)' },
    });
    // another port of this host is the same site, and another origin all the same
    const port = Number(new URL(relay.url).port);
    expect((await submit('csrf@evil', { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await submit('csrf@evil', { origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect(await submissions()).toEqual(before);
    // no token was issued for it: its student still takes the id as a first submission
    const student = await submit('csrf@evil', { 'content-type': 'application/json' });
    expect(student.status).toBe(202);
    expect(student.json.token).toMatch(/^[0-9a-f]{32}$/);
  }, 60_000);

  it("refuses the operator's reveal from another origin, even with the operator's token", async () => {
    const authorization = `Bearer ${OPERATOR_TOKEN}`;
    const forged = await fetch(`${relay.url}/api/contest/reveal`, { method: 'POST', headers: { origin: EVIL, authorization } });
    expect([forged.status, await forged.json()]).toEqual([403, { error: REFUSED }]);
    expect((await board()).revealed).toBe(false);
    const own = await fetch(`${relay.url}/api/contest/reveal`, { method: 'POST', headers: { origin: relay.url, 'sec-fetch-site': 'same-origin', authorization } });
    expect(own.status).toBe(200);
    expect((await board()).revealed).toBe(true);
  }, 60_000);

  it("takes submissions from the relay's own page, an --allow-origin page, and tools that send no Origin", async () => {
    const localhost = relay.url.replace('127.0.0.1', 'localhost');
    const cases: [string, Record<string, string>][] = [
      ['own@page', { origin: relay.url, 'sec-fetch-site': 'same-origin' }],
      ['own@localhost', { origin: localhost }],
      ['course@page', { origin: ALLOWED, 'sec-fetch-site': 'cross-site' }],
      ['curl@tool', {}],
      ['typed@address', { 'sec-fetch-site': 'none' }],
    ];
    for (const [id, headers] of cases) {
      const answer = await submit(id, { 'content-type': 'application/json', ...headers });
      expect([id, answer.status]).toEqual([id, 202]);
    }
    expect(await ids()).toEqual(expect.arrayContaining(cases.map(([id]) => id)));
  }, 60_000);
});
