import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { madeForOffsetServer, SCHEMES, type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { contest, flow, offsetServer } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { loadSchemeFile } from '../../server/cli/schemeFlags.ts';
import { loadTrace } from '../../server/traces.ts';
import { builtInSources, schemeCopy } from '../../scripts/schemeCopies.ts';
import { MAX_CODE_CHARS } from '../../web/state/view.ts';
import { tempDir } from '../helpers/tempDir.ts';

/** A run's event rows (the spec line names the scheme, so it is left out). */
function rows(spec: ScenarioSpec, schemes: SchemeCatalogue = SCHEMES): string {
  const csv = formatTraceCsv(runScenario(spec, loadTrace, schemes).log, null);
  return csv.slice(csv.indexOf('\n', csv.indexOf('\n') + 1));
}

/** One short run of the scheme: the offset server's fetch for its schemes, 5 s of the contest for the others. */
function shortRun(scheme: string, offset: boolean): ScenarioSpec {
  if (offset) return offsetServer(true, [flow(scheme, {}, 0, 300_000)], 3);
  const spec = contest('Verizon-LTE-short', [flow(scheme)], 3);
  spec.durationMs = 5_000;
  return spec;
}

const dir = tempDir('copies-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('"Edit a copy": each built-in as a module made from its own source', () => {
  it('every scheme of the registry has one', () => {
    expect(
      builtInSources()
        .map((s) => s.id)
        .sort(),
    ).toEqual(SCHEMES.map((s) => s.id).sort());
  });

  for (const scheme of SCHEMES) {
    it(`${scheme.id}: self-contained and commented, and loaded as the user's scheme it gives the built-in's numbers`, async () => {
      const text = (await schemeCopy(scheme.id))!;
      expect(text).not.toMatch(/^\s*import\b/m);
      expect(text).toMatch(/\/\*\*[\s\S]*?\*\//);
      expect(text).toMatch(/\nexport default \{[\s\S]*\};\n$/);
      // the editor runs it and a link carries it, with room left for the student's changes
      expect(text.length).toBeLessThanOrEqual(0.75 * MAX_CODE_CHARS);
      const file = join(dir, `${scheme.id}.js`);
      writeFileSync(file, text);
      const user = await loadSchemeFile(file);
      const offset = madeForOffsetServer(scheme);
      const mine = rows(shortRun(user.id, offset), withUserScheme(user));
      expect(mine.split('\n').length).toBeGreaterThan(100);
      expect(mine === rows(shortRun(scheme.id, offset))).toBe(true);
      // its parameters as the built-in declares them, what a 0 stands for included (the BDP estimator's "auto")
      expect(user.params).toEqual(scheme.params);
    });
  }
});
