import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContestFlags } from '../../server/contest/flags.ts';
import { contestRelay, OPERATOR_TOKEN, postSubmission } from '../helpers/contest.ts';
import { tempDir } from '../helpers/tempDir.ts';

const CODE = 'export default { title: "x", params: [], create() { return { windowSize() { return 10; }, onAck() {}, onTimeout() {} }; } };';

describe('a class roster', () => {
  it('issues each id its token once, takes no other id, and no id without its own token, across a restart', async () => {
    const dir = tempDir('pipefill-roster-');
    const roster = join(dir, 'class.txt');
    writeFileSync(roster, '# 6.829, fall\nann@red\n\nbob@red   # lab B\nann@red\n');
    const flags = ['--contest-roster', roster, '--data', join(dir, 'data')];
    let relay = await contestRelay(flags);
    const tokensFile = `${roster}.tokens.csv`;
    const tokens = Object.fromEntries(
      readFileSync(tokensFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(',')),
    );
    try {
      expect(Object.keys(tokens)).toEqual(['ann@red', 'bob@red']);
      expect(statSync(tokensFile).mode & 0o777).toBe(0o600);
      expect(relay.out()).toContain(`roster ${roster}: 2 ids; 2 tokens issued now, appended to ${tokensFile}: hand each student theirs`);
      expect(relay.out()).not.toContain('kept in memory only');
      // the roster is the instructor's: the operator reads it (to see who has not submitted), no one else
      const readRoster = (auth: Record<string, string>) => fetch(`${relay.url}/api/contest/roster`, { headers: auth }).then(async (r) => [r.status, await r.json()]);
      expect(await readRoster({})).toEqual([403, { error: 'only the operator may read the class roster' }]);
      expect(await readRoster({ authorization: `Bearer ${OPERATOR_TOKEN}` })).toEqual([200, { ids: ['ann@red', 'bob@red'] }]);
      expect(await postSubmission(relay.url, { id: 'eve@red', code: CODE })).toEqual({
        status: 403,
        json: { error: 'eve@red is not on the class roster: submit under the id the instructor gave you, with its token' },
      });
      // the first to submit under bob@red does not take it: the token is the instructor's to give
      expect(await postSubmission(relay.url, { id: 'bob@red', code: CODE })).toEqual({
        status: 403,
        json: { error: "bob@red's token is needed: the instructor hands each student the token of their id", tokenProblem: 'missing' },
      });
      expect((await postSubmission(relay.url, { id: 'bob@red', code: CODE, token: tokens['ann@red'] })).status).toBe(403);
      const bob = await postSubmission(relay.url, { id: 'bob@red', code: CODE, token: tokens['bob@red'] });
      expect([bob.status, bob.json.token]).toEqual([202, tokens['bob@red']]);
      await relay.stop();
      // restarted on the same records: no token is issued again, and the issued ones still count
      relay = await contestRelay(flags);
      expect(relay.out()).toContain(`roster ${roster}: 2 ids; 0 tokens issued now`);
      expect(readFileSync(tokensFile, 'utf8').trim().split('\n')).toHaveLength(2);
      expect((await postSubmission(relay.url, { id: 'ann@red', code: CODE, token: tokens['ann@red'] })).status).toBe(202);
    } finally {
      await relay.stop();
    }
  }, 120_000);

  it('records no token it could not hand out: a tokens file it cannot write stops the start, and the next start issues every id its token', async () => {
    const dir = tempDir('pipefill-roster-');
    const roster = join(dir, 'class.txt');
    writeFileSync(roster, 'ann@red\nbob@red\n');
    const tokensFile = `${roster}.tokens.csv`;
    // a folder where the tokens file goes: the relay cannot write it
    mkdirSync(tokensFile);
    const flags = ['--contest-roster', roster, '--data', join(dir, 'data')];
    await expect(contestRelay(flags)).rejects.toThrow(`--contest-roster: cannot write ${tokensFile} (EISDIR): no token is issued`);
    rmdirSync(tokensFile);
    const relay = await contestRelay(flags);
    try {
      expect(relay.out()).toContain(`roster ${roster}: 2 ids; 2 tokens issued now`);
      const [ann] = readFileSync(tokensFile, 'utf8').trim().split('\n');
      expect((await postSubmission(relay.url, { id: 'ann@red', code: CODE, token: ann.split(',')[1] })).status).toBe(202);
    } finally {
      await relay.stop();
    }
  }, 120_000);

  it("refuses a roster line that is not the page's id@team of at most 64 characters, naming it and saying why", () => {
    const roster = join(tempDir('pipefill-roster-'), 'class.txt');
    const refusal = (text: string) => {
      writeFileSync(roster, text);
      return () => readContestFlags({ contest: true, 'contest-roster': roster });
    };
    const notIdAtTeam = 'an id is id@team: letters, digits, dots, dashes and underscores on both sides of one @';
    expect(refusal('ann@red\nbob red\n')).toThrow(`--contest-roster: line 2 of ${roster}, "bob red": ${notIdAtTeam}`);
    expect(refusal('ann@red\n# lab B\nnoteam   # no team\n')).toThrow(`--contest-roster: line 3 of ${roster}, "noteam": ${notIdAtTeam}`);
    expect(refusal('a@b@c\n')).toThrow(`--contest-roster: line 1 of ${roster}, "a@b@c": ${notIdAtTeam}`);
    expect(refusal(`${'a'.repeat(61)}@red\n`)).toThrow(`--contest-roster: line 1 of ${roster}, "${'a'.repeat(61)}@red": an id has at most 64 characters`);
  });

  it('stops a relay given a roster but no records, saying why: a restart would void the tokens handed out', async () => {
    const roster = join(tempDir('pipefill-roster-'), 'class.txt');
    writeFileSync(roster, 'ann@red\n');
    await expect(contestRelay(['--contest-roster', roster])).rejects.toThrow(
      '--contest-roster needs --data DIR (or --leaderboard FILE): without records a restart forgets every submission and issues each id on the roster a new token, so the ones handed out stop working',
    );
    expect(existsSync(`${roster}.tokens.csv`)).toBe(false);
  }, 60_000);

  it('stops the relay at a roster line that is not an id, saying which', async () => {
    const roster = join(tempDir('pipefill-roster-'), 'class.txt');
    writeFileSync(roster, 'ann@red\nnoteam\n');
    await expect(contestRelay(['--contest-roster', roster])).rejects.toThrow(`--contest-roster: line 2 of ${roster}, "noteam": an id is id@team`);
  }, 60_000);
});
