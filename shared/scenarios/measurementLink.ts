import { num } from '../controllers/types.ts';
import { DEFAULT_MEASUREMENT, type MeasurementSpec } from './measurement.ts';

/**
 * The settings of the link a measurement runs on, shared by the measurement lab (its sliders and address
 * fields, hence `bw`) and `npm run sim -- --scenario measurement` (its flags), so both take the same links.
 */
export const MEASUREMENT_BANDWIDTH = num('bw', 'Mbit/s', 0.1, 100, 0.1, DEFAULT_MEASUREMENT.mbps, 'Bandwidth of the link, each way');
export const MEASUREMENT_DELAY = num('delay', 'ms', 0, 200, 1, DEFAULT_MEASUREMENT.delayMs, 'Delay each way, whatever the message’s size');
export const MEASUREMENT_JITTER = num('jitter', 'ms', 0, 10, 0.1, DEFAULT_MEASUREMENT.jitterMs, 'Uniform ± noise on each way’s delay');

/** What the lab and the command line set: the hidden truth and the noise over it. */
export interface MeasuredLink {
  mbps: number;
  delayMs: number;
  jitterMs: number;
}

/**
 * The measurement of a link: every other setting (the sizes, the repeats) is the default's, so the page and
 * the command line fit the same samples for the same link and seed (the page's is the default's).
 */
export function measurementSpec(link: MeasuredLink, seed = DEFAULT_MEASUREMENT.seed): MeasurementSpec {
  return { ...DEFAULT_MEASUREMENT, mbps: link.mbps, delayMs: link.delayMs, jitterMs: link.jitterMs, seed };
}
