import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../shared/log/eventLog.ts';
import { ESTIMATES, K } from '../../../shared/log/kinds.ts';
import { runSeries } from '../../../shared/metrics/series.ts';
import { chartsOf, overlayOf, towardWhite } from '../../../web/app/layers.ts';
import { EVENT_STYLE, eventMarks } from '../../../web/charts/events.ts';
import { SIDE_STYLE } from '../../../web/charts/palette.ts';
import { marksSvg } from '../../../web/export/marks.ts';
import { type PathSink, traceLayer } from '../../../web/charts/geometry.ts';

/** A path sink that keeps the rectangles it is given. */
class Rects implements PathSink {
  readonly rects: number[][] = [];
  moveTo(): void {}
  lineTo(): void {}
  closePath(): void {}
  rect(x: number, y: number, w: number, h: number): void {
    this.rects.push([x, y, w, h]);
  }
}

/** A run with two sends, an ACK, a drop, a detected loss, a timeout and one squished period. */
function series() {
  const log = new EventLog();
  log.push(0, K.send, 0, 0, 1500, 1, 4);
  log.push(0, K.send, 0, 1, 1500, 2, 4);
  log.push(5, K.drop, 0, 1, 1500, 0, 0);
  log.push(20, K.ack, 0, 0, 80, 20, 4);
  log.push(200, K.loss, 0, 1, 0, 1, 2);
  log.push(300, K.squish, 0, 0, 0, 1, 2);
  log.push(500, K.squish, 0, 0, 0, 0, 2);
  log.push(600, K.timeout, 0, -1, 0, 1000, 1);
  return runSeries(log, 1000, null);
}

describe('events on the time axis', () => {
  it('the series keeps detected losses as (t, seq) pairs', () => {
    expect(Array.from(series().losses)).toEqual([200, 1]);
  });

  it('squish edges, timeouts and detected losses each become a layer of ticks', () => {
    const marks = eventMarks(series());
    expect(marks.map((m) => [m.label, Array.from(m.data)])).toEqual([
      ['squish on/off', [300, 0, 500, 0]],
      ['timeout', [600, 1]],
      ['loss detected', [200, 1]],
    ]);
    expect(marks.every((m) => m.kind === 'marks')).toBe(true);
  });

  it('every time chart carries the ticks; drops are drawn before (under) sends and ACKs', () => {
    const charts = chartsOf(series(), false, null);
    expect(charts.length).toBeGreaterThanOrEqual(5);
    for (const c of charts) expect(c.layers.filter((l) => l.kind === 'marks').map((l) => l.label)).toEqual(['squish on/off', 'timeout', 'loss detected']);
    const order = charts[0].layers.map((l) => l.label);
    expect(order.indexOf('drop')).toBeLessThan(order.indexOf('send'));
    expect(order.indexOf('drop')).toBeLessThan(order.indexOf('ack'));
  });

  it('a tick rises from the time axis at its event, as tall as its kind says', () => {
    // 1000 ms over 500 px; the y axis runs 100 px down to 0
    const x = scaleLinear().domain([0, 1000]).range([0, 500]);
    const y = scaleLinear().domain([0, 10]).range([100, 0]);
    const ticks = (label: string) => {
      const sink = new Rects();
      traceLayer(sink, eventMarks(series()).find((m) => m.label === label)!, x, y, 100, 0, 1000);
      return sink.rects;
    };
    expect(ticks('timeout')).toEqual([[300 - 0.75, 90, 1.5, 10]]);
    expect(ticks('loss detected')).toEqual([[100 - 0.75, 94, 1.5, 6]]);
    expect(ticks('squish on/off')).toEqual([
      [150 - 0.75, 86, 1.5, 14],
      [250 - 0.75, 86, 1.5, 14],
    ]);
    // the playhead at 400 ms: only the ticks before it
    const sink = new Rects();
    traceLayer(sink, eventMarks(series())[0], x, y, 100, 0, 400);
    expect(sink.rects).toHaveLength(1);
  });

  it('overlaid, each side ticks its events in its own colour, A rising from the axis and B hanging from the top', () => {
    const x = scaleLinear().domain([0, 1000]).range([0, 500]);
    const y = scaleLinear().domain([0, 10]).range([100, 0]);
    const window = chartsOf(series(), false, null)[1];
    const layers = overlayOf({ a: window, b: window }, { a: SIDE_STYLE.a.color, b: SIDE_STYLE.b.color });
    const timeout = (side: string) => layers.find((l) => l.label === `${side} timeout`)!;
    expect([timeout('A').color, timeout('B').color]).toEqual(['#0072B2', '#D55E00']);
    const rects = (side: string) => {
      const sink = new Rects();
      traceLayer(sink, timeout(side), x, y, 100, 0, 1000);
      return sink.rects;
    };
    expect(rects('A')).toEqual([[300 - 0.75, 90, 1.5, 10]]);
    expect(rects('B')).toEqual([[300 - 0.75, 0, 1.5, 10]]);
    // the exported figure draws the same: B's tick from the top edge, in B's colour
    const svg = marksSvg({ layers, x, y, innerH: 100 });
    expect(svg).toContain('data-layer="A timeout" d="M299.25,90h1.5v10h-1.5Z" fill="#0072B2"');
    expect(svg).toContain('data-layer="B timeout" d="M299.25,0h1.5v10h-1.5Z" fill="#D55E00"');
    // the two sides' colours stay apart under deuteranopia
    const [la, lb] = [deuteranopeLuminance(timeout('A').color), deuteranopeLuminance(timeout('B').color)];
    expect((Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)).toBeGreaterThan(1.5);
  });

  // Lines run along the time axis where the ticks stand (a queue near empty, a delay near its floor); dots,
  // the drops' dark ones among them, sit at their sequence numbers or delays.
  it('timeout and loss ticks take a colour no line of any chart uses, so no tick reads as data', () => {
    const s = series();
    // Every estimate on its chart, as the schemes that report them would put it there.
    for (const [i, name] of ESTIMATES.entries()) s.estimates[name] = Float64Array.of(0, i + 1, 900, i + 1);
    const charts = [false, true].flatMap((offset) => chartsOf(s, offset, 20));
    expect(charts.flatMap((c) => c.layers).filter((l) => l.kind === 'line' || l.kind === 'step').length).toBeGreaterThanOrEqual(10);
    for (const chart of charts) {
      const data = chart.layers.filter((l) => l.kind === 'line' || l.kind === 'step').map((l) => l.color);
      for (const kind of ['timeout', 'loss'] as const) expect(data, `${chart.id}: ${kind}`).not.toContain(EVENT_STYLE[kind].color);
    }
  });

  it('a scheme that names its timer has its ticks go by that name, the others "timeout"', () => {
    const labels = (timer?: string) => eventMarks(series(), timer).map((l) => l.label);
    expect(labels()).toEqual(['squish on/off', 'timeout', 'loss detected']);
    expect(labels('re-estimate (its timer)')).toEqual(['squish on/off', 're-estimate (its timer)', 'loss detected']);
    expect(chartsOf(series(), false, null, 're-estimate').every((c) => c.layers.some((l) => l.label === 're-estimate'))).toBe(true);
  });

  it('the kinds differ in height as well as colour', () => {
    const heights = Object.values(EVENT_STYLE).map((s) => s.height);
    expect(new Set(heights).size).toBe(heights.length);
  });
});

