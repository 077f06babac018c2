/**
 * The edit-a-copy comparisons, shared by two test files so the unit project's workers split the long runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { installUserScheme } from '../../shared/controllers/registry.ts';
import type { ParamValues } from '../../shared/controllers/types.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { contest, flow, offsetServer, rateLink } from '../../shared/scenarios/presets.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadSchemeFile } from '../../server/cli/schemeFlags.ts';
import { loadTrace } from '../../server/traces.ts';

/** A run's event rows (the spec line names the scheme, so it is left out). */
function rows(spec: ScenarioSpec): string {
  const csv = formatTraceCsv(runScenario(spec, loadTrace).log, null);
  return csv.slice(csv.indexOf('\n', csv.indexOf('\n') + 1));
}

/** 30 s of the contest run. */
function contestRun(scheme: string, params: ParamValues): ScenarioSpec {
  const spec = contest('Verizon-LTE-short', [flow(scheme, params)], 3);
  spec.durationMs = 30_000;
  return spec;
}

/** The offset server's fetch of its file, on the variable-rate server (its slow phases make the schemes back off). */
const offsetRun = (scheme: string, params: ParamValues): ScenarioSpec => offsetServer(true, [flow(scheme, params, 0, 1_000_000)], 3);

/** 30 s of the AT&T 2016 trace, whose outages fire the timer of schemes that set none of their own (BBR). */
function outagesRun(scheme: string, params: ParamValues): ScenarioSpec {
  const spec = contest('ATT-LTE-driving-2016', [flow(scheme, params)], 3);
  spec.durationMs = 30_000;
  return spec;
}

/** A steady 50 Mbit/s link, 20 ms each way, 200 packets of queue: ACK trains dense enough for HyStart's train exit, and drops. */
function fastLinkRun(scheme: string, params: ParamValues): ScenarioSpec {
  const spec = contest('Verizon-LTE-short', [flow(scheme, params)], 3);
  spec.link = rateLink(50, 20, undefined, { kind: 'packets', limit: 200 });
  spec.durationMs = 20_000;
  return spec;
}

/** Each "edit a copy" module, the built-in it copies, and parameter sets beside the defaults. */
export const COPIES: [file: string, builtIn: string, variants: ParamValues[], run?: typeof contestRun][] = [
  ['fixed.js', 'fixed', [{}, { w: 40 }]],
  ['aimd.js', 'aimd', [{}, { loss: 'detect', timeout: 100, decrease: 'sqrt' }, { increase: 'a/w2', decrease: 'quartic', a: 2 }]],
  ['delayTrigger.js', 'delay-trigger', [{}, { variant: 'multiplicative', cut: 'once-per-window', increaseMode: 'per-window' }]],
  ['bdp.js', 'bdp', [{}, { timeout: 50, gain: 1.5, samples: 8 }]],
  ['reno.js', 'reno', [{}, { minRto: 200, ssthresh: 16 }]],
  ['watermarks.js', 'watermarks', [{}, { low: 80, high: 100 }]],
  ['deliveryTrend.js', 'delivery-trend', [{}, { compare: 'per-packet', factor: 1.5 }, { compare: 'k-average', k: 6, timeout: 300 }]],
  ['rateBased.js', 'rate-based', [{}, { span: 40, k: 1.2, c: 3 }]],
  ['cubic.js', 'cubic', [{}, { hystart: 'off', c: 0.8, beta: 0.5 }, { minRto: 50 }]],
  ['cubic.js', 'cubic', [{}, { beta: 0.8 }], fastLinkRun],
  ['bbr.js', 'bbr', [{}, { bwRounds: 4, probeGain: 1.5, initialCwnd: 3 }, { variant: 'linux-v1' }]],
  ['bbr.js', 'bbr', [{}], outagesRun],
  ['vegas.js', 'vegas', [{}, { alpha: 1, beta: 2, gamma: 3, minRto: 50 }]],
  ['copa.js', 'copa', [{}, { delta: 0.1 }]],
  ['burstAimd.js', 'burst-aimd', [{}, { increase: 'per-reply', k: 1.5, initial: 10 }], offsetRun],
  ['constantBurst.js', 'constant-burst', [{}, { size: 30, gap: 20 }], offsetRun],
  ['tokenPacer.js', 'token-pacer', [{}, { rate: 400, maxRate: 600, window: 10 }], offsetRun],
];

/** Each copy in `copies` gives byte-identical event rows to its built-in, for every parameter set. */
export function describeCopies(copies: typeof COPIES): void {
  afterEach(() => installUserScheme(null));
  describe('edit-a-copy controllers give the built-in numbers on the contest run (the offset run for offset schemes)', () => {
    for (const [file, builtIn, variants, run = contestRun] of copies) {
      it(`${file} = ${builtIn}${run === contestRun ? '' : ` (${run.name})`}`, async () => {
        const id = await loadSchemeFile(`shared/controllers/copies/${file}`);
        for (const params of variants) {
          const mine = rows(run(id, params));
          expect(mine.length).toBeGreaterThan(10_000);
          expect(mine === rows(run(builtIn, params))).toBe(true);
        }
        // CUBIC's two long runs take 20 s on an idle machine, over a minute on a host that steals the CPU.
      }, 180_000);
    }
  });
}
