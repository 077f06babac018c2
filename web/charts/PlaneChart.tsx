import { scaleLinear, scaleLog } from 'd3-scale';
import { Axes } from './Axes.tsx';
import { fixed } from './format.ts';
import { COLORS } from './palette.ts';

export interface PlanePoint {
  label: string;
  throughputMbps: number;
  delay95: number;
  color: string;
  marker: 'circle' | 'square' | 'star' | 'dot';
  /** Draw the label next to the point (small sweep points show it on hover only). */
  labelled?: boolean;
  /** Circle it: the best point by some score. */
  ring?: boolean;
}

/** A polyline through points, in the plane's coordinates: a sweep's frontier. */
export interface PlaneLine {
  color: string;
  points: { throughputMbps: number; delay95: number }[];
}

const M = { left: 46, right: 16, top: 14, bottom: 36 };

/** A log axis's ticks at 1, 2, 5 × a power of ten, or fewer (1, 3; then 1) when they would crowd the axis. */
function logTicks(ticks: number[]): number[] {
  const mantissa = (t: number) => Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9));
  for (const keep of [[1, 2, 5], [1, 3], [1]]) {
    const kept = ticks.filter((t) => keep.includes(mantissa(t)));
    if (kept.length <= 8 || keep.length === 1) return kept;
  }
  return ticks;
}

/**
 * Throughput against 95th-percentile delay, the delay axis logarithmic and reversed so that better is
 * up and to the right, as the field draws it; the trace's omniscient point marks the ideal corner.
 */
/** A point's label, on whichever side of it stays inside the plot (about 6 px a character at 11 px). */
function PointLabel({ text, cx, innerW, star }: { text: string; cx: number; innerW: number; star: boolean }) {
  // The side with more room when the label does not fit to the right.
  const left = cx + 9 + 6 * text.length > innerW && cx > innerW - cx;
  return (
    <text x={left ? -9 : 9} textAnchor={left ? 'end' : 'start'} dy={star ? '-0.8em' : '0.32em'}>
      {text}
    </text>
  );
}

/** `short` labels points by name only (the numbers stay in each point's tooltip), for a small plane beside the cards. */
export function PlaneChart({ points, lines = [], width: W = 460, height: H = 250, short = false }: { points: PlanePoint[]; lines?: PlaneLine[]; width?: number; height?: number; short?: boolean }) {
  const ok = points.filter((p) => p.delay95 > 0 && Number.isFinite(p.delay95) && Number.isFinite(p.throughputMbps));
  const delays = ok.map((p) => p.delay95);
  const lo = Math.max(1, Math.min(...delays, 10) / 1.6);
  const hi = Math.max(...delays, 100) * 1.6;
  const x = scaleLog()
    .domain([hi, lo])
    .range([0, W - M.left - M.right])
    .nice();
  const y = scaleLinear()
    .domain([0, Math.max(1, ...ok.map((p) => p.throughputMbps)) * 1.15])
    .range([H - M.top - M.bottom, 0])
    .nice();
  const innerH = H - M.top - M.bottom;

  return (
    <figure className="plane" aria-label="Throughput–delay plane">
      <figcaption>Throughput vs delay (better: up and right)</figcaption>
      <svg width={W} height={H} role="img">
        <g transform={`translate(${M.left},${M.top})`}>
          <Axes
            x={x}
            y={y}
            xTicks={logTicks(x.ticks())}
            yTicks={y.ticks(4)}
            innerW={W - M.left - M.right}
            innerH={innerH}
            xGrid
            xLabel="95th-percentile signal delay (ms, log)"
            yLabel="throughput (Mbit/s)"
          />
          {lines.map((l, i) => (
            <polyline key={i} points={l.points.map((p) => `${x(p.delay95)},${y(p.throughputMbps)}`).join(' ')} fill="none" stroke={l.color} strokeWidth={1.5} strokeDasharray="4 3" />
          ))}
          {ok.map((p) => {
            const cx = x(p.delay95);
            const cy = y(p.throughputMbps);
            return (
              <g key={p.label} transform={`translate(${cx},${cy})`} className="point">
                <title>{`${p.label}: ${fixed(p.throughputMbps, 2)} Mbit/s, ${fixed(p.delay95, 0)} ms`}</title>
                {p.ring && <circle r={10} fill="none" stroke={COLORS.ink} strokeWidth={1.5} />}
                {p.marker === 'dot' && <circle r={3.5} fill={p.color} />}
                {p.marker === 'circle' && <circle r={6} fill={p.color} />}
                {p.marker === 'square' && <rect x={-6} y={-6} width={12} height={12} fill={p.color} />}
                {p.marker === 'star' && <path d="M0,-8L2.4,-2.5L8,-2.5L3.5,1.2L5,7L0,3.6L-5,7L-3.5,1.2L-8,-2.5L-2.4,-2.5Z" fill={p.color} />}
                {p.labelled !== false && (
                  <PointLabel
                    text={short ? p.label : `${p.label} (${fixed(p.throughputMbps, 2)} Mbit/s, ${fixed(p.delay95, 0)} ms)`}
                    cx={cx}
                    innerW={W - M.left - M.right}
                    star={p.marker === 'star'}
                  />
                )}
              </g>
            );
          })}
        </g>
      </svg>
    </figure>
  );
}
