import { type EstimateName, ESTIMATES } from '../../shared/log/kinds.ts';
import type { RunSeries } from '../../shared/metrics/series.ts';
import { channels, COLORS, translucent } from '../charts/palette.ts';
import { eventMarks } from '../charts/events.ts';
import type { Layer } from '../charts/painter.ts';

export interface ChartDef {
  id: string;
  title: string;
  yLabel: string;
  layers: Layer[];
  yMin?: number;
  fitY?: boolean;
}

/**
 * Each estimate a controller reports, as its legend names it and the colour of its line. Lines keep off
 * the colours of the timeout and loss ticks (vermillion, green), since any line can run along the time
 * axis where the ticks stand, and a tick must not read as data; two that can share a chart (min and
 * smoothed RTT, bandwidth and pacing rate) differ.
 */
const ESTIMATE_STYLE: Record<EstimateName, { label: string; color: string }> = {
  ssthresh: { label: 'slow-start threshold', color: COLORS.sky },
  rttMin: { label: 'min RTT', color: COLORS.purple },
  bandwidth: { label: 'bandwidth estimate', color: COLORS.sky },
  pacingRate: { label: 'pacing rate', color: COLORS.blue },
  srtt: { label: 'smoothed RTT', color: COLORS.blue },
  rto: { label: 'retransmission timeout', color: COLORS.grey },
  threshold: { label: 'delay threshold', color: COLORS.olive },
  // recorded by the relay's offset server in a session's trace: the rate its replies were held to
  tokenRate: { label: 'the server’s token rate', color: COLORS.grey },
};

/** Estimates on the window chart when they are in packets; the rest belong to their own scales. */
const WINDOW_ESTIMATES = new Set(['ssthresh']);

/**
 * The pipe on the window chart: the BDP (capacity × minimum RTT) as a dashed line, and the part of the
 * window above it shaded, since those packets can only wait in the queue.
 */
function pipeLayers(window: Float64Array, bdp: number, endMs: number): Layer[] {
  // Both follow the window's own times, so playback and zoom draw them up to the playhead like the window.
  const above = new Float64Array(window.length);
  const pipe = new Float64Array(window.length + 2);
  for (let i = 0; i < window.length; i += 2) {
    above[i] = pipe[i] = window[i];
    above[i + 1] = Math.max(window[i + 1], bdp);
    pipe[i + 1] = bdp;
  }
  pipe[window.length] = endMs;
  pipe[window.length + 1] = bdp;
  return [
    { kind: 'area', data: above, color: translucent(COLORS.orange, 0.35), label: 'queue (window above the pipe)', base: bdp },
    { kind: 'line', data: pipe, color: COLORS.ink, label: 'pipe: capacity × min RTT', size: 1.2, dash: [5, 4] },
  ];
}

/** The link's capacity over time: a light area under it, and its level as a line. */
function capacityLayers(capacity: Float64Array): Layer[] {
  return [
    { kind: 'area', data: capacity, color: translucent(COLORS.grey, 0.2), label: 'under capacity' },
    { kind: 'step', data: capacity, color: COLORS.grey, label: 'capacity', size: 1 },
  ];
}

/** Each packet sent, acknowledged (or replied to), dropped and sent again, by sequence number or offset. */
function sequenceChart(s: RunSeries, offset: boolean): ChartDef {
  return {
    id: 'sequence',
    title: offset ? 'Offsets requested and replied' : 'Sequence numbers sent and acknowledged',
    yLabel: offset ? 'offset (bytes)' : 'sequence number',
    fitY: true,
    // Drops first, so sends and ACKs paint over them; dark, so no colour vision confuses them with ACKs.
    layers: [
      { kind: 'dots', data: s.drops, coarse: s.coarse?.drops, color: COLORS.ink, label: 'drop', size: 4 },
      { kind: 'dots', data: s.sends, coarse: s.coarse?.sends, color: COLORS.blue, label: offset ? 'request' : 'send', size: 2 },
      { kind: 'dots', data: s.acks, coarse: s.coarse?.acks, color: COLORS.orange, label: offset ? 'reply' : 'ack', size: 2 },
      { kind: 'dots', data: s.retransmits, coarse: s.coarse?.retransmits, color: COLORS.purple, label: 'retransmit', size: 3 },
    ],
  };
}

