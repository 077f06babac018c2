import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/**
 * A fresh directory in the system's temporary one, named from `prefix`: removed with all it holds once
 * the test file that made it is done (tests/setup/tempDirs.ts), so a run of the suite leaves nothing behind.
 */
export function tempDir(prefix = 'pipefill-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every directory `tempDir` made so far. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  made.clear();
}
