import { afterEach, describe, expect, it } from 'vitest';
import { installUserScheme } from '../../shared/controllers/registry.ts';
import type { ParamValues } from '../../shared/controllers/types.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadSchemeFile } from '../../server/cli/flags.ts';
import { loadTrace } from '../../server/traces.ts';

/** The contest run's event rows (the spec line names the scheme, so it is left out). */
function contestRows(scheme: string, params: ParamValues, trace = 'Verizon-LTE-short'): string {
  const spec = contest(trace, [flow(scheme, params)], 3);
  spec.durationMs = 30_000;
  const csv = formatTraceCsv(runScenario(spec, loadTrace).log, null);
  return csv.slice(csv.indexOf('\n', csv.indexOf('\n') + 1));
}

afterEach(() => installUserScheme(null));

/** Each "edit a copy" module, the built-in it copies, and parameter sets beside the defaults. */
const COPIES: [file: string, builtIn: string, variants: ParamValues[]][] = [
  ['fixed.js', 'fixed', [{}, { w: 40 }]],
  ['aimd.js', 'aimd', [{}, { loss: 'detect', timeout: 100, decrease: 'sqrt' }, { increase: 'a/w2', decrease: 'quartic', a: 2 }]],
  ['delayTrigger.js', 'delay-trigger', [{}, { variant: 'multiplicative', cut: 'once-per-window', increaseMode: 'per-window' }]],
  ['bdp.js', 'bdp', [{}, { timeout: 50, gain: 1.5, samples: 8 }]],
  ['reno.js', 'reno', [{}, { minRto: 200, ssthresh: 16 }]],
];

describe('edit-a-copy controllers give the built-in numbers on the contest run', () => {
  for (const [file, builtIn, variants] of COPIES) {
    it(`${file} = ${builtIn}`, async () => {
      const id = await loadSchemeFile(`shared/controllers/copies/${file}`);
      for (const params of variants) {
        const mine = contestRows(id, params);
        expect(mine.length).toBeGreaterThan(10_000);
        expect(mine === contestRows(builtIn, params)).toBe(true);
      }
    }, 60_000);
  }
});
