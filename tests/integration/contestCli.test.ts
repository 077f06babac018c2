import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { contestRelay } from '../helpers/contest.ts';

/** `npm run contest` against a real relay process: a token kept under another server spelling. */

const GOOD_FILE = join(ROOT, 'tests/fixtures/contestAimd.mjs');
const PUBLIC = 'Verizon-LTE-short';

describe('npm run contest: tokens kept by server spelling', () => {
  it('says no token was kept for this spelling, where it looked, and how to give one', async () => {
    const relay = await contestRelay(['--contest-trace', PUBLIC]);
    try {
      const tokens = join(mkdtempSync(join(tmpdir(), 'pipefill-contest-cli-')), 'tokens.json');
      const submit = (server: string) => runCliAsync('server/cli/contest.ts', ['submit', GOOD_FILE, '--id', 'lou@red', '--server', server, '--tokens', tokens, '--no-wait']);
      expect((await submit(relay.url)).code).toBe(0);
      const other = relay.url.replace('127.0.0.1', 'localhost');
      const refused = await submit(other);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        `contest: lou@red has submitted before: send the token its first submission was given. No token for lou@red was kept for the server spelled ${other} in ${tokens} (tokens are kept by the server's URL exactly as given to --server): use the same --server spelling as the first submission, or give the token with --token TOKEN\n`,
      ]);
    } finally {
      await relay.stop();
    }
  }, 120_000);
});
