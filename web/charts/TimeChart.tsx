import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Axes } from './Axes.tsx';
import { seconds } from './format.ts';
import { Painter, type Layer } from './painter.ts';
import { recordPicture } from './picture.ts';
import { nearWindow, useOnScreen } from './useOnScreen.ts';

export interface TimeChartProps {
  title: string;
  yLabel: string;
  layers: Layer[];
  /** Visible time range, ms. */
  domain: [number, number];
  /** The playhead, ms: marks after it are not drawn yet. */
  tNow: number;
  height?: number;
  /** A lower bound for the top of the y axis (so empty charts still read). */
  yMin?: number;
  /** Fit the y axis to the visible points (sequence numbers) instead of starting it at 0. */
  fitY?: boolean;
  /** A y range shared with the other side's chart of the same kind, in place of this chart's own. */
  sharedY?: [number, number];
  onBrush(domain: [number, number]): void;
  onReset(): void;
  /**
   * Off screen, paint only once the page is idle: with a page of charts, the ones on screen show a new run
   * sooner (an off-screen one paints at once when it scrolls into view).
   */
  paintOffscreenLater?: boolean;
}

const MARGIN = { left: 48, right: 12, top: 8, bottom: 22 };

/** Each series' y range for the last time domain asked: when one side's run changes, the other's stand. */
const extents = new WeakMap<Float64Array, { t0: number; t1: number; min: number; max: number }>();

function seriesExtent(d: Float64Array, t0: number, t1: number): { min: number; max: number } {
  const known = extents.get(d);
  if (known && known.t0 === t0 && known.t1 === t1) return known;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < d.length; i += 2) {
    if (d[i] < t0 || d[i] > t1 || !Number.isFinite(d[i + 1])) continue;
    if (d[i + 1] > max) max = d[i + 1];
    if (d[i + 1] < min) min = d[i + 1];
  }
  extents.set(d, { t0, t1, min, max });
  return { min, max };
}

/** The y range of the layers' points inside the time domain. */
export function yExtent(layers: Layer[], [t0, t1]: [number, number]): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const l of layers) {
    if (l.kind === 'bands' || l.kind === 'marks') continue;
    const e = seriesExtent(l.data, t0, t1);
    min = Math.min(min, e.min);
    max = Math.max(max, e.max);
  }
  return [min, max];
}

/** The longest an off-screen chart waits for an idle moment before it paints anyway, ms. */
const OFFSCREEN_WAIT_MS = 200;

const idle: (paint: () => void) => () => void =
  typeof requestIdleCallback === 'function'
    ? (paint) => {
        const id = requestIdleCallback(paint, { timeout: OFFSCREEN_WAIT_MS });
        return () => cancelIdleCallback(id);
      }
    : (paint) => {
        const id = setTimeout(paint, OFFSCREEN_WAIT_MS / 2);
        return () => clearTimeout(id);
      };

/**
 * A time-series chart: marks on a canvas, axes and the playhead in SVG, drag to zoom, double-click to
 * reset. Memoised: a page re-rendering for a slider leaves the charts whose props did not change alone.
 */
export const TimeChart = memo(function TimeChart({
  title,
  yLabel,
  layers,
  domain,
  tNow,
  height = 170,
  yMin = 1,
  fitY = false,
  sharedY,
  onBrush,
  onReset,
  paintOffscreenLater = false,
}: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const painter = useRef<Painter | null>(null);
  const [width, setWidth] = useState(0);
  const [drag, setDrag] = useState<[number, number] | null>(null);

  // The width now, before the first paint (a new chart paints in its first frame), then as it changes.
  useLayoutEffect(() => setWidth(Math.floor(box.current!.getBoundingClientRect().width)), []);
  useEffect(() => {
    const ro = new ResizeObserver(([e]) => setWidth(Math.floor(e.contentRect.width)));
    ro.observe(box.current!);
    return () => ro.disconnect();
  }, []);

  const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const x: ScaleLinear<number, number> = useMemo(() => scaleLinear().domain(domain).range([0, innerW]), [domain[0], domain[1], innerW]);
  const own = useMemo(() => (sharedY ? null : yExtent(layers, domain)), [layers, domain[0], domain[1], sharedY]);
  const [lo, hi] = sharedY ?? own!;
  const y: ScaleLinear<number, number> = useMemo(() => {
    const top = Math.max(yMin, Number.isFinite(hi) ? hi : 0);
    const bottom = fitY && Number.isFinite(lo) ? lo : 0;
    const pad = (top - bottom) * 0.05 || 1;
    return scaleLinear()
      .domain([Math.max(0, bottom - (fitY ? pad : 0)), top + pad])
      .range([innerH, 0])
      .nice();
  }, [lo, hi, fitY, yMin, innerH]);

  const onScreen = useOnScreen(box, paintOffscreenLater);
  useEffect(() => {
    if (!canvas.current || width === 0) return;
    // The picture is what the chart shows, painted yet or not: an export draws it from this.
    recordPicture(box.current!, { layers, x, y, tNow, innerH });
    const paint = () => {
      painter.current ??= new Painter(canvas.current!);
      painter.current.resize(innerW, innerH, window.devicePixelRatio || 1);
      painter.current.paint(layers, x, y, tNow);
    };
    if (!paintOffscreenLater || (onScreen ?? nearWindow(box.current!))) return paint();
    return idle(paint);
  }, [layers, x, y, tNow, width, innerW, innerH, onScreen, paintOffscreenLater]);

  const local = (e: React.PointerEvent) => Math.min(innerW, Math.max(0, e.clientX - (e.currentTarget as Element).getBoundingClientRect().left - MARGIN.left));
  const head = x(Math.min(tNow, domain[1]));

  return (
    <figure className="chart" ref={box} aria-label={title}>
      <figcaption>
        <span>{title}</span>
        <span className="legend">
          {layers.map((l) => (
            <span key={l.label} className="key">
              <i style={{ background: l.color }} className={l.kind === 'marks' ? (l.hang ? 'tick-key hang' : 'tick-key') : undefined} />
              {l.label}
            </span>
          ))}
        </span>
      </figcaption>
      <div className="plot" style={{ height }}>
        <canvas ref={canvas} style={{ position: 'absolute', left: MARGIN.left, top: MARGIN.top }} />
        <svg
          width={width}
          height={height}
          onPointerDown={(e) => {
            (e.currentTarget as Element).setPointerCapture(e.pointerId);
            const at = local(e);
            setDrag([at, at]);
          }}
          onPointerMove={(e) => drag && setDrag([drag[0], local(e)])}
          onPointerUp={() => {
            if (drag && Math.abs(drag[1] - drag[0]) > 4) {
              const [a, b] = [Math.min(...drag), Math.max(...drag)];
              onBrush([x.invert(a), x.invert(b)]);
            }
            setDrag(null);
          }}
          onDoubleClick={onReset}
        >
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            <Axes x={x} y={y} xTicks={x.ticks(6)} yTicks={y.ticks(4)} innerW={innerW} innerH={innerH} formatX={seconds} yLabel={yLabel} />
            {tNow < domain[1] && <line x1={head} x2={head} y1={0} y2={innerH} className="playhead" />}
            {drag && <rect x={Math.min(...drag)} width={Math.abs(drag[1] - drag[0])} height={innerH} className="brush" />}
          </g>
        </svg>
      </div>
    </figure>
  );
});
