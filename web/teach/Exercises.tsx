import { useEffect, useRef } from 'react';
import { HELD_OUT_TRACE } from '../../shared/contest/api.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import { useRelay } from '../app/useRelay.ts';
import type { Experiment } from '../state/experiment.ts';
import { EXERCISES, type Exercise, nextExercise, type Verdict } from './exercises.ts';
import { type HeldOutRuns, useHeldOut } from './useHeldOut.ts';

interface SideRun {
  slot: 'a' | 'b';
  side: string;
  summary: Summary | undefined;
}

/** A verdict's mark: a run the goal does not score (another scenario, the page's own example) is neither passed nor failed. */
const mark = (v: Verdict) => (v.off ? '–' : v.met ? '✓' : '✗');

/** What the two traces' verdicts say together, where one line alone would not. */
function bothSaid(tuned: boolean, heldOut: boolean): string {
  if (tuned && heldOut) return ' · the goal holds on both';
  if (tuned) return ' · met on the tuned trace only';
  return heldOut ? ' · still to meet on the tuned trace' : '';
}

/**
 * Why a side has no run on the held-out trace: a failure, or the class contest holding the trace out (it
 * scores submissions there; this page cannot): then no goal was scored, neither met nor missed.
 */
function notRun(error: string | undefined): Verdict {
  if (error?.includes(HELD_OUT_TRACE)) return { met: false, off: true, why: 'the class contest on this relay holds this trace out: it scores your submissions there, the page cannot' };
  return { met: false, why: error ?? 'no run' };
}

/** One side's verdict on the trace being tuned, and beside it on the held-out trace with whether the goal holds on both. */
function SideCheck({ x, e, run, heldOut }: { x: Exercise; e: Experiment; run: SideRun & { summary: Summary }; heldOut: HeldOutRuns | null }) {
  const tuned = x.check!(e, run.summary, run.slot);
  const held = x.heldOut;
  const other: Verdict | null | undefined = held && heldOut && (heldOut.summaries[run.slot] ? held.score(heldOut.summaries[run.slot]!) : notRun(heldOut.errors[run.slot]));
  return (
    <>
      <p className={tuned.off ? 'off' : tuned.met ? 'met' : 'unmet'} data-check={run.side}>
        {mark(tuned)} {run.side}: {tuned.why}
      </p>
      {held && !tuned.off && (
        <p className={`${other?.off ? 'off' : other?.met ? 'met' : 'unmet'} held-out`} data-held-out={run.side}>
          {other ? `${mark(other)} held out, ${held.title}: ${other.why}${other.off ? '' : bothSaid(tuned.met, other.met)}` : `scoring on ${held.title}…`}
        </p>
      )}
    </>
  );
}

/** The course's exercises as goals: the chosen one is checked on each side's run as the runs change. */
export function Exercises({ e, runs, choose }: { e: Experiment; runs: SideRun[]; choose(id: string): void }) {
  const id = e.exercise || null;
  const x = EXERCISES.find((ex) => ex.id === id);
  // An exercise chosen, here or by the link, shows itself; closing the menu is left to the student.
  const box = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (id && box.current) box.current.open = true;
  }, [id]);
  const relay = useRelay();
  const heldOut = useHeldOut(x, e, relay);
  const shown = x?.check ? runs.filter((r): r is SideRun & { summary: Summary } => Boolean(r.summary)) : [];
  const met = shown.some((r) => x!.check!(e, r.summary, r.slot).met);
  return (
    // Beside the contest's plane the panel opens rightwards; in the offset view its button ends the row, and it opens leftwards.
    <details className={e.scenario === 'contest' ? 'menu exercises' : 'menu exercises leftwards'} data-exercise={id ?? ''} ref={box}>
      <summary>{x ? `Exercise: ${x.title}${met ? ' ✓' : ''}` : 'Exercises'}</summary>
      <div>
        <label>
          exercise
          <select value={id ?? ''} onChange={(ev) => choose(ev.target.value)} data-param="exercise">
            <option value="">choose one…</option>
            {EXERCISES.map((ex) => (
              <option key={ex.id} value={ex.id}>
                {ex.title}
              </option>
            ))}
          </select>
        </label>
        {x && <p>{x.goal}</p>}
        {x?.href && <a href={x.href}>Open it</a>}
        {shown.map((r) => (
          <SideCheck key={r.side} x={x!} e={e} run={r} heldOut={heldOut} />
        ))}
        {x && (met || !x.check) && (
          <button type="button" onClick={() => choose(nextExercise(x.id).id)}>
            Next challenge: {nextExercise(x.id).title}
          </button>
        )}
      </div>
    </details>
  );
}
