import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contestRelay, postSubmission } from '../helpers/contest.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * A submission is acknowledged (202) only once it is on disk: with the records' disk full, a relay killed
 * with -9 and started again has every submission it acknowledged, and each refusal said what became of it.
 */

const root = tempDir('pipefill-contest-disk-');
const data = join(root, 'data');
mkdirSync(data);
/** A 200 KB disk of its own where the kernel lets the test mount one (root); else the records file is made read-only. */
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', data]).status === 0;

/** Whether a read-only file refuses this process's writes (root writes through it). */
function readOnlyRefuses(): boolean {
  const probe = join(root, 'probe');
  writeFileSync(probe, '');
  chmodSync(probe, 0o444);
  try {
    closeSync(openSync(probe, 'a'));
    return false;
  } catch {
    return true;
  }
}
const refusing = mounted || readOnlyRefuses();
if (!mounted)
  console.log(`contestDisk: no tmpfs could be mounted here (not root?): ${refusing ? 'the records file is made read-only instead' : 'a read-only file does not refuse root either: skipped'}`);
afterAll(() => {
  if (mounted) spawnSync('umount', [data]);
  rmSync(root, { recursive: true, force: true });
});

/** A controller that fails at once, padded to `kb` KB so that a few fill the disk. */
const padded = (n: number, kb: number) => `// ${n} ${'x'.repeat(kb * 1024)}\nthrow new Error('no controller here');\n`;
const FULL =
  /^the relay could not write submission [0-9a-f]+ and (s\d+@red)'s token to its records \(\d+ records held in memory, the last write failed: .+\): it is not acknowledged\. It is kept in memory and scored as usual, and written to the records if the disk takes it before the relay stops; if the relay stops first, it and its score are lost\.$/;

describe('the class contest: a submission refused by the disk is not acknowledged', () => {
  it.skipIf(!refusing)(
    'answers 202 only for what is on disk, 503 with a sentence for the rest, and a restart after kill -9 has every 202',
    async () => {
      const flags = ['--data', data, '--contest-trace', 'Verizon-LTE-short', '--contest-held-out', 'TMobile-LTE-short'];
      const first = await contestRelay(flags);
      const answers = [];
      try {
        for (let n = 0; n < 8; n++) {
          if (!mounted && n === 1) chmodSync(join(data, 'records.jsonl'), 0o444);
          answers.push(await postSubmission(first.url, { id: `s${n}@red`, code: padded(n, 45) }));
        }
      } finally {
        first.child.kill('SIGKILL');
        await first.stop();
      }
      const acked = answers.filter((a) => a.status === 202);
      const held = answers.findIndex((a) => a.status === 503);
      expect(acked.length).toBeGreaterThan(0);
      expect(answers.slice(0, acked.length).map((a) => a.status)).toEqual(acked.map(() => 202));
      // the first the disk refused says what becomes of it, with its submission and token; the next are refused up front
      expect(held).toBe(acked.length);
      expect(answers[held].json.error).toMatch(FULL);
      expect(FULL.exec(answers[held].json.error)?.[1]).toBe(`s${held}@red`);
      expect(answers[held].json.submission).toMatch(/^[0-9a-f]+$/);
      expect(answers[held].json.token).toMatch(/^[0-9a-f]{32}$/);
      for (const a of answers.slice(held + 1)) {
        expect(a.status).toBe(503);
        expect(a.json.error).toMatch(/^the relay cannot write its records now \(\d+ records held in memory, the last write failed: .+\): no submission is taken until it can; try again later$/);
      }
      if (!mounted) chmodSync(join(data, 'records.jsonl'), 0o644);
      const second = await contestRelay(flags);
      try {
        for (const a of acked) expect((await fetch(`${second.url}/api/contest/submissions/${a.json.submission}`)).status).toBe(200);
        // the acknowledged ids' tokens came back too
        expect((await postSubmission(second.url, { id: 's0@red', code: padded(0, 1) })).status).toBe(403);
      } finally {
        await second.stop();
      }
    },
    120_000,
  );
});
