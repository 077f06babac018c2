import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../../shared/contest/api.ts';
import { ROOT } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { contestRelay } from '../helpers/contest.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * `npm run contest` against a real relay process: a token kept under another server spelling, flag values
 * and files refused before anything is sent, and the relay's refusals said as they are.
 */

const GOOD_FILE = join(ROOT, 'tests/fixtures/contestAimd.mjs');
const PUBLIC = 'Verizon-LTE-short';
const HELP = 'Run with --help for the options.';
const NOT_ID_AT_TEAM = 'an id is id@team: letters, digits, dots, dashes and underscores on both sides of one @';

const scratch = () => tempDir('pipefill-contest-cli-');
const contest = (...args: string[]) => runCliAsync('server/cli/contest.ts', args);
/** Every id the relay's board names: ranked, waiting or failed. */
async function boardIds(url: string): Promise<string[]> {
  const board: Board = await (await fetch(`${url}/api/contest/leaderboard`)).json();
  return [...board.rows, ...board.pending, ...board.failed].map((r) => r.id);
}

let relay: Awaited<ReturnType<typeof contestRelay>>;

beforeAll(async () => {
  relay = await contestRelay(['--contest-trace', PUBLIC]);
});
afterAll(() => relay?.stop());

describe('npm run contest: tokens kept by server spelling', () => {
  it('says no token was kept for this spelling, where it looked, and how to give one', async () => {
    const tokens = join(scratch(), 'tokens.json');
    const submit = (server: string) => contest('submit', GOOD_FILE, '--id', 'lou@red', '--server', server, '--tokens', tokens, '--no-wait');
    expect((await submit(relay.url)).code).toBe(0);
    const other = relay.url.replace('127.0.0.1', 'localhost');
    const refused = await submit(other);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      `contest: lou@red has submitted before: send the token its first submission was given. No token for lou@red was kept for the server spelled ${other} in ${tokens} (tokens are kept by the server's URL exactly as given to --server): use the same --server spelling as the first submission, or give the token with --token TOKEN\n`,
    ]);
  }, 120_000);
});

describe('npm run contest: refused before sending', () => {
  it("refuses an id that is not the page's id@team, and a server that is not a URL, with exit 2 and why", async () => {
    const tokens = join(scratch(), 'tokens.json');
    const submit = (id: string, server = relay.url) => contest('submit', GOOD_FILE, '--id', id, '--server', server, '--tokens', tokens, '--no-wait');
    for (const id of ['bad id', 'noteam', 'a@b@c']) expect(Object.values(await submit(id))).toEqual([2, '', `contest: --id: ${NOT_ID_AT_TEAM} (got "${id}")\n${HELP}\n`]);
    const long = `${'a'.repeat(61)}@red`;
    expect((await submit(long)).stderr).toBe(`contest: --id: an id has at most 64 characters (got "${long.slice(0, 40)}…" (65 characters))\n${HELP}\n`);
    const bare = relay.url.replace('http://', '');
    const serverRefused = `contest: --server must be the relay's URL, such as http://127.0.0.1:8080 (got "${bare}")\n${HELP}\n`;
    expect(Object.values(await submit('ann@red', bare))).toEqual([2, '', serverRefused]);
    expect(Object.values(await contest('status', 'ffffffffffffffff', '--server', bare))).toEqual([2, '', serverRefused]);
  }, 60_000);

  it('checks the controller file as npm run sim does and sends none that does not load, saying where', async () => {
    const broken = join(scratch(), 'broken.mjs');
    writeFileSync(broken, 'export default {\n  title: "x",\n  create() { return { windowSize() { return 10 } } \n  oops oops\n};\n');
    const [submitted, sim] = await Promise.all([
      contest('submit', broken, '--id', 'syn@red', '--server', relay.url, '--tokens', join(scratch(), 't.json')),
      runCliAsync('server/cli/sim.ts', ['--scheme', broken]),
    ]);
    const sentence = 'your controller at line 4, column 8: syntax error (the code is not valid JavaScript here)';
    expect(sim.stderr).toBe(`sim: ${sentence}\n${HELP}\n`);
    expect(Object.values(submitted)).toEqual([2, '', `contest: ${broken} is not sent: ${sentence}\n${HELP}\n`]);
    expect(await boardIds(relay.url)).not.toContain('syn@red');
  }, 60_000);
});

describe('npm run contest: the relay says no', () => {
  it('says there is no such submission on the relay', async () => {
    expect(Object.values(await contest('status', 'nosuch', '--server', relay.url))).toEqual([1, '', 'contest: there is no submission nosuch on this relay\n']);
  }, 60_000);

  it("under a roster, says an id is not on it without a word of kept tokens, which it says of an id's missing token", async () => {
    const dir = scratch();
    const roster = join(dir, 'class.txt');
    writeFileSync(roster, 'bob@red\n');
    const tokens = join(dir, 'tokens.json');
    const rostered = await contestRelay(['--contest-trace', PUBLIC, '--contest-roster', roster, '--data', join(dir, 'data')]);
    try {
      const submit = (id: string) => contest('submit', GOOD_FILE, '--id', id, '--server', rostered.url, '--tokens', tokens, '--no-wait');
      expect(Object.values(await submit('zed@red'))).toEqual([1, '', 'contest: zed@red is not on the class roster: submit under the id the instructor gave you, with its token\n']);
      expect(Object.values(await submit('bob@red'))).toEqual([
        1,
        '',
        `contest: bob@red's token is needed: the instructor hands each student the token of their id. No token for bob@red was kept for the server spelled ${rostered.url} in ${tokens} (tokens are kept by the server's URL exactly as given to --server): use the same --server spelling as the first submission, or give the token with --token TOKEN\n`,
      ]);
    } finally {
      await rostered.stop();
    }
  }, 120_000);
});
