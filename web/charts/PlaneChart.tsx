import { scaleLinear, scaleLog } from 'd3-scale';
import { roundTo125 } from '../../shared/metrics/series.ts';
import { Axes } from './Axes.tsx';
import { fixed, type RateUnit } from './format.ts';
import { ESTIMATED_METRICS, type LabelMetrics, labelMetrics } from './labelMetrics.ts';
import { COLORS } from './palette.ts';

export interface PlanePoint {
  label: string;
  throughputMbps: number;
  delay95: number;
  color: string;
  marker: 'circle' | 'square' | 'star' | 'dot';
  /** Draw the label next to the point (small sweep points show it on hover only). */
  labelled?: boolean;
  /** What the point's tooltip calls it, where its label is too short to say (a built-in's id on the plane, its name here). */
  title?: string;
  /** Circle it: the best point by some score. */
  ring?: boolean;
}

/** A polyline through points, in the plane's coordinates: a sweep's frontier. */
export interface PlaneLine {
  color: string;
  points: { throughputMbps: number; delay95: number }[];
}

const MBPS: RateUnit = { label: 'Mbit/s', perMbps: 1 };

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

/** Where a point's label goes: on whichever side of it stays inside the plot, and how far it moves off its point's line. */
interface LabelPlace {
  left: boolean;
  /** Vertical shift, px, so that labels of nearby points do not print over each other. */
  shift: number;
}

/** How far from its centre a point's marker reaches, px: a label keeps off it. */
const MARKER_PX = 7;
/** How far a label's text starts from its point's centre, px. */
const LABEL_GAP_PX = 9;

/** A marker's centre; `clear`: no label may print over it (the omniscient star, which every point is read against). */
type At = { cx: number; cy: number; clear?: boolean };

/**
 * The markers apart from those bunched with `own` (its own among them): a label cannot keep off markers that
 * close to its point, since it starts among them, and read beside them it names them all alike. The star
 * stays, however near: a label beside it would still hide it (the best students are the nearest).
 */
const notBunchedWith = (own: At, markers: readonly At[]) =>
  markers.filter((m) => Math.abs(m.cx - own.cx) > 2 * MARKER_PX || Math.abs(m.cy - own.cy) > 2 * MARKER_PX || (m.clear && (m.cx !== own.cx || m.cy !== own.cy)));

/** Shifts a label may take off its point's line, nearest first, in whole lines. */
const NEAR_LINES = [0, 1, -1, 2, -2, 3, -3];
/** Further lines, for a label that would otherwise print over another label (text on text cannot be read). */
const FAR_LINES = [4, -4, 5, -5, 6, -6];

/**
 * Places labels in order: each on the side with room, then moved up or down by whole lines, nearest
 * first, until it overlaps no label placed before it and runs over no marker further along its line
 * (`markers`: every point drawn, labelled or not), and stays inside the plot's height. Where that side is
 * crowded, the other side is tried (if the label fits there); where both are, the place with the fewest
 * overlaps, unless that is over another label or a `clear` marker: then a line up to six away that is clear
 * of both, or none (null): text on text cannot be read, and the point keeps its name in its tooltip. `metrics` are
 * the labels' sizes as drawn (each line's box is centred on it).
 */
export function placeLabels(
  labels: { cx: number; cy: number; text: string }[],
  innerW: number,
  markers: readonly At[] = labels,
  innerH = Number.POSITIVE_INFINITY,
  metrics: LabelMetrics = ESTIMATED_METRICS,
): (LabelPlace | null)[] {
  const line = metrics.line;
  const [nearShifts, farShifts] = [NEAR_LINES, FAR_LINES].map((lines) => lines.map((k) => k * line));
  const placed: { x0: number; x1: number; y: number }[] = [];
  return labels.map(({ cx, cy, text }) => {
    const w = LABEL_GAP_PX + metrics.width(text);
    const preferLeft = cx + w > innerW && cx > innerW - cx;
    const sides = [preferLeft, ...((preferLeft ? cx + w <= innerW : cx - w >= 0) ? [!preferLeft] : [])];
    const others = notBunchedWith({ cx, cy }, markers);
    const hits = (left: boolean, y: number) => {
      const [x0, x1] = left ? [cx - w, cx] : [cx, cx + w];
      const over = others.filter((m) => m.cx + MARKER_PX > x0 && m.cx - MARKER_PX < x1 && Math.abs(m.cy - y) < line / 2 + MARKER_PX);
      // a label over the star hides it as surely as one over another label: both count as text on text
      const overLabels = placed.filter((p) => p.x1 > x0 && p.x0 < x1 && Math.abs(p.y - y) < line).length + over.filter((m) => m.clear).length;
      return { overLabels, total: overLabels + over.length };
    };
    // A line of text stays between the plot's top and its axis, whose tick labels lie below.
    const within = (shifts: number[]) => shifts.filter((d) => cy + d >= line / 2 && cy + d <= innerH - line / 2);
    const near = within(nearShifts);
    const lines = (shifts: number[]) => sides.flatMap((left) => shifts.map((shift) => ({ left, shift, ...hits(left, cy + shift) })));
    const candidates = lines(near.length ? near : nearShifts);
    // the near lines clear of labels and of the star, the fewest markers run over first; else a far line clear of them
    const clear = candidates.filter((c) => c.overLabels === 0);
    const best = clear.length ? clear.reduce((a, b) => (b.total < a.total ? b : a)) : lines(within(farShifts)).find((c) => c.overLabels === 0);
    if (!best) return null;
    placed.push(best.left ? { x0: cx - w, x1: cx, y: cy + best.shift } : { x0: cx, x1: cx + w, y: cy + best.shift });
    return { left: best.left, shift: best.shift };
  });
}

