import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TimeSource } from '../app/playhead.ts';
import { Axes } from './Axes.tsx';
import { ZOOM_KEYS, zoomByKey } from './keyZoom.ts';
import { seconds } from './format.ts';
import { type Layer, markFirstChart, Painter } from './painter.ts';
import { recordPicture } from './picture.ts';
import { useOnScreen, whenPlaced } from './useOnScreen.ts';

export interface TimeChartProps {
  title: string;
  yLabel: string;
  layers: Layer[];
  /** Visible time range, ms. */
  domain: [number, number];
  /**
   * The playhead, ms, or one that moves (followed without rendering): marks after it are covered until
   * it comes.
   */
  tNow: number | TimeSource;
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

/** A playhead that stays where it is. */
const standing = (t: number): TimeSource => ({ now: () => t, rate: () => 0, subscribe: () => () => {} });

/**
 * Puts the cover of what lies after the playhead at time `t` (its edge is the playhead's line; at the end
 * of the time range it leaves the plot) and, when the playhead moves, slides it on at the same pace
 * until the range's end: the animation of a transform runs off the page's thread.
 */
function slideCover(cover: HTMLElement, x: ScaleLinear<number, number>, t: number, rate: number, innerW: number): Animation | null {
  const [t0, t1] = x.domain();
  const out = innerW + 2;
  const at = (u: number) => `translateX(${u >= t1 ? out : Math.max(0, x(u))}px)`;
  cover.style.transform = at(t);
  if (rate <= 0 || t >= t1) return null;
  const from = Math.max(t, t0);
  return cover.animate([{ transform: at(from) }, { transform: `translateX(${out}px)` }], {
    delay: (from - t) / rate,
    duration: (t1 - from) / rate,
    easing: 'linear',
    fill: 'forwards',
  });
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

/** The element's width in whole pixels: measured before the first paint (a new chart paints in its first frame), then as it changes. */
function useWidth(box: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => setWidth(Math.floor(box.current!.getBoundingClientRect().width)), [box]);
  useEffect(() => {
    const ro = new ResizeObserver(([e]) => setWidth(Math.floor(e.contentRect.width)));
    ro.observe(box.current!);
    return () => ro.disconnect();
  }, [box]);
  return width;
}

/** The y scale: the other side's shared range or the layers' own inside the time domain, padded and niced. */
function useYScale(layers: Layer[], domain: [number, number], o: { sharedY?: [number, number]; yMin: number; fitY: boolean; innerH: number }): ScaleLinear<number, number> {
  const { sharedY, yMin, fitY, innerH } = o;
  const own = useMemo(() => (sharedY ? null : yExtent(layers, domain)), [layers, domain[0], domain[1], sharedY]);
  const [lo, hi] = sharedY ?? own!;
  return useMemo(() => {
    const top = Math.max(yMin, Number.isFinite(hi) ? hi : 0);
    const bottom = fitY && Number.isFinite(lo) ? lo : 0;
    const pad = (top - bottom) * 0.05 || 1;
    return scaleLinear()
      .domain([Math.max(0, bottom - (fitY ? pad : 0)), top + pad])
      .range([innerH, 0])
      .nice();
  }, [lo, hi, fitY, yMin, innerH]);
}

interface Frame {
  layers: Layer[];
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  innerW: number;
  innerH: number;
}

/**
 * Paints the layers on the canvas whenever they or the scales change; off screen, when idle if asked. On
 * screen, as the change is committed: the new run's chart shows in the frame that shows its figures, not
 * in the one after.
 */
function usePaint(box: React.RefObject<HTMLDivElement | null>, canvas: React.RefObject<HTMLCanvasElement | null>, f: Frame, width: number, later: boolean): void {
  const painter = useRef<Painter | null>(null);
  const onScreen = useOnScreen(box, later);
  const { layers, x, y, innerW, innerH } = f;
  useLayoutEffect(() => {
    if (!canvas.current || width === 0) return;
    const paint = () => {
      // A chart leaving the page loses its canvas before its effects are cleaned up, and a paint put off
      // until the page is idle or laid out can fall in between.
      if (!canvas.current) return;
      painter.current ??= new Painter(canvas.current);
      painter.current.resize(innerW, innerH, window.devicePixelRatio || 1);
      painter.current.paint(layers, x, y);
    };
    if (!later || onScreen) return paint();
    if (onScreen === false) return idle(paint);
    return whenPlaced(box.current!, paint, () => idle(paint));
  }, [box, canvas, layers, x, y, width, innerW, innerH, onScreen, later]);
}

/**
 * The canvas holds the whole run; a cover hides what comes after the playhead, and while the run plays
 * the compositor slides it, so playing costs the page nothing frame by frame. Set as the change is
 * committed, like the canvas: the frame that shows a new run shows its cover where it belongs.
 */
function useCover(box: React.RefObject<HTMLDivElement | null>, cover: React.RefObject<HTMLDivElement | null>, f: Frame, tNow: number | TimeSource): void {
  const { layers, x, y, innerW, innerH } = f;
  useLayoutEffect(() => {
    const source = typeof tNow === 'number' ? standing(tNow) : tNow;
    // The picture is what the chart shows, painted yet or not: an export draws it from this.
    recordPicture(box.current!, { layers, x, y, innerH });
    let slide: Animation | null = null;
    let unmark = () => {};
    const follow = () => {
      slide?.cancel();
      unmark();
      // the playhead may move between the chart leaving the page and this effect's cleanup
      if (!cover.current) return;
      const [t, rate] = [source.now(), source.rate()];
      slide = slideCover(cover.current, x, t, rate, innerW);
      unmark = markFirstChart(layers, t, rate);
    };
    follow();
    const unsubscribe = source.subscribe(follow);
    return () => {
      unsubscribe();
      slide?.cancel();
      unmark();
    };
  }, [box, cover, layers, x, y, tNow, innerW, innerH]);
}

/** Drag across the plot to pick a time span (more than 4 px), handed to `onBrush`; the span being dragged, to draw. */
function useBrush(innerW: number, x: ScaleLinear<number, number>, onBrush: (domain: [number, number]) => void) {
  const [drag, setDrag] = useState<[number, number] | null>(null);
  const local = (e: React.PointerEvent) => Math.min(innerW, Math.max(0, e.clientX - (e.currentTarget as Element).getBoundingClientRect().left - MARGIN.left));
  const handlers = {
    onPointerDown: (e: React.PointerEvent) => {
      (e.currentTarget as Element).setPointerCapture(e.pointerId);
      const at = local(e);
      setDrag([at, at]);
    },
    onPointerMove: (e: React.PointerEvent) => drag && setDrag([drag[0], local(e)]),
    onPointerUp: () => {
      if (drag && Math.abs(drag[1] - drag[0]) > 4) {
        const [a, b] = [Math.min(...drag), Math.max(...drag)];
        onBrush([x.invert(a), x.invert(b)]);
      }
      setDrag(null);
    },
  };
  return { drag, handlers };
}

/**
 * A time-series chart: marks on a canvas, axes and the playhead in SVG, drag to zoom, double-click to
 * reset; focused, keys zoom and move it too (zoomByKey). Memoised: a page re-rendering for a slider leaves the charts whose props did not change alone.
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
  const cover = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const innerW = Math.max(10, width - MARGIN.left - MARGIN.right);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const x: ScaleLinear<number, number> = useMemo(() => scaleLinear().domain(domain).range([0, innerW]), [domain[0], domain[1], innerW]);
  const y = useYScale(layers, domain, { sharedY, yMin, fitY, innerH });
  const frame = { layers, x, y, innerW, innerH };
  usePaint(box, canvas, frame, width, paintOffscreenLater);
  useCover(box, cover, frame, tNow);
  const { drag, handlers } = useBrush(innerW, x, onBrush);

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
      <div
        className="plot"
        style={{ height }}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the plot answers keys (zoomByKey), a widget of its own.
        tabIndex={0}
        role="application"
        aria-roledescription="zoomable chart"
        aria-label={`${title}: + and − zoom in and out, ← and → move along the time axis, 0 shows everything`}
        aria-keyshortcuts={ZOOM_KEYS}
        onKeyDown={(e) => {
          const asked = zoomByKey(e.key, domain);
          if (asked === null) return;
          e.preventDefault();
          if (asked === 'all') onReset();
          else onBrush(asked);
        }}
      >
        <canvas ref={canvas} style={{ position: 'absolute', left: MARGIN.left, top: MARGIN.top }} />
        <div className="future" style={{ left: MARGIN.left, top: MARGIN.top, width: innerW, height: innerH }}>
          <div ref={cover} />
        </div>
        <svg width={width} height={height} {...handlers} onDoubleClick={onReset}>
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            <Axes x={x} y={y} xTicks={x.ticks(6)} yTicks={y.ticks(4)} innerW={innerW} innerH={innerH} formatX={seconds} yLabel={yLabel} />
            {drag && <rect x={Math.min(...drag)} width={Math.abs(drag[1] - drag[0])} height={innerH} className="brush" />}
          </g>
        </svg>
      </div>
    </figure>
  );
});