/** The charts of one run and what each draws. Built once per run, so playback can paint incrementally. */
export function chartsOf(s: RunSeries, offset: boolean, bdp: number | null = null, timer?: string): ChartDef[] {
  // An estimate is logged when it moves: its level holds while the controller runs, up to its last event
  // (a preview's data ends seconds before the run it stands for).
  const holdTo = s.window.length ? s.window[s.window.length - 2] : s.endMs;
  const estimateLayers = (names: (n: string) => boolean): Layer[] =>
    ESTIMATES.filter((n) => s.estimates[n] && names(n)).map((n) => ({ kind: 'step', data: s.estimates[n], ...ESTIMATE_STYLE[n], size: 1.2, holdTo }));
  const charts: ChartDef[] = [
    sequenceChart(s, offset),
    {
      id: 'window',
      title: offset ? 'Burst size / window' : 'Window',
      yLabel: 'packets',
      layers: [
        ...(s.squished.length ? [{ kind: 'bands' as const, data: s.squished, color: 'rgba(204,121,167,0.25)', label: 'squished' }] : []),
        ...(bdp ? pipeLayers(s.window, bdp, s.endMs) : []),
        { kind: 'step', data: s.window, color: COLORS.blue, label: 'window', size: 1.5 },
        ...estimateLayers((n) => WINDOW_ESTIMATES.has(n)),
      ],
    },
    {
      id: 'throughput',
      // The offset server's limit is its token bucket, not a link's capacity: its chart shows throughput alone.
      title: offset ? 'Throughput of the replies' : 'Throughput against capacity',
      yLabel: 'Mbit/s',
      layers: [
        // The area shows the room under the capacity; its edge, a line dark enough to read, the capacity itself.
        ...(s.capacity ? capacityLayers(s.capacity) : []),
        { kind: 'step', data: s.throughput, color: COLORS.blue, label: 'throughput', size: 1.5 },
      ],
    },
    {
      id: 'delay',
      title: 'Delay',
      yLabel: 'ms',
      layers: [
        { kind: 'dots', data: s.queueDelay, coarse: s.coarse?.queueDelay, color: COLORS.sky, label: 'queueing delay per packet', size: 2 },
        { kind: 'line', data: s.signalDelay, color: COLORS.ink, label: 'signal delay', size: 1.2 },
        ...estimateLayers((n) => n === 'rttMin' || n === 'srtt' || n === 'rto' || n === 'threshold'),
      ],
    },
    {
      id: 'queue',
      title: 'Queue at the bottleneck',
      yLabel: 'packets',
      layers: [{ kind: 'step', data: s.queue, color: COLORS.blue, label: 'queued', size: 1.5 }],
    },
  ];
  const rates = estimateLayers((n) => n === 'bandwidth' || n === 'pacingRate' || n === 'tokenRate');
  // Last, so that the rows every run has line up across the two columns.
  if (rates.length) charts.push({ id: 'rates', title: 'Rate estimates', yLabel: 'packets/s', layers: rates });
  const events = eventMarks(s, timer);
  return charts.map((c) => ({ ...c, layers: [...c.layers, ...events] }));
}

/** A colour mixed with another (`share` of the other), still opaque: dots are painted as solid pixels. */
export function mixed(hex: string, other: string, share: number): string {
  const to = channels(other);
  return `#${channels(hex)
    .map((c, i) => Math.round(c + (to[i] - c) * share))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
}

/** A colour mixed with white (`share` of white). */
export const towardWhite = (hex: string, share: number): string => mixed(hex, '#ffffff', share);

/**
 * A's and B's charts of one kind drawn as one: every mark in its side's colour (drops, the pipe and the
 * capacity, the same link for both, as they are), each label prefixed with its side. Event ticks take their side's
 * colour too, and B's hang from the top edge while A's rise from the axis, so whose event a tick is
 * reads without colour (their heights still tell the kinds apart).
 */
export function overlayOf(sides: { a?: ChartDef; b?: ChartDef }, colors: { a: string; b: string }): Layer[] {
  const layers: Layer[] = [];
  for (const s of ['a', 'b'] as const) {
    for (const l of sides[s]?.layers ?? []) {
      if (l.label.startsWith('pipe') && s === 'b' && sides.a) continue;
      const keep = l.label.startsWith('pipe') || l.label.startsWith('drop') || l.label === 'capacity' || l.kind === 'bands';
      // A side's ACKs (replies) are its colour made dark (a light one would fade under 3:1 against the
      // white), so they stay apart from its sends in one colour; the drops, darker and larger, from both.
      const dark = l.kind === 'dots' && (l.label === 'ack' || l.label === 'reply');
      const color = keep ? l.color : l.kind === 'area' ? translucent(colors[s], 0.2) : dark ? mixed(colors[s], COLORS.ink, 0.5) : colors[s];
      layers.push({ ...l, color, label: `${s.toUpperCase()} ${l.label}`, ...(l.kind === 'marks' && s === 'b' ? { hang: true } : {}) });
    }
  }
  return layers;
}
