import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../../shared/contest/api.ts';
import { ROOT } from '../helpers/cli.ts';
import { contestRelay, postSubmission, settled } from '../helpers/contest.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * The contest's ids are the page's (`id@team`, at most 64 characters) on a real relay process: another id is
 * refused with the page's sentence, while records kept under an id of the older, looser rule still load.
 */

const GOOD = readFileSync(join(ROOT, 'tests/fixtures/contestAimd.mjs'), 'utf8');
const PUBLIC = 'Verizon-LTE-short';
const HELD_OUT = 'ATT-LTE-driving-2016';
const NOT_ID_AT_TEAM = 'an id is id@team: letters, digits, dots, dashes and underscores on both sides of one @';
const OLD_SCORE = { trace: PUBLIC, throughputMbps: 2, delay95: 100, power: 20, score: 1 };
/** Submissions an older relay took under ids of its rule (1–64 of letters, digits and `._@-`). */
const SCORED = '00000000000000aa';
const UNSCORED = '00000000000000bb';

/** The records an older relay left: `noteam` scored, with its token, and `a@b@c` acknowledged and not yet scored. */
function oldRecords(data: string): void {
  const hash = createHash('sha256').update('old-token', 'utf8').digest('hex');
  const at = '2026-09-01T10:00:00.000Z';
  const records = [
    { kind: 'contest-submission', submission: SCORED, id: 'noteam', address: '127.0.0.1', at, code: GOOD },
    { kind: 'contest-token', id: 'noteam', address: '127.0.0.1', hash },
    { kind: 'contest-result', submission: SCORED, status: 'scored', scores: [OLD_SCORE] },
    { kind: 'contest-submission', submission: UNSCORED, id: 'a@b@c', address: '127.0.0.1', at, code: GOOD },
  ];
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'records.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

let relay: Awaited<ReturnType<typeof contestRelay>>;

beforeAll(async () => {
  const data = join(tempDir('pipefill-contest-ids-'), 'data');
  oldRecords(data);
  relay = await contestRelay(['--data', data, '--contest-trace', PUBLIC, '--contest-held-out', HELD_OUT]);
});
afterAll(() => relay?.stop());

describe('the class contest: ids', () => {
  it("refuses an id that is not id@team of at most 64 characters with the page's sentence", async () => {
    const refused = async (id: unknown) => postSubmission(relay.url, { id, code: GOOD });
    expect(await refused('noteam')).toEqual({ status: 400, json: { error: NOT_ID_AT_TEAM } });
    expect(await refused('a@b@c')).toEqual({ status: 400, json: { error: NOT_ID_AT_TEAM } });
    expect(await refused('no spaces@red')).toEqual({ status: 400, json: { error: NOT_ID_AT_TEAM } });
    expect(await refused(`${'a'.repeat(61)}@red`)).toEqual({ status: 400, json: { error: 'an id has at most 64 characters' } });
    expect(await refused('')).toEqual({ status: 400, json: { error: 'give your id as id@team, e.g. ann@red' } });
    expect(await refused(7)).toEqual({ status: 400, json: { error: 'give your id as id@team, e.g. ann@red' } });
    // 64 characters is an id
    expect((await refused(`${'a'.repeat(60)}@red`)).status).toBe(202);
  });

  it('loads the records of ids an older relay took: their scores rank, their unscored submissions are scored', async () => {
    expect(await (await fetch(`${relay.url}/api/contest/submissions/${SCORED}`)).json()).toEqual({ status: 'scored', traces: [OLD_SCORE] });
    expect((await fetch(`${relay.url}/api/contest/submissions/${UNSCORED}`)).status).toBe(200);
    expect(await settled(relay.url, UNSCORED)).toMatchObject({ status: 'scored' });
    const board: Board = await (await fetch(`${relay.url}/api/contest/leaderboard`)).json();
    expect(board.rows.map((r) => r.id)).toEqual(expect.arrayContaining(['noteam', 'a@b@c']));
    expect(board.rows.find((r) => r.id === 'noteam')).toMatchObject({ submission: SCORED, overall: 1 });
    // the id is kept, and is refused for a new submission all the same, its token or not
    expect(await postSubmission(relay.url, { id: 'noteam', code: GOOD, token: 'old-token' })).toEqual({ status: 400, json: { error: NOT_ID_AT_TEAM } });
  }, 120_000);

  it('says there is no such submission on this relay, whatever its name', async () => {
    for (const name of ['nosuch', 'ffffffffffffffff']) {
      const res = await fetch(`${relay.url}/api/contest/submissions/${name}`);
      expect([res.status, await res.json()]).toEqual([404, { error: `there is no submission ${name} on this relay` }]);
    }
  });
});
