import { describe, expect, it } from 'vitest';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { coarseDots, thinSteps } from '../../shared/metrics/thin.ts';
import { contest, flow, matrixRun, MATRIX } from '../../shared/scenarios/presets.ts';
import { runScenario, startScenario } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';

describe('a run in steps', () => {
  it('gives each run byte for byte when two runs take turns, as the page worker may', () => {
    const specs = [
      { ...contest('Verizon-LTE-short', [flow('aimd')]), durationMs: 5_500 },
      { ...contest('TMobile-LTE-short', [flow('bdp')]), durationMs: 3_000 },
    ];
    const runs = specs.map((s) => startScenario(s, loadTrace));
    const steps = [0, 0];
    const ended = [false, false];
    while (!ended.every(Boolean)) {
      runs.forEach((r, i) => {
        if (ended[i]) return;
        steps[i]++;
        ended[i] = r.advance();
      });
    }
    expect(steps).toEqual([6, 3]); // a second a step, the last one what is left
    runs.forEach((r, i) => {
      const whole = runScenario(specs[i], loadTrace);
      const stepped = r.result();
      expect(stepped.endMs).toBe(specs[i].durationMs);
      expect(stepped.log.length).toBeGreaterThan(1000);
      expect(formatTraceCsv(stepped.log, specs[i])).toBe(formatTraceCsv(whole.log, specs[i]));
    });
  });

  it('ends a finite transfer at the end of the step in which its flow finished', () => {
    const spec = matrixRun(MATRIX[0]);
    const run = startScenario(spec, loadTrace);
    while (!run.advance());
    const r = run.result();
    const finished = r.flows[0].finishedAt;
    expect(finished).toBeGreaterThan(0);
    expect(r.endMs).toBe(Math.ceil(finished / 1000) * 1000);
    expect(r.endMs).toBeLessThan(spec.durationMs);
  });
});

describe('a step series thinned for drawing', () => {
  it('keeps the first, lowest, highest and last point of each span, in time order', () => {
    // two spans of 10 ms: [0, 10) holds t = 0..4, [10, 20) holds t = 10..13
    const d = Float64Array.from([0, 5, 1, 7, 2, 3, 3, 6, 4, 6, 10, 1, 11, 1, 12, 9, 13, 4]);
    expect(Array.from(thinSteps(d, 0, 20, 2))).toEqual([0, 5, 1, 7, 2, 3, 4, 6, 10, 1, 12, 9, 13, 4]);
  });

  it('gives back a series of at most four points a span as it is', () => {
    const d = Float64Array.from([0, 1, 1, 2, 2, 3, 3, 4]);
    expect(thinSteps(d, 0, 10, 1)).toBe(d);
  });
});

describe('a dots series thinned for drawing', () => {
  // 2 columns of 10 ms by 2 rows of the values' range (the top value has a row of its own)
  it("keeps the first point of each run in one cell, and the series' last point, with the cell's size", () => {
    // values 0..7, rows of 3.5: (0,0) to (4,3) one cell; (5,5) and (6,6) the row above; (7,7) the top's row;
    // (10,3) the next column; (11,3) to (19,3) the same cell, but (19,3) is the last point
    const d = Float64Array.from([0, 0, 1, 1, 2, 1, 3, 2, 4, 3, 5, 5, 6, 6, 7, 7, 10, 3, 11, 3, 12, 3, 19, 3]);
    const c = coarseDots(d, 0, 20, 2, 2)!;
    expect(Array.from(c.data)).toEqual([0, 0, 5, 5, 7, 7, 10, 3, 19, 3]);
    expect([c.cellMs, c.cellValue]).toEqual([10, 3.5]);
  });

  it("keeps the series' lowest point where another point came first in its cell", () => {
    // values 0..7.5, rows of 3.75: (0,1) then the lowest (1,0) in one cell; (11,4) to (18,4) one cell, (18,4) the last
    const d = Float64Array.from([0, 1, 1, 0, 2, 7, 3, 7.5, 11, 4, 12, 4, 13, 4, 14, 4, 15, 4, 16, 4, 17, 4, 18, 4]);
    expect(Array.from(coarseDots(d, 0, 20, 2, 2)!.data)).toEqual([0, 1, 1, 0, 2, 7, 3, 7.5, 11, 4, 18, 4]);
  });

  it("keeps the series' highest point where rounding puts it in a lower row after another point", () => {
    // 7 rows of 0.03 / 7: 0.03 / (0.03 / 7) is 6.999999999999999, so 0.03 falls in 0.0299's row
    const d = Float64Array.from([0, 0, 1, 0.0299, 2, 0.03, 11, 0.01, 12, 0.01, 13, 0.01, 14, 0.01, 15, 0.01, 16, 0.01, 17, 0.01]);
    expect(Array.from(coarseDots(d, 0, 20, 2, 7)!.data)).toEqual([0, 0, 1, 0.0299, 2, 0.03, 11, 0.01, 17, 0.01]);
  });

  it('gives none for a series of at most a point a column, or one that keeps most of its points', () => {
    expect(coarseDots(Float64Array.from([0, 1, 1, 2]), 0, 10, 2, 2)).toBeNull();
    // every point in another cell than the one before
    expect(coarseDots(Float64Array.from([0, 0, 1, 8, 2, 0, 3, 8]), 0, 10, 2, 2)).toBeNull();
  });
});
