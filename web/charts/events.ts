import type { RunSeries } from '../../shared/metrics/series.ts';
import type { Layer } from './painter.ts';
import { COLORS } from './palette.ts';

/**
 * How each kind of event is ticked on the time axis. Colour and height both tell them apart, so the
 * ticks read without colour vision: squish edges tallest, timeouts next, detected losses, then CE marks shortest.
 */
export const EVENT_STYLE = {
  timeout: { color: COLORS.vermillion, height: 10, label: 'timeout' },
  loss: { color: COLORS.green, height: 6, label: 'loss detected' },
  mark: { color: COLORS.orange, height: 3, label: 'CE mark' },
  squish: { color: COLORS.purple, height: 14, label: 'squish on/off' },
} as const;

/** The starts and ends of squished periods, as events. */
function squishEdges(squished: Float64Array): Float64Array {
  const edges = new Float64Array(2 * squished.length);
  for (let i = 0; i < squished.length; i++) edges[2 * i] = squished[i];
  return edges;
}

/**
 * The run's timeouts, losses the sender detected before its timer, CE marks and squish on/off, as ticks on a time
 * axis: every time chart carries them, so a jump in any row can be read against what the sender saw. A
 * scheme whose timer is its design, not a loss, names it (`timer`), and its ticks go by that name.
 */
export function eventMarks(s: RunSeries, timer: string = EVENT_STYLE.timeout.label): Layer[] {
  const events: [keyof typeof EVENT_STYLE, Float64Array][] = [
    ['squish', squishEdges(s.squished)],
    ['timeout', s.timeouts],
    ['loss', s.losses],
    ['mark', s.marks],
  ];
  return events
    .filter(([, data]) => data.length > 0)
    .map(([kind, data]) => ({ kind: 'marks', data, color: EVENT_STYLE[kind].color, label: kind === 'timeout' ? timer : EVENT_STYLE[kind].label, size: EVENT_STYLE[kind].height }));
}
