import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/tempDir.ts';

// Registered first in each test file, so it runs after the file's own afterAll hooks: the relays and
// processes those close are done with their directories by then.
afterAll(removeTempDirs);