/** A label more than this many lines off its point's line is tied to it by a line, wherever it lands. */
const LEADER_LINES = 3;

/**
 * Whether a label placed off its point's line is tied to it by a line: when it moved far, or when another
 * marker (not one bunched with its own point) is as near to it as its own point, since read alone it would
 * name that one. Distances run from each marker's centre to the label's box as placeLabels places it.
 */
export function needsLeader(own: { cx: number; cy: number; text: string }, place: LabelPlace, markers: readonly At[], metrics: LabelMetrics = ESTIMATED_METRICS): boolean {
  const line = metrics.line;
  if (place.shift === 0) return false;
  if (Math.abs(place.shift) > LEADER_LINES * line) return true;
  const w = metrics.width(own.text);
  const x0 = place.left ? own.cx - LABEL_GAP_PX - w : own.cx + LABEL_GAP_PX;
  const y = own.cy + place.shift;
  const distance = (m: At) => Math.hypot(Math.max(x0 - m.cx, 0, m.cx - x0 - w), Math.max(Math.abs(m.cy - y) - line / 2, 0));
  const mine = distance(own);
  return notBunchedWith(own, markers).some((m) => distance(m) <= mine);
}

function PointLabel({ text, place, leader }: { text: string; place: LabelPlace; leader: boolean }) {
  const side = place.left ? -1 : 1;
  return (
    <>
      {leader && <line className="leader" x1={side * MARKER_PX} y1={Math.sign(place.shift) * MARKER_PX} x2={side * (LABEL_GAP_PX - 1)} y2={place.shift} stroke={COLORS.grey} strokeWidth={1} />}
      {/* a white outline under the letters: a label that starts among its own point's markers stays readable over them */}
      <text x={side * LABEL_GAP_PX} y={place.shift} textAnchor={place.left ? 'end' : 'start'} dy="0.32em" stroke="#fff" strokeWidth={3} strokeLinejoin="round" paintOrder="stroke">
        {text}
      </text>
    </>
  );
}

/** Room left beyond the outermost points on the delay axis, as a factor. */
const DELAY_PAD = 1.3;
/** The delay axis spans at least this factor: a lone point or a tight cluster is not spread over the plane's width. */
const MIN_DELAY_SPAN = 10;

/**
 * The delay axis's ends, ms, the larger first (less delay to the right): the points' range padded, widened
 * about its middle to MIN_DELAY_SPAN, its ends at 1, 2 or 5 × a power of ten. Ends at whole decades left
 * points between 30 and 400 ms on a third of an axis running from 1 s to 1 ms.
 */
export function delayDomain(delays: number[]): [number, number] {
  let lo = delays.length ? Math.min(...delays) / DELAY_PAD : 10;
  let hi = delays.length ? Math.max(...delays) * DELAY_PAD : 100;
  const widen = Math.sqrt(Math.max(1, MIN_DELAY_SPAN / (hi / lo)));
  lo = Math.max(1, lo / widen);
  hi = Math.max(hi * widen, lo * MIN_DELAY_SPAN);
  return [roundTo125(hi), roundTo125(lo, false)];
}

/** The plane's scales: delay on a log axis around the points, reversed (less delay to the right); throughput from 0. */
function planeScales(ok: PlanePoint[], innerW: number, innerH: number, tput: (p: PlanePoint) => number) {
  const x = scaleLog()
    .domain(delayDomain(ok.map((p) => p.delay95)))
    .range([0, innerW]);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...ok.map(tput)) * 1.15])
    .range([innerH, 0])
    .nice();
  return { x, y };
}

