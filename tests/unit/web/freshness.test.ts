import { describe, expect, it } from 'vitest';
import { sideLabel, staleReason, viewsFor } from '../../../web/app/freshness.ts';
import { DEFAULT_EXPERIMENT, type Experiment } from '../../../web/state/experiment.ts';
import { specFor } from '../../../web/state/spec.ts';
import type { RunView } from '../../../web/worker/protocol.ts';

/** A run as the worker reports it; only its origin and settings matter here. */
const run = (source: RunView['source'], spec: RunView['spec']): RunView => ({ spec, source, summary: null as never, series: null as never, live: null, wallMs: 1, flows: null });
const offset: Experiment = { ...DEFAULT_EXPERIMENT, scenario: 'offset', a: { scheme: 'token-pacer', params: {} }, b: { scheme: 'burst-aimd', params: {} } };
const liveRun = (scheme: string) => run('live', { live: { server: '127.0.0.1:1', scheme, params: {}, via: 'bridge' } });

describe('which runs the page shows, and whether they are current', () => {
  it('labels a side with the scheme of the run it shows, an imported one included', () => {
    const imported = run('imported', specFor({ ...DEFAULT_EXPERIMENT, a: { scheme: 'fixed', params: {} } }, 'a'));
    expect(sideLabel('B', imported, 'bdp')).toBe('B · Fixed window');
    expect(sideLabel('B', undefined, 'bdp')).toBe('B · BDP estimator');
    expect(staleReason(imported, DEFAULT_EXPERIMENT, 'b', false, null)).toBeNull();
  });

  it('a simulated run of the current settings is current; one of another scheme is not, unless its successor runs', () => {
    const aimd = run('simulated', specFor(DEFAULT_EXPERIMENT, 'a'));
    expect(staleReason(aimd, DEFAULT_EXPERIMENT, 'a', false, null)).toBeNull();
    const copa = { ...DEFAULT_EXPERIMENT, a: { scheme: 'copa', params: {} } };
    expect(staleReason(aimd, copa, 'a', false, null)).toBe('a run of AIMD, not of Copa');
    expect(staleReason(aimd, copa, 'a', true, null)).toBeNull();
  });

  it('a run on another trace than the settings’ (the new one could not be loaded) is not current', () => {
    const verizon = run('simulated', specFor(DEFAULT_EXPERIMENT, 'a'));
    expect(staleReason(verizon, { ...DEFAULT_EXPERIMENT, trace: 'TMobile-LTE-short' }, 'a', false, null)).toBe('a run on Verizon-LTE-short, not on TMobile-LTE-short');
    expect(staleReason(verizon, { ...DEFAULT_EXPERIMENT, trace: 'rate' }, 'a', false, null)).toBe('a run on Verizon-LTE-short, not on a constant 12 Mbit/s link');
    expect(staleReason(verizon, { ...DEFAULT_EXPERIMENT, link: { delay: 50 } }, 'a', false, null)).toBeNull();
  });

  it('a failed upload makes every run on the screen the previous one', () => {
    const aimd = run('simulated', specFor(DEFAULT_EXPERIMENT, 'a'));
    expect(staleReason(aimd, DEFAULT_EXPERIMENT, 'a', false, 'big.down')).toBe('the upload of big.down failed; this is the run on the trace before it');
  });

  it('a side whose latest run failed shows the run before it as such, until its next run is under way', () => {
    const aimd = run('simulated', specFor(DEFAULT_EXPERIMENT, 'a'));
    expect(staleReason(aimd, DEFAULT_EXPERIMENT, 'a', false, null, true)).toBe('the latest run failed (its error is below); this is the run before it');
    expect(staleReason(aimd, DEFAULT_EXPERIMENT, 'a', true, null, true)).toBeNull();
    expect(staleReason(aimd, DEFAULT_EXPERIMENT, 'a', false, 'big.down', true)).toBe('the upload of big.down failed; this is the run on the trace before it');
  });

  it('a live run is current only while A is live with its scheme', () => {
    const live = liveRun('token-pacer');
    expect(staleReason(live, { ...offset, live: true }, 'a', false, null)).toBeNull();
    // a fetch that failed (the relay gone) shows what it fetched: its own run, stopped
    expect(staleReason(live, { ...offset, live: true }, 'a', false, null, true)).toBeNull();
    expect(staleReason(live, { ...offset, live: true, a: { scheme: 'burst-aimd', params: {} } }, 'a', false, null)).toBe('a live run of Token pacer, not of Burst AIMD');
    expect(staleReason(live, offset, 'a', false, null)).toBe('a live run; the side is simulated now');
    expect(staleReason(run('simulated', specFor(offset, 'a')), { ...offset, live: true }, 'a', false, null)).toBe('a simulated run; live mode has not fetched yet');
  });

  it('never shows a run of the other scenario; imported runs always', () => {
    const contestRun = run('simulated', specFor(DEFAULT_EXPERIMENT, 'b'));
    const live = liveRun('token-pacer');
    expect(viewsFor({ a: live, b: contestRun }, DEFAULT_EXPERIMENT)).toEqual({ a: undefined, b: contestRun });
    expect(viewsFor({ a: live, b: contestRun }, offset)).toEqual({ a: live, b: undefined });
    const imported = run('imported', specFor(offset, 'b'));
    expect(viewsFor({ b: imported }, DEFAULT_EXPERIMENT)).toEqual({ a: undefined, b: imported });
  });
});
