import { scaleLinear } from 'd3-scale';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newDotCorners, Occupancy } from '../../../web/charts/dots.ts';
import { affineOf, at, traceLayer } from '../../../web/charts/geometry.ts';
import { type Layer, Painter } from '../../../web/charts/painter.ts';
import { yExtent } from '../../../web/charts/TimeChart.tsx';

const pairs = (n: number, f: (i: number) => [number, number]) => Float64Array.from({ length: 2 * n }, (_, k) => f(k >> 1)[k & 1]);

/** Records the calls made on an object, and the properties set on it, as text. */
const recorder = (calls: string[], own: Record<string, unknown> = {}) =>
  new Proxy(own, {
    get: (t, k: string) => (k in t ? t[k] : (...args: unknown[]) => calls.push(`${k}(${args.map((a) => (Array.isArray(a) ? `[${a}]` : typeof a === 'object' ? 'path' : a)).join(',')})`)),
    set: (_, k: string, v) => {
      calls.push(`${k}=${v}`);
      return true;
    },
  });

/**
 * A canvas whose 2D context keeps the pixels put into it and the calls made on it and on its paths
 * (Path2D, which Node lacks, is stood in for until the test ends).
 */
function fakeCanvas() {
  const calls: string[] = [];
  let pixels: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  const proxy = recorder(calls, {
    createImageData: (w: number, h: number) => ({ data: new Uint8ClampedArray(w * h * 4) }),
    putImageData: (image: { data: Uint8ClampedArray }) => void (pixels = new Uint32Array(image.data.buffer)),
  });
  vi.stubGlobal('Path2D', function Path2D() {
    return recorder(calls);
  });
  const canvas = { getContext: () => proxy, style: {}, width: 0, height: 0 } as unknown as HTMLCanvasElement;
  return { canvas, calls, pixels: () => pixels };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a linear scale as plain numbers', () => {
  it('maps every value to the very number d3 gives', () => {
    const scales = [
      scaleLinear().domain([0, 140_000]).range([0, 633]),
      scaleLinear().domain([12.5, 98_765.4321]).range([137, 0]).nice(),
      scaleLinear().domain([10, 0]).range([0, 7]),
      scaleLinear().domain([3, 3]).range([0, 100]),
    ];
    for (const s of scales) {
      const a = affineOf(s);
      for (let v = -50; v < 150_000; v += 77.7) expect(at(a, v)).toBe(s(v));
    }
    expect(at(affineOf(scales[3]), 42)).toBe(50);
  });
});

describe('dots onto device pixels', () => {
  // 10 px wide, 10 px tall: one px per ms and per unit, y up
  const x = affineOf(scaleLinear().domain([0, 10]).range([0, 10]));
  const y = affineOf(scaleLinear().domain([0, 10]).range([10, 0]));

  it('gives each spot once, skips what is off the canvas or not a number, and remembers across calls', () => {
    const l: Layer = { kind: 'dots', data: Float64Array.of(2, 3, 2.2, 3.1, 5, 5, 50, 5, 6, Number.NaN, 9.6, 0), color: '#000000', label: 'd', size: 2 };
    const taken = new Occupancy(10, 10);
    const out = { buf: new Int32Array(0) };
    // (2, 3) → corner (2, 7 - 1); (2.2, 3.1) rounds to the same; (5, 5) → (5, 4); x = 50 and NaN are off; (9.6, 0) → (10, 9): off by its left edge
    expect(newDotCorners(l, x, y, 1, 0, 6, taken, out)).toBe(2);
    expect([...out.buf.subarray(0, 4)]).toEqual([2, 6, 5, 4]);
    expect(newDotCorners(l, x, y, 1, 2, 3, taken, out)).toBe(0);
    // At 2 device pixels a CSS pixel, a 2 px dot is 4 px square, its corner 2 px above the centre.
    expect(newDotCorners(l, x, y, 2, 0, 1, new Occupancy(20, 20), out)).toBe(1);
    expect([...out.buf.subarray(0, 2)]).toEqual([4, 12]);
  });
});

