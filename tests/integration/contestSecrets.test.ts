import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contestRelay, OPERATOR_TOKEN, postSubmission, settled } from '../helpers/contest.ts';

/**
 * What a held-out trace is stays untold until the reveal, even through a controller's own error text; and
 * the board, which anyone reads, carries no one's error text.
 */

/**
 * Passes the public trace (Verizon-LTE-short: about 58,700 packets in all) and, on the held-out one
 * (TMobile-LTE-short: about 194,800), throws a message made of what it saw there: its packets per second.
 */
const PROBE = `export default {
  title: 'probe', params: [],
  create() {
    let acks = 0;
    const perSecond = [];
    return {
      windowSize() { return 200; },
      onAck(a) {
        acks++;
        const s = Math.floor(a.now / 1000);
        perSecond[s] = (perSecond[s] ?? 0) + 1;
        if (acks === 100000) throw new Error('packets per second: ' + perSecond.join(','));
      },
      onTimeout() {},
    };
  },
};
`;

/** A submission's view as another client address reads it. */
function viewFrom(url: string, submission: string, from: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(`${url}/api/contest/submissions/${submission}`, { localAddress: from }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve(JSON.parse(text)));
    }).on('error', reject);
  });
}

let relay: Awaited<ReturnType<typeof contestRelay>>;
beforeAll(async () => {
  relay = await contestRelay(['--contest-trace', 'Verizon-LTE-short', '--contest-held-out', 'TMobile-LTE-short']);
}, 120_000);
afterAll(() => relay?.stop());

describe('the class contest: failures that would tell', () => {
  it("a failure on a held-out trace says neither what nor how until the reveal; the board carries no one's error, nor does a submission's view to another address", async () => {
    const probe = await postSubmission(relay.url, { id: 'probe@red', code: PROBE });
    const broken = await postSubmission(relay.url, { id: 'broken@red', code: "throw new Error('a secret of broken@red');\n" });
    expect([probe.status, broken.status]).toEqual([202, 202]);
    const before = await settled(relay.url, probe.json.submission, 300_000);
    expect(before).toEqual({
      status: 'failed',
      traces: [],
      error: 'on a held-out trace: your controller did not complete (how, and what it said, are shown once the held-out traces are revealed)',
    });
    expect((await settled(relay.url, broken.json.submission)).error).toContain('a secret of broken@red');
    // another address, which has the submission's id from the board, learns only that it failed
    expect(await viewFrom(relay.url, broken.json.submission, '127.0.0.2')).toEqual({
      status: 'failed',
      traces: [],
      error: 'it failed: what it said is shown only to the address it came from',
    });
    const board = await (await fetch(`${relay.url}/api/contest/leaderboard`)).text();
    expect(board).not.toContain('secret');
    expect(board).not.toContain('"error"');
    const reveal = await fetch(`${relay.url}/api/contest/reveal`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(reveal.status).toBe(200);
    const after = await settled(relay.url, probe.json.submission);
    expect(after.error).toMatch(/^on a held-out trace: your controller in onAck at line \d+, column \d+: Error: packets per second: \d+(,\d+)+$/);
  }, 300_000);

  it('cuts a long error message, saying how long it was, so that the answer is still read', async () => {
    const long = await postSubmission(relay.url, { id: 'long@red', code: "throw new Error('x'.repeat(70000));\n" });
    expect(long.status).toBe(202);
    const view = await settled(relay.url, long.json.submission);
    expect(view.status).toBe('failed');
    expect(view.error).toMatch(/^on Verizon-LTE-short: your controller in the module body at line 1, column \d+: Error: x+… \(cut: the message was 700\d\d characters\)$/);
    expect(view.error?.length).toBeLessThan(4100);
  });
});
