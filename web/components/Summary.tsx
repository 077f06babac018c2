import { useId } from 'react';
import type { Summary as RunSummary } from '../../shared/metrics/summary.ts';
import { fixed, significant } from '../charts/format.ts';

export interface Card {
  label: string;
  value: string;
  unit: string;
  title: string;
  /** Stable name for the card when its label says more. */
  key?: string;
}

type OffsetFigures = NonNullable<RunSummary['flows'][number]['offset']>;

/** The offset exercise's cards: a run's figures, or (null) their places, each a dash, before its run is in. */
function offsetCards(o: OffsetFigures | null): Card[] {
  const value = (v: number | undefined, text: (v: number) => string = String) => (v !== undefined && Number.isFinite(v) ? text(v) : '—');
  return [
    { label: 'Time', value: value(o?.timeMs, (t) => String(Math.round(t))), unit: 'ms', title: 'The server’s Time: Submit arrival minus session start' },
    { label: 'Penalty', value: value(o?.penalty), unit: '', title: 'Requests that found no token' },
    { label: 'Squishes', value: value(o?.squishes), unit: '', title: 'Times the server squished the client' },
    { label: 'Result', value: o ? (o.result === null ? '…' : String(o.result)) : '—', unit: '', title: 'The server’s Result: whether the MD5 of the fetched file matched' },
    { label: 'Requests', value: value(o?.requests), unit: '', title: 'Data requests sent' },
    {
      label: 'Bound',
      value: value(o?.boundMs, (b) => fixed(b, 0)),
      unit: 'ms',
      title: 'the time a perfectly paced client needs: chunks at the token rate (along its schedule on the variable server)',
    },
  ];
}

/**
 * The headline figures of one run: the contest's four, or the offset exercise's result (`offset`: the
 * offset exercise's cards even before a live fetch has figures, so they do not change shape under it).
 */
export function cardsOf(s: RunSummary, offset = false): Card[] {
  const o = s.flows[0]?.offset;
  if (o || offset) return offsetCards(o ?? null);
  const a = s.all;
  return [
    { label: 'Throughput', value: fixed(a.throughputMbps, 2), unit: 'Mbit/s', title: 'Bits through the bottleneck ÷ (last − first departure)' },
    { label: 'Signal delay95', key: 'Delay95', value: fixed(a.delay95, 0), unit: 'ms', title: 'Signal delay, 95th percentile (the contest’s delay; propagation excluded)' },
    { label: 'Power', value: significant(a.power), unit: '', title: 'Throughput (Mbit/s) ÷ delay95 (s)' },
    { label: 'Score', value: fixed(a.score, 3), unit: '', title: 'ln(throughput Mbit/s ÷ delay95 ms), the contest score' },
    { label: 'Queueing p95', value: fixed(a.queueDelay95, 0), unit: 'ms', title: '95th percentile of per-packet queueing delay' },
    { label: 'Per-packet one-way p95', key: 'One-way p95', value: fixed(a.oneWay95, 0), unit: 'ms', title: 'Per-packet end-to-end one-way delay, 95th percentile (propagation included)' },
    ...(s.delays.selfInflicted95 === null
      ? []
      : [
          {
            label: 'Self-inflicted p95',
            value: fixed(s.delays.selfInflicted95, 0),
            unit: 'ms',
            title: 'Sprout’s self-inflicted delay: this run’s signal delay p95 minus the omniscient sender’s on the same trace (the delay at every instant, not per packet; the propagation cancels)',
          },
        ]),
  ];
}

/**
 * A run's cards; with no summary yet (the offset exercise's run not in), the same boxes, each a dash, so
 * the charts below stand where they will once the figures come (the contest's row is as tall as its plane
 * already). Only a run's cards carry its side's name (data-side): tests and exports read figures there.
 */
export function SummaryCards({
  summary,
  side,
  color,
  note,
  stale = false,
  offset = false,
}: {
  summary: RunSummary | null;
  side: string;
  color: string;
  note: string;
  stale?: boolean;
  offset?: boolean;
}) {
  const tipId = useId();
  return (
    <section className={stale ? 'cards stale' : 'cards'} data-stale={stale || undefined} aria-label={`Summary of run ${side}`} data-side={summary ? side : undefined}>
      <h3 style={{ borderColor: color }}>
        {side} <small>{note}</small>
      </h3>
      <dl>
        {(summary ? cardsOf(summary, offset) : offsetCards(null)).map((c) => (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a card takes keyboard focus so its explanation shows without a pointer.
          <div key={c.label} className="card" tabIndex={0} aria-describedby={`${tipId}-${c.key ?? c.label}`} data-card={summary ? (c.key ?? c.label) : undefined}>
            <dt>
              {c.label}
              <span role="tooltip" className="tip" id={`${tipId}-${c.key ?? c.label}`}>
                {c.title}
              </span>
            </dt>
            <dd>
              {c.value} <small>{c.unit}</small>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
