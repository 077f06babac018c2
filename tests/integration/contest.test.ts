import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../../shared/contest/api.ts';
import { ROOT } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { contestRelay, OPERATOR_TOKEN, postSubmission, settled } from '../helpers/contest.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * The class contest on a real relay process over real HTTP: scores equal to the sim's, held-out scores
 * hidden until revealed, tokens, and hostile submissions that each fail alone while a good one is scored.
 */

const GOOD_FILE = join(ROOT, 'tests/fixtures/contestAimd.mjs');
const GOOD = readFileSync(GOOD_FILE, 'utf8');
const PUBLIC = 'Verizon-LTE-short';
const HELD_OUT = 'ATT-LTE-driving-2016';

/** What `npm run sim -- --scheme FILE --trace T --json` prints, per trace. */
async function simScores(trace: string) {
  const r = await runCliAsync('server/cli/sim.ts', ['--scheme', GOOD_FILE, '--trace', trace, '--json']);
  const { all } = JSON.parse(r.stdout);
  return { trace, throughputMbps: all.throughputMbps, delay95: all.delay95, power: all.power, score: all.score };
}

let relay: Awaited<ReturnType<typeof contestRelay>>;
const sims = Promise.all([simScores(PUBLIC), simScores(HELD_OUT)]);
sims.catch(() => {});

beforeAll(async () => {
  relay = await contestRelay(['--contest-trace', PUBLIC, '--contest-held-out', HELD_OUT, '--contest-memory', '128', '--contest-cpu', '3', '--contest-wall', '20', '--dist', 'public']);
});
afterAll(() => relay?.stop());

