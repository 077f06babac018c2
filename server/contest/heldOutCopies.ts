import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Served traces that contain a held-out one. A trace cut from a longer one (TMobile-LTE-short.down is a
 * slice of TMobile-LTE-driving.down) has the longer one's gaps between delivery opportunities, in order,
 * wherever it starts: served, the longer one would hand students the held-out link. Only gaps are
 * compared, so a slice is found whatever its first timestamp; a half is enough, so one that runs past the
 * longer trace's end is found too.
 */

/** The gaps between a Mahimahi trace's opportunities, ms. */
function gapsOf(text: string): number[] {
  const times = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map(Number);
  return times.slice(1).map((t, i) => t - times[i]);
}

/** Gaps as ",g1,g2,…,": a run of them is found by a text search, fast on megabytes. */
const joined = (gaps: readonly number[]) => `,${gaps.join(',')},`;

/** The fewest gaps a half must have to be looked for: a short run of gaps could appear anywhere by chance. */
const MIN_GAPS = 100;

/** Whether `served` holds `heldOut`, or its first or second half, as a run of the same gaps. */
export function containsTrace(served: string, heldOut: string): boolean {
  const outer = joined(gapsOf(served));
  const inner = gapsOf(heldOut);
  const half = Math.floor(inner.length / 2);
  const runs = inner.length >= 2 * MIN_GAPS ? [inner, inner.slice(0, half), inner.slice(half)] : [inner];
  return runs.some((run) => run.length > 0 && outer.includes(joined(run)));
}

const direction = (name: string) => /\.(down|up)$/.exec(name)?.[1] ?? null;

/** Found once per process: a relay's contest starts once, a test's many relays share the answer. */
const found = new Map<string, { file: string; contains: string }[]>();

/**
 * The trace files in `folder` (not themselves held out) that contain a held-out file, with the one each
 * contains. `heldOut`: the held-out files' names (in `folder`) and texts (a trace given by path has a name
 * of no direction: it is looked for in every file).
 */
export function filesContaining(folder: string, heldOut: { name: string; text: string }[]): { file: string; contains: string }[] {
  const key = JSON.stringify([folder, heldOut.map((h) => [h.name, h.text.length])]);
  const known = found.get(key);
  if (known) return known;
  const names = new Set(heldOut.map((h) => h.name));
  const served = readdirSync(folder).filter((f) => direction(f) !== null && !names.has(f));
  const copies = served.flatMap((file) => {
    // a downlink is cut from a downlink, an uplink from an uplink
    const candidates = heldOut.filter((h) => direction(h.name) === null || direction(h.name) === direction(file));
    if (candidates.length === 0) return [];
    const text = readFileSync(join(folder, file), 'utf8');
    const contained = candidates.find((h) => containsTrace(text, h.text));
    return contained ? [{ file, contains: contained.name }] : [];
  });
  found.set(key, copies);
  return copies;
}
