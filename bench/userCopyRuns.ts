import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contest, flow, offsetServer } from '../shared/scenarios/presets.ts';
import { runScenario } from '../shared/scenarios/run.ts';
import { type SchemeCatalogue, withUserScheme } from '../shared/controllers/registry.ts';
import { loadSchemeFile } from '../server/cli/schemeFlags.ts';
import { loadTrace } from '../server/traces.ts';
import { schemeCopy } from '../scripts/schemeCopies.ts';

/**
 * One copy against its built-in, in a process of its own (so no other copy's code shares the engine's
 * view of the wrapper): `userCopyRuns.ts ID offset|contest WARM PAIRS` prints the CPU ms of each run as
 * JSON, `{ builtIn: [...], user: [...] }`, pair by pair. Both warm up alike, and the pairs alternate which
 * runs first, so neither gets the other's cache or the machine's quieter moments.
 */

/** CPU time of one run (on a shared machine, steadier than wall time): the 140 s contest run, or the offset server's fetch. */
function runMs(scheme: string, offset: boolean, schemes: SchemeCatalogue): number {
  const spec = offset ? offsetServer(true, [flow(scheme, {}, 0, 1_000_000)]) : contest('Verizon-LTE-short', [flow(scheme)]);
  const c0 = process.cpuUsage();
  runScenario(spec, loadTrace, schemes);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const [id, run, warm, pairs] = process.argv.slice(2);
const offset = run === 'offset';
const dir = mkdtempSync(join(tmpdir(), 'copy-'));
const file = join(dir, `${id}.js`);
writeFileSync(file, (await schemeCopy(id))!);
const schemes = withUserScheme(await loadSchemeFile(file));
rmSync(dir, { recursive: true });
const builtIn: number[] = [];
const user: number[] = [];
for (let i = 0; i < Number(warm); i++) runMs(id, offset, schemes), runMs('user', offset, schemes);
for (let i = 0; i < Number(pairs); i++) {
  const first = i % 2 === 0 ? id : 'user';
  const a = runMs(first, offset, schemes);
  const b = runMs(first === id ? 'user' : id, offset, schemes);
  builtIn.push(first === id ? a : b);
  user.push(first === id ? b : a);
}
console.log(JSON.stringify({ builtIn, user }));