describe('the class contest: scoring', () => {
  it('scores a controller exactly as the sim CLI does, and shows held-out scores only once revealed', async () => {
    const { status, json } = await postSubmission(relay.url, { id: 'ann@red', code: GOOD });
    expect(status).toBe(202);
    expect(json.submission).toMatch(/^[0-9a-f]+$/);
    expect(json.token).toMatch(/^[0-9a-f]{32}$/);
    const view = await settled(relay.url, json.submission);
    const [pub, held] = await sims;
    expect(view).toEqual({ status: 'scored', traces: [pub] });
    const board: Board = await (await fetch(`${relay.url}/api/contest/leaderboard`)).json();
    expect(board.traces).toEqual([{ trace: PUBLIC, heldOut: false }]);
    expect(board.rows.find((r) => r.id === 'ann@red')?.traces).toEqual([pub]);
    expect(await (await fetch(`${relay.url}/api/contest/leaderboard.csv`)).text()).not.toContain(HELD_OUT);

    const student = await fetch(`${relay.url}/api/contest/reveal`, { method: 'POST' });
    expect([student.status, await student.json()]).toEqual([403, { error: 'only the operator may reveal the held-out scores' }]);
    expect(await (await fetch(`${relay.url}/api/contest/submissions/${json.submission}`)).json()).toEqual({ status: 'scored', traces: [pub] });
    const operator = await fetch(`${relay.url}/api/contest/reveal`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(operator.status).toBe(200);
    expect(await (await fetch(`${relay.url}/api/contest/submissions/${json.submission}`)).json()).toEqual({ status: 'scored', traces: [pub, held] });
    const csv = await (await fetch(`${relay.url}/api/contest/leaderboard.csv`)).text();
    expect(csv.split('\n')[0]).toContain(`${HELD_OUT} score`);
    expect(csv).toContain(String(held.score));
  }, 180_000);

  it('never serves a held-out trace, however its path is written, and serves the public ones', async () => {
    for (const path of [
      `/traces/${HELD_OUT}.down`,
      `/traces/${HELD_OUT}.up`,
      '/traces/ATT-LTE-driving-2016%2Edown',
      `//traces/./${HELD_OUT}.down`,
      `/traces/x/../${HELD_OUT}.up`,
      `/traces/${HELD_OUT}.down.gz`,
      `/traces/${HELD_OUT}.up.br`,
      `/traces/${HELD_OUT}%2Eup%2Egz`,
      `/traces/${HELD_OUT}.down.br.gz`,
    ]) {
      const res = await fetch(`${relay.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain('held out');
    }
    expect((await fetch(`${relay.url}/traces/${PUBLIC}.down`)).status).toBe(200);
  });

  it('takes later submissions under an id only with its token', async () => {
    const first = await postSubmission(relay.url, { id: 'bob@blue', code: GOOD });
    expect(first.status).toBe(202);
    const without = await postSubmission(relay.url, { id: 'bob@blue', code: GOOD });
    expect(without).toEqual({ status: 403, json: { error: 'bob@blue has submitted before: send the token its first submission was given', tokenProblem: 'missing' } });
    const wrong = await postSubmission(relay.url, { id: 'bob@blue', code: GOOD, token: 'f'.repeat(32) });
    expect(wrong).toEqual({ status: 403, json: { error: "the token is not bob@blue's", tokenProblem: 'wrong' } });
    await settled(relay.url, first.json.submission);
    const again = await postSubmission(relay.url, { id: 'bob@blue', code: GOOD, token: first.json.token });
    expect(again.status).toBe(202);
    expect(again.json.token).toBe(first.json.token);
  }, 180_000);

  it('refuses a body over its size, a code over 256 KB, bad UTF-8, bad ids and non-JSON, each with a sentence', async () => {
    const huge = await postSubmission(relay.url, { id: 'big@red', code: `// ${'x'.repeat(10 * 1024 * 1024)}` });
    expect(huge.status).toBe(413);
    expect(huge.json.error).toMatch(/over \d+ bytes/);
    const over = await postSubmission(relay.url, { id: 'big@red', code: `//${'x'.repeat(256 * 1024)}` });
    expect(over).toEqual({ status: 413, json: { error: `the code is ${256 * 1024 + 2} bytes; a submission may be at most 262144 bytes (256 KB)` } });
    const bad = Buffer.concat([Buffer.from('{"id":"utf@red","code":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    expect(await postSubmission(relay.url, new Uint8Array(bad))).toEqual({ status: 400, json: { error: 'the request body is not valid UTF-8' } });
    expect((await postSubmission(relay.url, { id: 'no spaces', code: GOOD })).status).toBe(400);
    expect((await postSubmission(relay.url, { id: 'x'.repeat(65), code: GOOD })).status).toBe(400);
    expect((await postSubmission(relay.url, new TextEncoder().encode('id=ann'))).json.error).toMatch(/not JSON/);
  });
});

describe('npm run contest -- submit', () => {
  it('submits a file, keeps its token for the next submission, prints the scores; a refusal and a failure say why', async () => {
    const tokens = join(tempDir('pipefill-contest-cli-'), 'tokens.json');
    const submit = (file: string, ...more: string[]) => runCliAsync('server/cli/contest.ts', ['submit', file, '--id', 'cli@green', '--server', relay.url, '--tokens', tokens, ...more]);
    // revealed, so the held-out trace's line is printed too, whichever test ran first
    await fetch(`${relay.url}/api/contest/reveal`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    const first = await submit(GOOD_FILE);
    const line = (t: { trace: string; throughputMbps: number; delay95: number; power: number; score: number }) =>
      `${t.trace.padEnd(24)} ${t.throughputMbps.toFixed(2)} Mbit/s · delay95 ${t.delay95} ms · power ${t.power.toFixed(2)} · score ${t.score.toFixed(3)}`;
    expect(first.code).toBe(0);
    const [head, ...scores] = first.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^submission [0-9a-f]+ \(http:\/\/127\.0\.0\.1:\d+\/api\/contest\/submissions\/[0-9a-f]+\)$/);
    expect(scores).toEqual((await sims).map(line));
    expect(Object.keys(JSON.parse(readFileSync(tokens, 'utf8')))).toEqual([`${relay.url} cli@green`]);
    const wrong = await submit(GOOD_FILE, '--token', 'not-the-token');
    expect([wrong.code, wrong.stderr]).toEqual([1, "contest: the token is not cli@green's\n"]);
    const broken = join(tempDir('pipefill-contest-cli-'), 'broken.mjs');
    writeFileSync(broken, 'export default { title: "x", params: [], create() { return { windowSize() { return w; }, onAck() {}, onTimeout() {} }; } };');
    const [failed, sim] = await Promise.all([submit(broken), runCliAsync('server/cli/sim.ts', ['--scheme', broken, '--json'])]);
    // the same sentence as the sim's, line and column included
    expect(sim.stderr.split('\n')[0]).toBe('sim: your controller in windowSize at line 1, column 77: ReferenceError: w is not defined');
    expect([failed.code, failed.stderr]).toEqual([1, `contest: on ${PUBLIC}: ${sim.stderr.split('\n')[0].slice('sim: '.length)}\n`]);
  }, 180_000);
});

describe('the class contest: rate limit', () => {
  it('takes one submission per id per --contest-gap, saying when the next may come', async () => {
    const limited = await contestRelay(['--contest-gap', '3600', '--contest-trace', PUBLIC, '--contest-held-out', HELD_OUT]);
    try {
      const first = await postSubmission(limited.url, { id: 'fay@red', code: GOOD });
      expect(first.status).toBe(202);
      await settled(limited.url, first.json.submission);
      const res = await fetch(`${limited.url}/api/contest/submissions`, { method: 'POST', body: JSON.stringify({ id: 'fay@red', code: GOOD, token: first.json.token }) });
      const wait = Number(res.headers.get('retry-after'));
      expect(res.status).toBe(429);
      expect(wait).toBeGreaterThan(3000);
      expect(await res.json()).toEqual({ error: `fay@red may submit once every 3600 s: try again in ${wait} s` });
      // another id is not held back
      expect((await postSubmission(limited.url, { id: 'gus@red', code: GOOD })).status).toBe(202);
    } finally {
      await limited.stop();
    }
  }, 180_000);
});

describe('the class contest: records', () => {
  it('keeps acknowledged submissions, their code and tokens across kill -9, and scores what was left unscored', async () => {
    const data = tempDir('pipefill-contest-data-');
    const flags = ['--data', data, '--contest-trace', PUBLIC, '--contest-held-out', HELD_OUT];
    const first = await contestRelay(flags);
    const acked = [];
    for (const id of ['cat@red', 'dan@red', 'eve@red']) acked.push({ id, ...(await postSubmission(first.url, { id, code: GOOD })) });
    first.child.kill('SIGKILL');
    await first.stop();
    const second = await contestRelay(flags);
    try {
      const [pub] = await sims;
      for (const a of acked) {
        expect(a.status).toBe(202);
        expect(await settled(second.url, a.json.submission), a.id).toEqual({ status: 'scored', traces: [pub] });
      }
      const refused = await postSubmission(second.url, { id: 'cat@red', code: GOOD });
      expect(refused.status).toBe(403);
      expect((await postSubmission(second.url, { id: 'cat@red', code: GOOD, token: acked[0].json.token })).status).toBe(202);
    } finally {
      await second.stop();
    }
  }, 240_000);
});
