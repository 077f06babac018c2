import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { contest, flow, MATRIX, matrixRun } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { loadTrace } from '../../server/traces.ts';

const csvHash = (spec: ScenarioSpec) =>
  createHash('sha256')
    .update(formatTraceCsv(runScenario(spec, loadTrace).log, spec))
    .digest('hex');

describe('determinism', () => {
  it('same seed and settings: byte-identical CSV; another seed: a different one', () => {
    const row = MATRIX.find((r) => r.drop > 0 && r.duplicate > 0 && r.delay > 0)!;
    expect(csvHash(matrixRun(row, 'cubic', {}, 7))).toBe(csvHash(matrixRun(row, 'cubic', {}, 7)));
    expect(csvHash(matrixRun(row, 'cubic', {}, 8))).not.toBe(csvHash(matrixRun(row, 'cubic', {}, 7)));
  });

  it('the contest run repeats to the byte, with an impaired link too', () => {
    const spec = contest('Verizon-LTE-short', [flow('bdp'), flow('aimd', {}, 500)], 3);
    spec.durationMs = 20_000;
    spec.link.forward = { ...spec.link.forward, loss: 0.01, jitter: 3 };
    const a = csvHash(spec);
    expect(csvHash(spec)).toBe(a);
    expect(csvHash({ ...spec, seed: 4 })).not.toBe(a);
  });
});