describe('the canvas painter', () => {
  const x = scaleLinear().domain([0, 10]).range([0, 10]);
  const y = scaleLinear().domain([0, 10]).range([10, 0]);
  const colorAt = (px: Uint32Array, cx: number, cy: number) => px[cy * 10 + cx];

  it('stacks drops under sends under ACKs on the pixels they share', () => {
    const { canvas, pixels } = fakeCanvas();
    const p = new Painter(canvas);
    p.resize(10, 10, 1);
    const drop: Layer = { kind: 'dots', data: Float64Array.of(5, 5), color: '#000001', label: 'drop', size: 4 };
    const send: Layer = { kind: 'dots', data: Float64Array.of(5, 5, 5.1, 5), color: '#000002', label: 'send', size: 2 };
    const ack: Layer = { kind: 'dots', data: Float64Array.of(6, 5), color: '#000003', label: 'ack', size: 2 };
    p.paint([drop, send, ack], x, y);
    const px = pixels();
    // ImageData little-endian: 0xAABBGGRR
    const abgr = (b: number) => (0xff000000 | (b << 16)) >>> 0;
    // drop: 4 px square with corner (5, 3); send: (5, 4) to (6, 5); ack: (6, 4) to (7, 5)
    expect(colorAt(px, 5, 3) >>> 0).toBe(abgr(1));
    expect(colorAt(px, 8, 6) >>> 0).toBe(abgr(1));
    expect(colorAt(px, 5, 4) >>> 0).toBe(abgr(2));
    expect(colorAt(px, 6, 4) >>> 0).toBe(abgr(3));
    expect(colorAt(px, 7, 5) >>> 0).toBe(abgr(3));
    expect(colorAt(px, 4, 4)).toBe(0);
  });

  it("draws a dots layer's coarse copy where its cells are no larger than a pixel, and the whole layer where they are", () => {
    const { canvas, pixels } = fakeCanvas();
    const p = new Painter(canvas);
    p.resize(10, 10, 1);
    // the coarse copy kept (2, 3) of its cell and left (7, 3) out, as a cell per pixel of the whole run
    const dots: Layer = { kind: 'dots', data: Float64Array.of(2, 3, 7, 3), coarse: { data: Float64Array.of(2, 3), cellMs: 1, cellValue: 1 }, color: '#000001', label: 'send', size: 1 };
    p.paint([dots], x, y);
    expect([pixels()[7 * 10 + 2] !== 0, pixels()[7 * 10 + 7] !== 0]).toEqual([true, false]);
    // zoomed to half the values: a cell is two pixels tall, so every point is drawn (y = 3 at row 4)
    p.paint([dots], x, scaleLinear().domain([0, 5]).range([10, 0]));
    expect([pixels()[4 * 10 + 2] !== 0, pixels()[4 * 10 + 7] !== 0]).toEqual([true, true]);
  });

  it('strokes a line of thousands of points through at most four points per half-pixel column', () => {
    const { canvas, calls } = fakeCanvas();
    const p = new Painter(canvas);
    p.resize(10, 10, 1);
    const line: Layer = { kind: 'step', data: pairs(10_000, (i) => [i / 1000, i % 2 ? 10 : 0]), color: '#0072B2', label: 'window' };
    p.paint([line], x, y);
    const lineTos = calls.filter((c) => c.startsWith('lineTo('));
    expect(lineTos.length).toBeLessThanOrEqual(4 * 20);
    // Both extremes of the first column are kept: 0 packets (y = 10 px) and 10 packets (y = 0 px).
    expect(lineTos.some((c) => c.endsWith(',0)'))).toBe(true);
    expect(lineTos.some((c) => c.endsWith(',10)'))).toBe(true);
    expect(calls.filter((c) => c === 'stroke(path)')).toHaveLength(2);
  });

  it('strokes a line as hairlines side by side, one per device pixel of its width, offset along the diagonal', () => {
    const { canvas, calls } = fakeCanvas();
    const p = new Painter(canvas);
    const line = (size: number): Layer => ({ kind: 'line', data: Float64Array.of(1, 1, 9, 9), color: '#0072B2', label: 'pipe', size, dash: [5, 4] });
    const strokes = (dpr: number, size: number) => {
      p.resize(10, 10, dpr);
      const from = calls.length;
      p.paint([line(size)], x, y);
      const painted = calls.slice(from);
      return painted.slice(painted.indexOf('setLineDash([5,4])')).filter((c) => /^(lineWidth|setTransform|stroke\(|setLineDash)/.test(c));
    };
    const dashed = (between: string[]) => ['setLineDash([5,4])', ...between, 'setLineDash([])'];
    // 1.5 px: two 1-px strokes, half a pixel apart
    expect(strokes(1, 1.5)).toEqual(dashed(['lineWidth=1', 'setTransform(1,0,0,1,0,0)', 'stroke(path)', 'setTransform(1,0,0,1,0.5,0.5)', 'stroke(path)', 'setTransform(1,0,0,1,0,0)']));
    // at two device pixels a CSS pixel: three strokes a device pixel wide (half a CSS pixel), 0, 1 and 2 device pixels off
    expect(strokes(2, 1.5)).toEqual(
      dashed(['lineWidth=0.5', 'setTransform(2,0,0,2,0,0)', 'stroke(path)', 'setTransform(2,0,0,2,1,1)', 'stroke(path)', 'setTransform(2,0,0,2,2,2)', 'stroke(path)', 'setTransform(2,0,0,2,0,0)']),
    );
    // 1.2 px at one device pixel a CSS pixel: one hairline
    expect(strokes(1, 1.2).filter((c) => c === 'stroke(path)')).toHaveLength(1);
  });

  it('paints the whole time range once: the same layers on the same scales are left as they are', () => {
    const { canvas, calls } = fakeCanvas();
    const p = new Painter(canvas);
    p.resize(10, 10, 1);
    const send: Layer = { kind: 'step', data: Float64Array.of(1, 1, 2, 2, 9, 3), color: '#000002', label: 'send', size: 2 };
    const layers = [send];
    p.paint(layers, x, y);
    // up to the last point, at 9 ms (the chart covers what lies after its playhead)
    expect(calls.filter((c) => c.startsWith('lineTo(9,'))).toEqual(['lineTo(9,8)', 'lineTo(9,7)']);
    const before = calls.length;
    p.paint(layers, x, y);
    expect(calls.length).toBe(before);
    p.paint([...layers], x, y);
    expect(calls.length).toBeGreaterThan(before);
  });
});

describe('the y range of a chart', () => {
  it('follows the time domain for the same series, and skips bands, ticks and non-numbers', () => {
    const window: Layer = { kind: 'step', data: Float64Array.of(0, 5, 10, 20, 20, Number.NaN, 30, 2), color: '#0072B2', label: 'window' };
    const ticks: Layer = { kind: 'marks', data: Float64Array.of(15, 99), color: '#000000', label: 'loss' };
    expect(yExtent([window, ticks], [0, 30])).toEqual([2, 20]);
    expect(yExtent([window, ticks], [0, 5])).toEqual([5, 5]);
    expect(yExtent([window], [11, 29])).toEqual([Infinity, -Infinity]);
    expect(yExtent([window], [0, 30])).toEqual([2, 20]);
  });
});

describe('a step line', () => {
  const x = scaleLinear().domain([0, 1000]).range([0, 100]);
  const y = scaleLinear().domain([0, 10]).range([100, 0]);
  /** The points a step layer's path goes through, traced from `from` to `until` ms. */
  const traced = (l: Layer, from: number, until: number) => {
    const points: string[] = [];
    const sink = { moveTo: (px: number, py: number) => points.push(`M${px},${py}`), lineTo: (px: number, py: number) => points.push(`L${px},${py}`), rect() {}, closePath() {} };
    traceLayer(sink, l, x, y, 100, from, until);
    return points;
  };
  const estimate: Layer = { kind: 'step', data: Float64Array.from([0, 2, 200, 5]), color: '#000', label: 'ssthresh' };

  it('holds an estimate logged only when it moves at its last level to the run’s end', () => {
    expect(traced({ ...estimate, holdTo: 800 }, 0, 1000)).toEqual(['M0,80', 'L0,80', 'L20,80', 'L20,50', 'L80,50']);
    // without an end to hold to, it stops at its last point
    expect(traced(estimate, 0, 1000)).toEqual(['M0,80', 'L0,80', 'L20,80', 'L20,50']);
  });

  it('zoomed in, holds its level to the edge of the range, where the next point lies beyond it', () => {
    expect(traced(estimate, 0, 150)).toEqual(['M0,80', 'L0,80', 'L15,80']);
    expect(traced({ ...estimate, holdTo: 800 }, 300, 500)).toEqual(['M20,50', 'L20,50', 'L50,50']);
  });
});
