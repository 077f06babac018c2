import { describe, expect, it } from 'vitest';
import { SHARED_PRESETS } from '../../../shared/scenarios/presets.ts';
import { completion, flowLayers } from '../../../web/labs/sharedLab/parts.tsx';
import { linkMbps, rateUnit } from '../../../web/labs/sharedLab/rateUnit.ts';
import type { RunView } from '../../../web/worker/protocol.ts';

/** A two-flow run on a constant-rate link, with only what the lab's charts read. */
function run(mbps: number): RunView {
  const flows = {
    t: Float64Array.from([0, 1000]),
    perFlow: [Float64Array.from([0.03125, 0.0125]), Float64Array.from([0, 0.04])],
    jain: Float64Array.from([1, 0.9]),
    windows: [Float64Array.from([0, 2]), Float64Array.from([0, 3])],
  };
  const spec = { link: { kind: 'rate', mbps }, flows: [{ startMs: 0 }, { startMs: 400 }] };
  return { spec, flows } as unknown as RunView;
}

describe('the shared-bottleneck lab', () => {
  it('reads each preset’s flows in the unit its link’s rate reads best in', () => {
    expect(SHARED_PRESETS.map((p) => [p.id, rateUnit(p.mbps)])).toEqual([
      ['90s', { label: 'kbit/s', perMbps: 1000 }],
      ['cdn', { label: 'Mbit/s', perMbps: 1 }],
      ['cross-country', { label: 'Gbit/s', perMbps: 0.001 }],
      ['datacenter', { label: 'Gbit/s', perMbps: 0.001 }],
      ['moon', { label: 'Mbit/s', perMbps: 1 }],
    ]);
    expect(rateUnit(Number.NaN)).toEqual({ label: 'Mbit/s', perMbps: 1 });
  });

  it('draws a 56.6 kbit/s link’s flows in kbit/s, from the link the run crossed', () => {
    const view = run(0.0566);
    expect(linkMbps(view)).toBe(0.0566);
    const layers = flowLayers(view, rateUnit(linkMbps(view)).perMbps)!;
    expect(layers.tput.map((l) => [...l.data])).toEqual([
      [0, 31.25, 1000, 12.5],
      [0, 0, 1000, 40],
    ]);
    expect([...layers.windows[1].data]).toEqual([0, 3]);
    expect(linkMbps({ ...view, spec: null })).toBeNaN();
  });

  it('says how long a flow took to complete, and when it finished on the run’s clock', () => {
    // User to CDN's second flow starts at 60 ms and completes in 1.438 s: its line ends at 1.498 s
    expect(completion(1.438, 60)).toEqual({ text: '1.438 s', title: 'started at 0.060 s, finished at 1.498 s' });
    expect(completion(54.5, 36_000)).toEqual({ text: '54.500 s', title: 'started at 36.000 s, finished at 90.500 s' });
    expect(completion(Number.NaN, 0)).toEqual({ text: 'not by the end' });
    expect(completion(undefined, 0)).toEqual({ text: 'not by the end' });
  });
});
