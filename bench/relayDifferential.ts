import { arrivalsSeen, courseSchedules, offBy, playOnModel, playOverUdp, referenceSpread, type Spread } from '../tests/fixtures/schedules.ts';
import { relayProcess } from './relayProcess.ts';

const pctOff = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)}%` : 'n/a');
const versus = (value: number, ref: Spread) => `${value} vs ${ref.median} (${ref.min}–${ref.max}, ${pctOff(offBy(value, ref))})`;

/**
 * The request schedules of the course against the relay over UDP and against the reference arithmetic,
 * given the whole milliseconds the relay read (its session records) and 41 loss seeds: relay vs the
 * reference's median (its range over seeds, and the relay's difference from the median); and whether the
 * reference given the relay's own loss outcomes comes out identical.
 */
export async function differential(): Promise<Record<string, string>> {
  const relay = await relayProcess(['--record-events', '200000']);
  const figures: Record<string, string> = {};
  try {
    for (const s of courseSchedules(4000, 8000)) {
      const run = await playOverUdp(s.variable ? relay.variable : relay.constant, s);
      const seen = await arrivalsSeen(relay, run.localPort);
      const ref = referenceSpread(s, seen.times);
      const replayed = playOnModel(s, seen.times, 0, seen.losses);
      const same = replayed.replies === seen.replies && replayed.penalty === run.penalty && replayed.squishes === seen.squishes;
      figures[`course schedule: ${s.name}`] =
        `replies ${versus(run.replies, ref.replies)}; penalty ${versus(run.penalty, ref.penalty)}; squishes ${versus(seen.squishes, ref.squishes)}; ` +
        `with the relay's losses replayed: ${same ? 'identical' : `differs (${JSON.stringify(replayed)})`}`;
    }
  } finally {
    relay.stop();
  }
  return figures;
}
