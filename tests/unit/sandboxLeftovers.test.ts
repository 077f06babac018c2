import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepLeftovers } from '../../server/contest/sandbox.ts';
import { tempDir } from '../helpers/tempDir.ts';

const root = tempDir('pipefill-leftovers-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A folder of `root` holding an owner file that says `owner` (none: no file). */
function folder(name: string, owner?: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'sandbox.mjs'), '');
  if (owner !== undefined) writeFileSync(join(dir, 'owner.pid'), owner);
  return dir;
}

describe('sandbox folders left by a relay killed before it removed its own', () => {
  it('go when their process no longer runs; a running one’s, one without an owner and any other folder stay', () => {
    // a process that has ended by the time spawnSync returns
    const ended = String(spawnSync(process.execPath, ['-e', '']).pid);
    const gone = folder('pipefill-contest-aaaa', ended);
    const live = folder('pipefill-contest-bbbb', String(process.pid));
    const ownerless = folder('pipefill-contest-cccc');
    const garbled = folder('pipefill-contest-dddd', 'not a pid');
    const unrelated = folder('something-else', ended);
    expect(sweepLeftovers(root)).toEqual([gone]);
    expect([gone, live, ownerless, garbled, unrelated].map(existsSync)).toEqual([false, true, true, true, true]);
    expect(sweepLeftovers(root)).toEqual([]);
  });
});
