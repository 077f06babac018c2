import { describe, expect, it } from 'vitest';
import { contestOn, contestTraceOf } from '../../shared/scenarios/contestOn.ts';
import { flow } from '../../shared/scenarios/presets.ts';

const on = (trace: string) => contestOn(trace, [flow('aimd')], 1, () => 5000);

describe('the trace a contest run was asked on', () => {
  it('is a bundled trace’s name, though the run reads its .down file', () => {
    expect(on('TMobile-LTE-short').link).toMatchObject({ trace: 'TMobile-LTE-short.down' });
    expect(contestTraceOf(on('TMobile-LTE-short'))).toBe('TMobile-LTE-short');
  });

  it('is any other trace as it came: a path, an upload, segments', () => {
    for (const trace of ['/tmp/my.down', 'upload:mine.trace', 'segments:1000@2,500@0', 'Verizon-LTE-short.down']) expect(contestTraceOf(on(trace))).toBe(trace);
  });
});
