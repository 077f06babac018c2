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

/** The headline figures of one run: the contest's four, or the offset exercise's result. */
export function cardsOf(s: RunSummary): Card[] {
  const f = s.flows[0];
  if (f?.offset) {
    const o = f.offset;
    return [
      { label: 'Time', value: Number.isFinite(o.timeMs) ? String(Math.round(o.timeMs)) : '—', unit: 'ms', title: 'The server’s Time: Submit arrival minus session start' },
      { label: 'Penalty', value: Number.isFinite(o.penalty) ? String(o.penalty) : '—', unit: '', title: 'Requests that found no token' },
      { label: 'Squishes', value: String(o.squishes), unit: '', title: 'Times the server squished the client' },
      { label: 'Result', value: o.result === null ? '…' : String(o.result), unit: '', title: 'The server’s Result: whether the MD5 of the fetched file matched' },
      { label: 'Requests', value: String(o.requests), unit: '', title: 'Data requests sent' },
      { label: 'Bound', value: fixed(o.boundMs, 0), unit: 'ms', title: 'the time a perfectly paced client needs: chunks at the token rate (along its schedule on the variable server)' },
    ];
  }
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

export function SummaryCards({ summary, side, color, note, stale = false }: { summary: RunSummary; side: string; color: string; note: string; stale?: boolean }) {
  const tipId = useId();
  return (
    <section className={stale ? 'cards stale' : 'cards'} data-stale={stale || undefined} aria-label={`Summary of run ${side}`} data-side={side}>
      <h3 style={{ borderColor: color }}>
        {side} <small>{note}</small>
      </h3>
      <dl>
        {cardsOf(summary).map((c) => (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a card takes keyboard focus so its explanation shows without a pointer.
          <div key={c.label} className="card" tabIndex={0} aria-describedby={`${tipId}-${c.key ?? c.label}`} data-card={c.key ?? c.label}>
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