/** sRGB hex through Machado et al.'s (2009) full deuteranopia matrix, to relative luminance. */
function deuteranopeLuminance(hex: string): number {
  const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255));
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const R = clamp(0.367322 * r + 0.860646 * g - 0.227968 * b);
  const G = clamp(0.280085 * r + 0.672501 * g + 0.047413 * b);
  const B = clamp(-0.01182 * r + 0.04294 * g + 0.968881 * b);
  return 0.2126 * R + 0.7152 * G + 0.0722 * B;
}

describe('the sequence chart’s palette under deuteranopia', () => {
  it('ACKs and drops keep a contrast ratio above 4.5', () => {
    const layers = chartsOf(series(), false, null)[0].layers;
    const color = (label: string) => layers.find((l) => l.label === label)!.color;
    const [a, b] = [deuteranopeLuminance(color('ack')), deuteranopeLuminance(color('drop'))];
    expect((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)).toBeGreaterThan(4.5);
  });
});

describe('overlaid sequence charts', () => {
  it('keep each side’s sends, ACKs and retransmits apart: ACKs in its colour made dark, retransmits larger', () => {
    const s = series();
    const sequence = chartsOf(s, false).find((c) => c.id === 'sequence')!;
    const layers = overlayOf({ a: sequence, b: sequence }, { a: SIDE_STYLE.a.color, b: SIDE_STYLE.b.color });
    const look = (label: string) => {
      const l = layers.find((x) => x.label === label)!;
      return `${l.color} ${l.size}`;
    };
    expect(towardWhite('#0072B2', 0.55)).toBe('#8cc0dc');
    expect([look('A send'), look('A ack'), look('A retransmit')]).toEqual(['#0072B2 2', '#0f4b71 2', '#0072B2 3']);
    expect([look('B send'), look('B ack')]).toEqual(['#D55E00 2', '#794118 2']);
  });
});
