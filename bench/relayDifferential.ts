import { courseSchedules, offBy, playOverUdp, referenceSpread } from '../tests/fixtures/schedules.ts';
import { relayProcess } from './relayProcess.ts';

/** The request schedules of the course against the relay over UDP and against the reference arithmetic. */
export async function differential(): Promise<Record<string, string>> {
  const relay = await relayProcess([]);
  const figures: Record<string, string> = {};
  try {
    for (const s of courseSchedules(4000, 8000)) {
      const run = await playOverUdp(s.variable ? relay.variable : relay.constant, s);
      const ref = referenceSpread(s, run.sentAt);
      const pctOff = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)}%` : 'n/a');
      figures[`course schedule: ${s.name}`] =
        `relay ${run.replies} replies / penalty ${run.penalty}; reference median ${ref.replies.median} (${ref.replies.min}–${ref.replies.max}) / ` +
        `${ref.penalty.median} (${ref.penalty.min}–${ref.penalty.max}); off ${pctOff(offBy(run.replies, ref.replies))} / ${pctOff(offBy(run.penalty, ref.penalty))}`;
    }
  } finally {
    relay.stop();
  }
  return figures;
}
