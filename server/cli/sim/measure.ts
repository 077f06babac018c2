import { DEFAULT_MEASUREMENT, runMeasurement } from '../../../shared/scenarios/measurement.ts';
import type { Io } from '../tool.ts';
import { fixed } from '../../../shared/text/figures.ts';

/** The measurement scenario: ping-pongs over the default link, the fitted line read against the truth. */
export function measure(seed: number, json: boolean, io: Io): number {
  const m = runMeasurement({ ...DEFAULT_MEASUREMENT, seed });
  const truth = { mbps: DEFAULT_MEASUREMENT.mbps, delayMs: DEFAULT_MEASUREMENT.delayMs };
  if (json) io.out(JSON.stringify({ truth, fit: m.fit, samples: m.samples }));
  else io.out(`measured ${fixed(m.fit.mbps, 3)} Mbit/s and ${fixed(m.fit.delayMs, 3)} ms one way (truth ${truth.mbps} Mbit/s, ${truth.delayMs} ms) from ${m.samples.length} ping-pongs`);
  return 0;
}
