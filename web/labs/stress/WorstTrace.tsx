import { scaleLinear } from 'd3-scale';
import { fixed } from '../../charts/format.ts';
import type { Scored } from '../../../shared/stress/search.ts';
import { gapOf } from '../../../shared/stress/search.ts';
import type { Segment } from '../../../shared/stress/segments.ts';

const W = 640;
const H = 90;
const PAD = { left: 40, right: 8, top: 6, bottom: 18 };

/** The segments as a step line of rate over time, outages shaded: the story of the trace at a glance. */
export function SegmentStrip({ segments }: { segments: readonly Segment[] }) {
  const total = segments.reduce((t, s) => t + s.ms, 0);
  const top = Math.max(1, ...segments.map((s) => s.mbps));
  const x = scaleLinear([0, total], [PAD.left, W - PAD.right]);
  const y = scaleLinear([0, top], [H - PAD.bottom, PAD.top]);
  let t = 0;
  const steps = segments.map((s) => {
    const step = { x0: x(t), x1: x(t + s.ms), y: y(s.mbps), outage: s.mbps === 0 };
    t += s.ms;
    return step;
  });
  const path = steps.map((s, i) => `${i === 0 ? 'M' : 'L'}${s.x0},${s.y}H${s.x1}`).join('');
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="segment-strip" role="img" aria-label={`The trace's rate over ${fixed(total / 1000, 1)} s, up to ${top} Mbit/s`}>
      {steps
        .filter((s) => s.outage)
        .map((s) => (
          <rect key={s.x0} x={s.x0} width={s.x1 - s.x0} y={PAD.top} height={H - PAD.top - PAD.bottom} className="outage" />
        ))}
      <path d={path} className="rate" />
      <text x={PAD.left - 4} y={y(top) + 4} textAnchor="end">
        {top}
      </text>
      <text x={PAD.left + 4} y={PAD.top + 10}>
        Mbit/s
      </text>
      <text x={PAD.left - 4} y={H - PAD.bottom} textAnchor="end">
        0
      </text>
      <text x={W - PAD.right} y={H - 4} textAnchor="end">
        {fixed(total / 1000, 1)} s
      </text>
    </svg>
  );
}

/** The worst trace's figures: the controller's score, the omniscient sender's, the gap, and the contest trace's score beside them. */
export function WorstFigures({ worst, contestScore }: { worst: Scored; contestScore: number | null }) {
  return (
    <dl className="stress-figures" data-testid="stress-figures">
      <div>
        <dt>score on it</dt>
        <dd>{fixed(worst.score, 3)}</dd>
      </div>
      <div>
        <dt>omniscient score</dt>
        <dd>{fixed(worst.omniscientScore, 3)}</dd>
      </div>
      <div>
        <dt>gap</dt>
        <dd data-testid="stress-gap">{fixed(gapOf(worst), 3)}</dd>
      </div>
      {contestScore !== null && (
        <div>
          <dt>score on the contest trace</dt>
          <dd>{fixed(contestScore, 3)}</dd>
        </div>
      )}
    </dl>
  );
}
