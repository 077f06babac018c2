import { useState } from 'react';
import type { Summary } from '../../shared/metrics/summary.ts';
import type { Experiment } from '../state/experiment.ts';
import { EXERCISES, nextExercise } from './exercises.ts';

/** The course's exercises as goals: the chosen one is checked on each side's run as the runs change. */
export function Exercises({ e, summaries }: { e: Experiment; summaries: { side: string; summary: Summary | undefined }[] }) {
  const [id, setId] = useState<string | null>(null);
  const x = EXERCISES.find((ex) => ex.id === id);
  const results = x?.check ? summaries.filter((s) => s.summary).map((s) => ({ side: s.side, ...x.check!(e, s.summary!) })) : [];
  const met = results.some((r) => r.met);
  return (
    <details className="menu exercises" data-exercise={id ?? ''}>
      <summary>{x ? `Exercise: ${x.title}${met ? ' ✓' : ''}` : 'Exercises'}</summary>
      <div>
        <label>
          exercise
          <select value={id ?? ''} onChange={(ev) => setId(ev.target.value || null)} data-param="exercise">
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
        {results.map((r) => (
          <p key={r.side} className={r.met ? 'met' : 'unmet'} data-check={r.side}>
            {r.met ? '✓' : '✗'} {r.side}: {r.why}
          </p>
        ))}
        {met && x && (
          <button type="button" onClick={() => setId(nextExercise(x.id).id)}>
            Next challenge: {nextExercise(x.id).title}
          </button>
        )}
      </div>
    </details>
  );
}
