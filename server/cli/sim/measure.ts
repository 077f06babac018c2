import { withDefaults } from '../../../shared/controllers/types.ts';
import { runMeasurement } from '../../../shared/scenarios/measurement.ts';
import { type MeasuredLink, measurementSpec } from '../../../shared/scenarios/measurementLink.ts';
import { fixed } from '../../../shared/text/figures.ts';
import { readSchemaFlags } from '../flags.ts';
import type { Io } from '../tool.ts';
import { MEASUREMENT_FLAGS } from './simFlags.ts';

/** The link the flags set, checked against the measurement lab's ranges; a flag left out is the lab's default. */
export function measuredLink(given: Record<string, unknown>): MeasuredLink {
  const v = withDefaults(MEASUREMENT_FLAGS, readSchemaFlags(MEASUREMENT_FLAGS, given, '--scenario measurement'));
  return { mbps: Number(v.bandwidth), delayMs: Number(v.delay), jitterMs: Number(v.jitter) };
}

/** The measurement scenario: ping-pongs over the link as the page's lab runs them, the fitted line read against the truth. */
export function measure(link: MeasuredLink, seed: number, json: boolean, io: Io): number {
  const m = runMeasurement(measurementSpec(link, seed));
  const truth = { mbps: link.mbps, delayMs: link.delayMs, jitterMs: link.jitterMs };
  if (json) io.out(JSON.stringify({ truth, fit: m.fit, samples: m.samples }));
  else
    io.out(
      `measured ${fixed(m.fit.mbps, 3)} Mbit/s and ${fixed(m.fit.delayMs, 3)} ms one way (truth ${truth.mbps} Mbit/s, ${truth.delayMs} ms; jitter ±${truth.jitterMs} ms) from ${m.samples.length} ping-pongs`,
    );
  return 0;
}
