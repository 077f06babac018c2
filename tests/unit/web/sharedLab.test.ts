import { describe, expect, it } from 'vitest';
import { SHARED_PRESETS } from '../../../shared/scenarios/presets.ts';
import { completion, flowLayers } from '../../../web/labs/sharedLab/parts.tsx';
import { bitrate, rateUnit } from '../../../web/charts/format.ts';
import { flowsUnit, linkMbps } from '../../../web/labs/sharedLab/rateUnit.ts';
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

/** A run on a constant-rate link of `mbps` whose flows got `flowMbps` each. */
const withFlows = (mbps: number, flowMbps: number[]) =>
  ({ spec: { link: { kind: 'rate', mbps } }, summary: { flows: flowMbps.map((throughputMbps) => ({ link: { throughputMbps } })) } }) as unknown as RunView;

describe('the shared-bottleneck lab', () => {
  it('reads rates in the unit that reads best: kbit/s below 1 Mbit/s, Gbit/s from 1000', () => {
    expect([0.0566, 0.999, 1, 999, 1000, 10_000, Number.NaN].map((v) => rateUnit(v).label)).toEqual(['kbit/s', 'kbit/s', 'Mbit/s', 'Mbit/s', 'Gbit/s', 'Gbit/s', 'Mbit/s']);
    expect(SHARED_PRESETS.map((p) => bitrate(p.mbps))).toEqual(['56.6 kbit/s', '100 Mbit/s', '1 Gbit/s', '10 Gbit/s', '1 Mbit/s']);
  });

  it('reads a run’s flows in the unit of its fastest flow, not of the link', () => {
    // 13 Mbit/s flows across a 1 Gbit/s link read in Mbit/s; 30–70 kbit/s flows on the Moon's 1 Mbit/s in kbit/s
    expect(flowsUnit(withFlows(1000, [6.9, 12.9])).label).toBe('Mbit/s');
    expect(flowsUnit(withFlows(1, [0.0326, 0.0724])).label).toBe('kbit/s');
    expect(flowsUnit(withFlows(10_000, [970, 1750])).label).toBe('Gbit/s');
    // before any flow delivered, the link's rate decides
    expect(flowsUnit(withFlows(0.0566, [0, Number.NaN])).label).toBe('kbit/s');
  });

  it('draws a 56.6 kbit/s link’s flows in kbit/s', () => {
    const view = run(0.0566);
    expect(linkMbps(view)).toBe(0.0566);
    const layers = flowLayers(view, 1000)!;
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
