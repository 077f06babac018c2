import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../shared/log/eventLog.ts';
import { ESTIMATES, K } from '../../../shared/log/kinds.ts';
import { runSeries } from '../../../shared/metrics/series.ts';
import { type ChartDef, chartsOf, overlayOf } from '../../../web/app/layers.ts';
import { channels, COLORS, HUES, MANY_COLORS, SIDE_STYLE } from '../../../web/charts/palette.ts';
import type { Layer } from '../../../web/charts/painter.ts';
import { pointStyle, SWEEP_COLORS } from '../../../web/labs/contest/pointStyle.ts';
import type { SweepResult } from '../../../web/labs/contest/useSweepRunner.ts';

const WHITE = '#ffffff';

/** sRGB channel, 0 to 255, to linear light. */
const linear = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);

const luminance = ([r, g, b]: number[]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** WCAG 2's contrast ratio of two '#rrggbb' colours. */
function contrast(a: string, b: string): number {
  const [la, lb] = [a, b].map((h) => luminance(channels(h).map(linear)));
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** A colour in linear RGB as a deuteranope sees it: Machado, Oliveira and Fernandes (2009), severity 1. */
function deuteranope(hex: string): number[] {
  const [r, g, b] = channels(hex).map(linear);
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return [clamp(0.367322 * r + 0.860646 * g - 0.227968 * b), clamp(0.280085 * r + 0.672501 * g + 0.047413 * b), clamp(-0.01182 * r + 0.04294 * g + 0.968881 * b)];
}

/** Linear RGB to CIELAB (D65). */
function lab([r, g, b]: number[]): number[] {
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [x, y, z] = [(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, luminance([r, g, b]), (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883].map(f);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** How far apart two colours look to a deuteranope: CIE76 ΔE of the simulated colours. */
function deuteranopeDistance(a: string, b: string): number {
  const [p, q] = [a, b].map((h) => lab(deuteranope(h)));
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/** A run with every kind of mark: sends, an ACK, a drop, a retransmit, a loss, a timeout, a squish, every estimate and a capacity. */
function fullSeries() {
  const log = new EventLog();
  log.push(0, K.send, 0, 0, 1500, 1, 4);
  log.push(5, K.drop, 0, 0, 1500, 0, 0);
  log.push(20, K.ack, 0, 0, 80, 20, 4);
  log.push(200, K.loss, 0, 0, 0, 1, 2);
  log.push(300, K.squish, 0, 0, 0, 1, 2);
  log.push(500, K.squish, 0, 0, 0, 0, 2);
  log.push(600, K.timeout, 0, -1, 0, 1000, 1);
  const s = runSeries(log, 1000, null);
  for (const [i, name] of ESTIMATES.entries()) s.estimates[name] = Float64Array.of(0, i + 1, 900, i + 1);
  s.capacity = Float64Array.of(0, 10, 900, 10);
  return s;
}

/** The marks of a chart: what carries data (areas and bands are shading under them). */
const marks = (layers: Layer[]) => layers.filter((l) => l.kind !== 'area' && l.kind !== 'bands');

/** Every chart the playground draws for one run, on either scenario, and the two sides overlaid. */
function everyChart(): ChartDef[] {
  const s = fullSeries();
  const single = [false, true].flatMap((offset) => chartsOf(s, offset, 5));
  const overlaid = single.map((c) => ({ ...c, layers: overlayOf({ a: c, b: c }, { a: SIDE_STYLE.a.color, b: SIDE_STYLE.b.color }) }));
  return [...single, ...overlaid];
}

describe('colour arithmetic', () => {
  it('contrast follows WCAG: black on white 21:1, #767676 on white 4.54:1, a colour on itself 1:1', () => {
    expect(contrast('#000000', WHITE)).toBe(21);
    expect(contrast('#767676', WHITE)).toBeCloseTo(4.54, 2);
    expect(contrast('#0072B2', '#0072B2')).toBe(1);
  });

  it('a deuteranope sees grey as grey and tells red from green much less than others do', () => {
    expect(deuteranopeDistance('#777777', '#777777')).toBe(0);
    const [p, q] = [lab(channels('#777777').map(linear)), lab(deuteranope('#777777'))];
    expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])).toBeLessThan(1);
    expect(deuteranopeDistance('#cc3333', '#669933')).toBeLessThan(25);
  });
});

describe('the palette', () => {
  it('every colour stands 3:1 or more against the charts’ white', () => {
    const ratios = Object.fromEntries(Object.entries(COLORS).map(([name, hex]) => [name, Number(contrast(hex, WHITE).toFixed(2))]));
    expect(ratios).toEqual({ blue: 5.19, orange: 3.52, sky: 4.14, green: 3.42, vermillion: 3.87, purple: 3.06, olive: 4.69, grey: 5.07, ink: 15.59 });
  });

  it('every mark of every chart, single or overlaid, stands 3:1 or more against white', () => {
    const charts = everyChart();
    expect(charts.flatMap((c) => marks(c.layers)).length).toBeGreaterThan(40);
    for (const chart of charts) for (const l of marks(chart.layers)) expect(contrast(l.color, WHITE), `${chart.id}: ${l.label} ${l.color}`).toBeGreaterThanOrEqual(3);
  });

  it('the marks that share a chart stay apart under deuteranopia (ΔE over 15)', () => {
    for (const chart of everyChart()) {
      const colors = [...new Set(marks(chart.layers).map((l) => l.color))];
      for (const [i, a] of colors.entries()) for (const b of colors.slice(i + 1)) expect(deuteranopeDistance(a, b), `${chart.id}: ${a} and ${b}`).toBeGreaterThan(15);
    }
  });

  it('the contest lab’s sweeps keep apart under deuteranopia too', () => {
    for (const [i, a] of SWEEP_COLORS.entries()) for (const b of SWEEP_COLORS.slice(i + 1)) expect(deuteranopeDistance(a, b), `${a} and ${b}`).toBeGreaterThan(15);
  });
});

/** How far apart two colours look: CIE76 ΔE. */
const distance = (a: string, b: string) => {
  const [p, q] = [a, b].map((h) => lab(channels(h).map(linear)));
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

describe('the colours of many things on one chart', () => {
  it('are each at least 30 apart (blue and sky blue, 25 apart, read as one in the scoreboard) and 11 apart to a deuteranope', () => {
    for (const [i, a] of MANY_COLORS.entries())
      for (const b of MANY_COLORS.slice(i + 1)) {
        expect(distance(a, b), `${a} ${b}`).toBeGreaterThanOrEqual(30);
        expect(deuteranopeDistance(a, b), `${a} ${b}`).toBeGreaterThanOrEqual(11);
      }
    expect(distance(COLORS.blue, COLORS.sky)).toBeLessThan(30);
  });

  it('hands out no reference mark’s colour where those marks are drawn: the omniscient star’s ink, the built-ins’ grey', () => {
    expect(HUES).not.toContain(COLORS.ink);
    expect(HUES).not.toContain(COLORS.grey);
    const board = Array.from({ length: 24 }, (_, sweep) => pointStyle({ sweep } as SweepResult, true).color);
    expect(new Set(board)).toEqual(new Set(HUES));
  });
});
