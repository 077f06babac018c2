import { describe, expect, it } from 'vitest';
import { K } from '../../shared/log/kinds.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { parseTrace } from '../../shared/trace/mahimahi.ts';

const firstAck = (ackTrace: string, ackMbps = 0) => {
  const spec = contest('Verizon-LTE-short', [flow('fixed', { w: 1 })]);
  spec.link = { ...spec.link, trace: 'down', ackTrace, ackMbps, once: false };
  spec.durationMs = 200;
  const traces: Record<string, string> = { down: '1', up: '5\n30' };
  const run = runScenario(spec, (name) => parseTrace(traces[name]));
  const c = run.log.columns;
  for (let i = 0; i < run.log.length; i++) if (c.kind[i] === K.ack) return c.t[i];
  return -1;
};

describe('the path as mm-delay 20 mm-link sets it up', () => {
  it('ACKs cross the delay first, then the uplink bottleneck', () => {
    // sent at 0, leaves the downlink at 1, delivered at 21; its ACK is out of the delay at 41 and takes
    // the uplink's next opportunity after that (5, 30, 35, 60 …): 60. Bottleneck first would give 30 + 20.
    expect(firstAck('up')).toBe(60);
  });

  it('a downlink with no uplink of its own sends its ACKs over a constant-rate link', () => {
    // 80 bytes at 12 Mbit/s: 80/1500 ms after the delay
    expect(firstAck('', 12)).toBeCloseTo(41 + 80 / 1500, 9);
  });
});
