import { MEASUREMENT_BANDWIDTH as BANDWIDTH, MEASUREMENT_DELAY as DELAY } from '../../../shared/scenarios/measurementLink.ts';
import { SECRET_CODES } from '../../state/labs.ts';
import type { StateValues } from '../../state/codec.ts';

/** What the student estimates. */
export interface LinkTruth {
  mbps: number;
  delayMs: number;
}

/**
 * A sealed bandwidth is kept to the kbit/s, a hundred times finer than its slider's step, so a value typed
 * in its box survives being hidden; a delay is a whole number of ms (its box refuses fractions).
 */
const KBIT = 0.001;
const DELAYS = DELAY.max - DELAY.min + 1;
const LINKS = (Math.round((BANDWIDTH.max - BANDWIDTH.min) / KBIT) + 1) * DELAYS;
/**
 * An odd multiplier, its inverse modulo SECRET_CODES, and an offset: neighbouring links get unrelated codes
 * (a student cannot read one link's truth off another's), every code opens back, and no link's code is 0.
 */
const SPREAD = 20_737_779;
const UNSPREAD = 32_201_275;
const OFFSET = 13_898_700;

/** The code that stands for a link in the URL while its truth is hidden. */
export function sealLink(truth: LinkTruth): number {
  const index = Math.round((truth.mbps - BANDWIDTH.min) / KBIT) * DELAYS + Math.round(truth.delayMs - DELAY.min);
  return (index * SPREAD + OFFSET) % SECRET_CODES;
}

/** The link a code stands for, or null for a code no link seals to. */
export function openLink(code: number): LinkTruth | null {
  const index = ((((code - OFFSET) % SECRET_CODES) + SECRET_CODES) * UNSPREAD) % SECRET_CODES;
  if (index >= LINKS) return null;
  const mbps = Number((BANDWIDTH.min + Math.floor(index / DELAYS) * KBIT).toPrecision(10));
  return { mbps, delayMs: DELAY.min + (index % DELAYS) };
}

/**
 * An unknown link to measure: the bandwidth log-uniform from 0.5 to 50 Mbit/s (to 0.1), the delay 1 to 100 ms.
 * Wide enough that guessing is no help, within the sliders' reach, and clear of the smallest values, where
 * the jitter hides them.
 */
export function drawLink(random: () => number): LinkTruth {
  return { mbps: Math.round(5 * 100 ** random()) / 10, delayMs: 1 + Math.floor(100 * random()) };
}

/**
 * The link a page opens on, and what was wrong with its URL. With the truth hidden it is the secret's; a
 * hand-written link may give bw and delay instead; with neither, a new unknown link is drawn, so the
 * exercise's link (`?view=measurement&hide=1`) never opens on a link the student has already seen.
 */
export function openingLink(values: StateValues, query: URLSearchParams, random: () => number): { truth: LinkTruth; error: string | null } {
  const given = { mbps: values.bw as number, delayMs: values.delay as number };
  if (values.hide !== '1') return { truth: given, error: null };
  const secret = values.secret as number;
  const opened = secret ? openLink(secret) : null;
  if (opened) return { truth: opened, error: null };
  if (secret) return { truth: drawLink(random), error: `secret must be the code of a hidden link (got "${secret}"); a hidden link’s default is a new unknown one` };
  return { truth: query.has(BANDWIDTH.name) || query.has(DELAY.name) ? given : drawLink(random), error: null };
}
