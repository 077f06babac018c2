import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContestEvent } from '../../shared/contest/api.ts';
import { contestRelay, postSubmissionFrom, settled } from '../helpers/contest.ts';
import { until } from '../helpers/relay.ts';

/**
 * One client address cannot take what the others need: it has at most --contest-waiting-per-client
 * submissions waiting and creates at most --contest-ids-per-client ids, and the scorer takes submissions
 * by address in turn, so another address's submission waits for at most one of the first address's runs.
 */

/** A controller whose module body backtracks until its CPU time is spent: one slow run. */
const SLOW = "/(a+)+$/.test('a'.repeat(40) + 'b');\nexport default {};\n";
/** A controller that fails at once. */
const QUICK = "throw new Error('no controller here');\n";

let relay: Awaited<ReturnType<typeof contestRelay>>;
beforeAll(async () => {
  relay = await contestRelay([
    '--contest-scorers',
    '1',
    '--contest-cpu',
    '1',
    '--contest-wall',
    '5',
    '--contest-waiting-per-client',
    '2',
    '--contest-ids-per-client',
    '4',
    '--contest-trace',
    'Verizon-LTE-short',
    '--contest-held-out',
    'TMobile-LTE-short',
  ]);
}, 120_000);
afterAll(() => relay?.stop());

/** POSTs a submission from `from`. */
const post = (from: string, body: Record<string, string>) => postSubmissionFrom(relay.url, from, body);

/** The submissions in the order the scorer started them, as the contest's live feed tells it (once it is watched). */
async function startOrder(): Promise<{ started: string[]; close(): void }> {
  const started: string[] = [];
  let buffered = '';
  let watching: () => void = () => {};
  const watched = new Promise<void>((r) => (watching = r));
  const req = request(`${relay.url}/api/contest/events`, (res) => {
    watching();
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines.filter((l) => l.startsWith('data: '))) {
        const e = JSON.parse(line.slice('data: '.length)) as ContestEvent;
        if (e.kind === 'submission' && e.status === 'running') started.push(e.submission);
      }
    });
  });
  req.on('error', () => {});
  req.end();
  await watched;
  return { started, close: () => req.destroy() };
}

describe('the class contest: one address among others', () => {
  it('creates at most --contest-ids-per-client ids from one address; its ids still take submissions, other addresses create theirs', async () => {
    const ids: Record<string, string>[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await post('127.0.0.3', { id: `q${i}@lab`, code: QUICK });
      expect(answer.status).toBe(202);
      ids.push(answer.json);
      await settled(relay.url, answer.json.submission);
    }
    expect(await post('127.0.0.3', { id: 'q4@lab', code: QUICK })).toEqual({ status: 429, json: { error: '4 ids were created from your address already: submit under one of them, with its token' } });
    expect((await post('127.0.0.3', { id: 'q0@lab', code: QUICK, token: ids[0].token })).status).toBe(202);
    expect((await post('127.0.0.4', { id: 'r0@lab', code: QUICK })).status).toBe(202);
  }, 120_000);

  it('refuses a third waiting submission from one address; another address is scored after at most one of its runs', async () => {
    const feed = await startOrder();
    try {
      const flood: string[] = [];
      for (let i = 0; i < 4; i++) {
        const answer = await post('127.0.0.1', { id: `flood${i}@lab`, code: SLOW });
        if (answer.status !== 202) {
          // two waiting, and perhaps a third already running
          expect(answer).toEqual({ status: 429, json: { error: '2 submissions from your address are waiting to be scored already: send the next once one of them is scored' } });
          break;
        }
        flood.push(answer.json.submission);
      }
      expect(flood.length).toBeGreaterThanOrEqual(2);
      expect(flood.length).toBeLessThanOrEqual(3);
      const victim = await post('127.0.0.2', { id: 'victim@lab', code: QUICK });
      expect(victim.status).toBe(202);
      expect((await settled(relay.url, victim.json.submission)).status).toBe('failed');
      // the victim started right after the flood's run under way (if one was), before the flood's others
      // (the flood's runs left take most of a minute on a busy machine: they are not waited for)
      await until(() => feed.started.includes(victim.json.submission), 10_000);
      const order = feed.started.filter((s) => flood.includes(s) || s === victim.json.submission);
      expect(order.indexOf(victim.json.submission)).toBeGreaterThanOrEqual(0);
      expect(order.indexOf(victim.json.submission)).toBeLessThanOrEqual(1);
    } finally {
      feed.close();
    }
  }, 120_000);
});
