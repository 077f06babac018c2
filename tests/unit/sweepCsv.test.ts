import { describe, expect, it } from 'vitest';
import { formatSweepCsv } from '../../shared/csv/sweep.ts';
import type { SweepPoint } from '../../shared/scenarios/sweep.ts';

describe('the sweep’s CSV', () => {
  it('writes one row per run with its figures and whether it is on the frontier; a scoreboard run has no value, a choice’s run its name', () => {
    const points: SweepPoint[] = [
      { scheme: 'fixed', param: 'w', value: 2, throughputMbps: 1.5, delay95: 100, power: 15, score: -4.2 },
      { scheme: 'aimd', param: '', value: Number.NaN, throughputMbps: 2, delay95: 300, power: 6.5, score: -5 },
      { scheme: 'aimd', param: 'decrease', value: 1, choice: 'sqrt', throughputMbps: 2, delay95: 200, power: 10, score: -4.6 },
    ];
    expect(formatSweepCsv('Verizon-LTE-short', points, (p) => p.scheme === 'fixed')).toBe(
      'trace,scheme,param,value,throughput_mbps,delay95_ms,power,score,frontier\n' +
        'Verizon-LTE-short,fixed,w,2,1.5,100,15,-4.2,true\n' +
        'Verizon-LTE-short,aimd,,,2,300,6.5,-5,false\n' +
        'Verizon-LTE-short,aimd,decrease,sqrt,2,200,10,-4.6,false\n',
    );
  });
});
