import { describe, expect, it } from 'vitest';
import { settingsLine } from '../../../web/export/settings.ts';
import { DEFAULT_EXPERIMENT } from '../../../web/state/experiment.ts';

describe('the settings line under an exported figure', () => {
  it('names both schemes with every parameter, the trace, the delay and the seed', () => {
    const e = { ...DEFAULT_EXPERIMENT, a: { scheme: 'fixed', params: { w: 12 } }, b: { scheme: 'aimd', params: { b: 0.7 } }, seed: 42 };
    expect(settingsLine(e, { delay: 20 })).toBe(
      'A: Fixed window (w 12 packets) · B: AIMD (a 1 packets, increase a/w, decrease multiplicative, b 0.7, timeout 1000 ms, loss timer-only) · ' +
        'trace Verizon LTE (140 s, the contest trace) · delay 20 ms each way · seed 42',
    );
  });

  it('says "auto" for the BDP estimator’s timeout of 0, which it works out itself, and the milliseconds of any other', () => {
    expect(settingsLine(DEFAULT_EXPERIMENT, { delay: 20 })).toBe(
      'A: AIMD (a 1 packets, increase a/w, decrease multiplicative, b 0.5, timeout 1000 ms, loss timer-only) · ' +
        'B: BDP estimator (interval 25 ms, samples 5 intervals, gain 1.75 ×, initial 10 packets, minWindow 4 packets, timeout auto) · ' +
        'trace Verizon LTE (140 s, the contest trace) · delay 20 ms each way · seed 1',
    );
    const set = (timeout: number) => ({ ...DEFAULT_EXPERIMENT, b: { scheme: 'bdp', params: { timeout } } });
    expect(settingsLine(set(0), { delay: 20 })).toContain('minWindow 4 packets, timeout auto) · ');
    expect(settingsLine(set(50), { delay: 20 })).toContain('minWindow 4 packets, timeout 50 ms) · ');
  });

  it('says what else the link changes, and the offset server when that is the scenario', () => {
    const e = { ...DEFAULT_EXPERIMENT, trace: 'rate', link: { bandwidth: 6, loss: 1 } };
    expect(settingsLine(e, { delay: 50 })).toMatch(/ · trace constant rate · delay 50 ms each way · link bandwidth 6 Mbit\/s, loss 1% · seed 1$/);
    const offset = { ...DEFAULT_EXPERIMENT, scenario: 'offset' as const, variable: true, a: { scheme: 'token-pacer', params: {} }, b: { scheme: 'burst-aimd', params: {} } };
    expect(settingsLine(offset, { delay: 20 })).toMatch(/^A: Token pacer \(.*\) · B: Burst AIMD \(.*\) · offset server \(variable rate\) · seed 1$/);
  });
});
