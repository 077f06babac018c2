import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tempDir.ts';

interface Fingerprint {
  digest: string;
  files: Record<string, { size: number; mtimeMs: number; sha1: string }>;
}

/** scripts/buildInputs.mjs's fingerprint of a folder, as `npm start` takes it (plain Node, no TypeScript). */
function fingerprint(root: string, known: Fingerprint['files'] = {}): Fingerprint {
  const script = `import { fingerprint } from ${JSON.stringify(join(ROOT, 'scripts/buildInputs.mjs'))}; console.log(JSON.stringify(fingerprint(${JSON.stringify(known)}, ${JSON.stringify(root)})));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('the build’s fingerprint of its sources', () => {
  it('follows the content: a touched file is the same build, an edited one or a new one is not', () => {
    const root = tempDir('pipefill-inputs-');
    mkdirSync(join(root, 'web'));
    writeFileSync(join(root, 'web/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'package.json'), '{}\n');
    writeFileSync(join(root, 'notes.txt'), 'not an input\n');
    const built = fingerprint(root);
    expect(Object.keys(built.files).sort()).toEqual(['package.json', 'web/a.ts']);
    expect(built.files['web/a.ts'].sha1).toBe(createHash('sha1').update('export const a = 1;\n').digest('hex'));
    utimesSync(join(root, 'web/a.ts'), new Date(), new Date(Date.now() + 5000));
    expect(fingerprint(root, built.files).digest).toBe(built.digest);
    writeFileSync(join(root, 'notes.txt'), 'still not an input\n');
    expect(fingerprint(root, built.files).digest).toBe(built.digest);
    writeFileSync(join(root, 'web/a.ts'), 'export const a = 2;\n');
    expect(fingerprint(root, built.files).digest).not.toBe(built.digest);
    writeFileSync(join(root, 'web/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'web/b.ts'), '');
    expect(fingerprint(root, built.files).digest).not.toBe(built.digest);
  });

  it('trusts a file whose size and time are the build’s without reading it again', () => {
    const root = tempDir('pipefill-inputs-');
    mkdirSync(join(root, 'shared'));
    writeFileSync(join(root, 'shared/x.ts'), 'x');
    const built = fingerprint(root);
    const claimed = { 'shared/x.ts': { ...built.files['shared/x.ts'], sha1: 'f'.repeat(40) } };
    expect(fingerprint(root, claimed).files['shared/x.ts'].sha1).toBe('f'.repeat(40));
  });
});