/** A point's marker, ringed when it is a best point. */
function Marker({ p }: { p: PlanePoint }) {
  return (
    <>
      {p.ring && <circle r={10} fill="none" stroke={COLORS.ink} strokeWidth={1.5} />}
      {p.marker === 'dot' && <circle r={3.5} fill={p.color} />}
      {p.marker === 'circle' && <circle r={6} fill={p.color} />}
      {p.marker === 'square' && <rect x={-6} y={-6} width={12} height={12} fill={p.color} />}
      {p.marker === 'star' && <path d="M0,-8L2.4,-2.5L8,-2.5L3.5,1.2L5,7L0,3.6L-5,7L-3.5,1.2L-8,-2.5L-2.4,-2.5Z" fill={p.color} />}
    </>
  );
}

/**
 * Throughput against 95th-percentile delay, the delay axis logarithmic and reversed so that better is
 * up and to the right, as the field draws it; the trace's omniscient point marks the ideal corner.
 * `short` labels points by name only (the numbers stay in each point's tooltip), for a small plane beside the cards.
 * `rate` reads throughput in another unit (56.6 kbit/s flows in kbit/s).
 */
export function PlaneChart({
  points,
  lines = [],
  width: W = 460,
  height: H = 250,
  short = false,
  rate = MBPS,
}: {
  points: PlanePoint[];
  lines?: PlaneLine[];
  width?: number;
  height?: number;
  short?: boolean;
  rate?: RateUnit;
}) {
  const ok = points.filter((p) => p.delay95 > 0 && Number.isFinite(p.delay95) && Number.isFinite(p.throughputMbps));
  const innerH = H - M.top - M.bottom;
  const innerW = W - M.left - M.right;
  const tput = (p: { throughputMbps: number }) => p.throughputMbps * rate.perMbps;
  const { x, y } = planeScales(ok, innerW, innerH, tput);
  const labelText = (p: PlanePoint) => (short ? p.label : `${p.label} (${fixed(tput(p), 2)} ${rate.label}, ${fixed(p.delay95, 0)} ms)`);
  // The star's label is placed first: the ideal corner is what every other point is read against.
  const labelled = ok.filter((p) => p.labelled !== false).sort((a, b) => Number(b.marker === 'star') - Number(a.marker === 'star'));
  const metrics = labelMetrics();
  const at = (p: PlanePoint) => ({ cx: x(p.delay95), cy: y(tput(p)) });
  const markers = ok.map((p) => ({ ...at(p), clear: p.marker === 'star' }));
  const places = new Map(
    placeLabels(
      labelled.map((p) => ({ ...at(p), text: labelText(p) })),
      innerW,
      markers,
      innerH,
      metrics,
    )
      .map((place, i) => [labelled[i], place && { ...place, leader: needsLeader({ ...at(labelled[i]), text: labelText(labelled[i]) }, place, markers, metrics) }] as const)
      .filter((pair): pair is readonly [PlanePoint, LabelPlace & { leader: boolean }] => pair[1] !== null),
  );

  return (
    <figure className="plane" aria-label="Throughput–delay plane">
      <figcaption>Throughput vs delay (better: up and right)</figcaption>
      <svg width={W} height={H} role="img">
        <title>{`Throughput against delay: ${ok.map((p) => `${p.label} ${fixed(tput(p), 2)} ${rate.label}, ${fixed(p.delay95, 0)} ms`).join('; ') || 'no runs yet'}`}</title>
        <g transform={`translate(${M.left},${M.top})`}>
          <Axes
            x={x}
            y={y}
            xTicks={logTicks(x.ticks())}
            yTicks={y.ticks(4)}
            innerW={innerW}
            innerH={innerH}
            xGrid
            xLabel="95th-percentile signal delay (ms, log)"
            yLabel={`throughput (${rate.label})`}
          />
          {lines.map((l, i) => (
            <polyline key={i} points={l.points.map((p) => `${x(p.delay95)},${y(tput(p))}`).join(' ')} fill="none" stroke={l.color} strokeWidth={1.5} strokeDasharray="4 3" />
          ))}
          {ok.map((p, i) => (
            // a student's attempts share a name: the key is the point's place in the list
            <g key={i} transform={`translate(${x(p.delay95)},${y(tput(p))})`} className="point">
              <title>{`${p.title ?? p.label}: ${fixed(tput(p), 2)} ${rate.label}, ${fixed(p.delay95, 0)} ms`}</title>
              <Marker p={p} />
            </g>
          ))}
          {/* over every marker: a point drawn after a label would hide part of it */}
          {ok.map(
            (p, i) =>
              places.has(p) && (
                <g key={i} transform={`translate(${x(p.delay95)},${y(tput(p))})`} className="point-label">
                  <PointLabel text={labelText(p)} place={places.get(p)!} leader={places.get(p)!.leader} />
                </g>
              ),
          )}
        </g>
      </svg>
    </figure>
  );
}
