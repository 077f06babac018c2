import { Fragment, type RefObject, useCallback, useMemo, useRef } from 'react';
import { PlaneChart, type PlanePoint } from '../charts/PlaneChart.tsx';
import { COLORS, SIDE_STYLE } from '../charts/palette.ts';
import type { Layer } from '../charts/painter.ts';
import { TimeChart, yExtent } from '../charts/TimeChart.tsx';
import { SummaryCards } from '../components/Summary.tsx';
import type { Experiment } from '../state/experiment.ts';
import type { RunView } from '../worker/protocol.ts';
import type { CaptionRow, RunFacts } from '../teach/captions.ts';
import { Exercises } from '../teach/Exercises.tsx';
import { offsetCaption } from '../teach/offsetCaption.ts';
import { readyFor } from './exerciseSetup.ts';
import type { Stale } from './freshness.ts';
import { type ChartDef, chartsOf, overlayOf, towardWhite } from './layers.ts';
import type { TimeSource } from './playhead.ts';
import type { Runs, Slot } from './useRuns.ts';

/** A word for a busy side, and what its slow user code says (web/app/slowNotes.ts). */
const busyWith = (word: string, slow: string | undefined) => (slow ? `${word} ${slow}` : word);

function sideNote(view: RunView | undefined, busy: boolean | undefined, slow: string | undefined): string {
  if (!view) return busy ? 'running…' : '';
  const what = view.source === 'live' ? (view.live ? (view.live.result === null ? 'live, stopped' : 'live, done') : 'live, fetching…') : view.source;
  return `${what}${view.source === 'simulated' ? ` in ${view.wallMs.toFixed(0)} ms` : ''}${busy && view.source !== 'live' ? ` · ${busyWith('updating…', slow)}` : ''}`;
}

/** Both runs' cards, and for the contest the throughput–delay plane with the omniscient point. */
export function Overview({ e, setE, runs, label, stale, said }: { e: Experiment; setE(e: Experiment): void; runs: Runs; label(slot: Slot): string; stale: Stale; said: Captions }) {
  const points: PlanePoint[] = [];
  for (const s of ['a', 'b'] as const) {
    const v = runs.views[s];
    if (v)
      points.push({
        label: label(s).replace(' · ', ' '),
        throughputMbps: v.summary.all.throughputMbps,
        delay95: v.summary.all.delay95,
        color: SIDE_STYLE[s].color,
        marker: SIDE_STYLE[s].marker,
      });
  }
  const plane = said.plane;
  const omni = runs.views.a?.summary.omniscient ?? runs.views.b?.summary.omniscient;
  if (omni) points.push({ label: 'omniscient', throughputMbps: omni.throughputMbps, delay95: omni.delay95, color: COLORS.ink, marker: 'star' });
  return (
    <div className="overview">
      {(['a', 'b'] as const).map((s) => {
        const view = runs.views[s];
        const why = stale[s];
        return view ? (
          <SummaryCards
            key={s}
            summary={view.summary}
            side={label(s)}
            color={SIDE_STYLE[s].color}
            note={why ? `previous run: ${why}` : sideNote(view, runs.busy[s], runs.slow[s])}
            stale={Boolean(why)}
            offset={e.scenario === 'offset'}
          />
        ) : (
          <CardsPlace key={s} e={e} runs={runs} s={s} label={label(s)} />
        );
      })}
      <div className="plane-side">
        {e.scenario === 'contest' && <PlaneChart points={points} width={380} height={200} short />}
        <Exercises e={e} runs={(['a', 'b'] as const).map((s) => ({ slot: s, side: label(s), summary: runs.views[s]?.summary }))} choose={(exercise) => setE(readyFor(e, exercise))} />
      </div>
      {e.scenario === 'contest' &&
        (plane ? (
          <p className="caption" data-caption="plane">
            {plane}
          </p>
        ) : (
          <CaptionPlace />
        ))}
      {e.scenario === 'offset' && <OffsetCaption runs={runs} label={label} />}
    </div>
  );
}

/** A side's place before its run is in: what it waits for, over the offset exercise's empty cards. */
function CardsPlace({ e, runs, s, label }: { e: Experiment; runs: Runs; s: Slot; label: string }) {
  // a live fetch runs in a worker of its own: beats from the side's simulation worker are an older run's
  const slow = s === 'a' && e.live ? undefined : runs.slow[s];
  const note = runs.errors[s] ? '' : s === 'a' && e.live && !runs.busy.a ? 'live: no fetch yet (press Start live fetch)' : busyWith('running…', slow);
  if (e.scenario === 'offset') return <SummaryCards summary={null} side={label} color={SIDE_STYLE[s].color} note={note} />;
  return (
    <section className="cards" aria-label={`Summary of run ${SIDE_STYLE[s].name}`}>
      <h3>{label}</h3>
      <p>{note}</p>
    </section>
  );
}

/** The offset scenario's words under the cards: each side's fetch, and what ranks them. */
function OffsetCaption({ runs, label }: { runs: Runs; label(s: Slot): string }) {
  const sides = (['a', 'b'] as const).flatMap((s) => (runs.views[s] ? [{ name: label(s), summary: runs.views[s].summary, live: runs.views[s].live }] : []));
  return sides.length > 0 ? (
    <p className="caption" data-caption="offset">
      {offsetCaption(sides)}
    </p>
  ) : (
    <CaptionPlace offset />
  );
}

/** The place a caption will take once its runs are in, kept meanwhile so the charts below do not jump. */
const CaptionPlace = ({ offset = false }: { offset?: boolean }) => <div className={offset ? 'caption-place offset' : 'caption-place'} aria-hidden="true" />;

/** What the page says of both runs, under the plane and each row of charts. */
export type Captions = Record<CaptionRow, string>;

/** What the captions and the pipe line need of each side's shown run, worked out once per run. */
export type Facts = Record<Slot, RunFacts | null>;

type Ranges = Map<string, [number, number]>;

/** Whether a side shows a run whose successor is under way (a live run grows instead). */
const waitsForRun = (runs: Runs, s: Slot) => Boolean(runs.busy[s]) && runs.views[s] !== undefined && runs.views[s].source !== 'live';

/**
 * The y ranges each side's charts draw on: the shared ones, except that a side whose next run is under
 * way keeps those it has (at the same time range): its charts are about to be replaced, and repainting
 * them for the other side's new run first would paint them twice.
 */
function useRangesWhileWaiting(shared: Ranges, domain: [number, number], waiting: Record<Slot, boolean>): Record<Slot, Ranges> {
  const held = useRef({ domain, ranges: { a: shared, b: shared } });
  const fresh = held.current.domain !== domain;
  held.current.domain = domain;
  for (const s of ['a', 'b'] as const) if (fresh || !waiting[s]) held.current.ranges[s] = shared;
  return held.current.ranges;
}

/**
 * The time a side's charts follow: the playhead, except while the side's next run is under way, when they
 * stand where the playhead was as the wait began. Sliding the covers over a run about to be replaced is
 * compositor work every frame, and on a two-core machine it takes time from the simulations.
 */
function useHeldWhileWaiting(playhead: TimeSource, waiting: boolean): TimeSource | number {
  const held = useRef<number | null>(null);
  if (!waiting) held.current = null;
  else held.current ??= playhead.now();
  return held.current ?? playhead;
}

interface ColumnsProps {
  offset: boolean;
  runs: Runs;
  domain: [number, number];
  playhead: TimeSource;
  setZoom(d: [number, number] | null): void;
  label(slot: Slot): string;
  root: RefObject<HTMLDivElement | null>;
  facts: Facts;
  said: Captions;
  overlay: boolean;
  setOverlay(on: boolean): void;
  stale: Stale;
}

/**
 * Each side's charts (before a side's first run is whole, of its first seconds: the playback starts
 * there), the rows they make, the y range each row's two charts share, and the rows overlaid.
 */
function useSideCharts(runs: Runs, offset: boolean, facts: Facts, domain: [number, number], stale: Stale) {
  // Each side's charts change only with its own run, so a change to A leaves B's canvases as they are.
  const seriesA = runs.views.a?.series ?? runs.previews.a;
  const seriesB = runs.views.b?.series ?? runs.previews.b;
  const chartsA = useMemo(() => (seriesA ? chartsOf(seriesA, offset, facts.a?.bdp ?? null, facts.a?.timer) : []), [seriesA, offset, facts.a]);
  const chartsB = useMemo(() => (seriesB ? chartsOf(seriesB, offset, facts.b?.bdp ?? null, facts.b?.timer) : []), [seriesB, offset, facts.b]);
  const rows = [...new Set([...chartsA, ...chartsB].map((c) => c.id))];
  // A's and B's charts of a kind share their y range, so the eye compares heights across the columns.
  const sharedY = useMemo(() => {
    const ranges = new Map<string, [number, number]>();
    for (const c of [...chartsA, ...chartsB]) {
      const [lo, hi] = yExtent(c.layers, domain);
      const was = ranges.get(c.id) ?? [Infinity, -Infinity];
      ranges.set(c.id, [Math.min(was[0], lo), Math.max(was[1], hi)]);
    }
    return ranges;
  }, [chartsA, chartsB, domain]);
  // Built once per pair of runs, so playback paints the overlaid charts incrementally too.
  // Overlaid, a run the settings no longer describe is drawn faded, as its column would be dimmed.
  const [fadedA, fadedB] = [Boolean(stale.a), Boolean(stale.b)];
  const overlaid = useMemo(() => {
    const color = (s: Slot, faded: boolean) => (faded ? towardWhite(SIDE_STYLE[s].color, 0.6) : SIDE_STYLE[s].color);
    const colors = { a: color('a', fadedA), b: color('b', fadedB) };
    return new Map([...new Set([...chartsA, ...chartsB].map((c) => c.id))].map((id) => [id, overlayOf({ a: chartsA.find((c) => c.id === id), b: chartsB.find((c) => c.id === id) }, colors)]));
  }, [chartsA, chartsB, fadedA, fadedB]);
  return { chartsA, chartsB, rows, sharedY, overlaid };
}

/** Each column's heading, and on B's the switch that overlays the two. */
function ColumnHeads({ label, overlay, setOverlay }: { label(slot: Slot): string; overlay: boolean; setOverlay(on: boolean): void }) {
  return (['a', 'b'] as const).map((s) => (
    <div key={s} className="column column-head" data-side={s}>
      <h2 style={{ borderColor: SIDE_STYLE[s].color }}>{label(s)}</h2>
      {s === 'b' && (
        <label className="overlay-switch">
          <input type="checkbox" checked={overlay} onChange={(e) => setOverlay(e.target.checked)} data-action="overlay" /> overlay A and B
        </label>
      )}
    </div>
  ));
}

/** The time axis every chart shares: its range, and zooming it (a brush) or back out (a double click). */
interface Axis {
  domain: [number, number];
  setZoom(d: [number, number] | null): void;
  resetZoom(): void;
}

/** One chart of a row on the shared time axis, drawing `layers` up to `tNow`. */
function RowChart({ chart, layers, sharedY, tNow, axis }: { chart: ChartDef; layers: Layer[]; sharedY: [number, number] | undefined; tNow: TimeSource | number; axis: Axis }) {
  return (
    <TimeChart
      title={chart.title}
      yLabel={chart.yLabel}
      layers={layers}
      fitY={chart.fitY}
      sharedY={sharedY}
      domain={axis.domain}
      tNow={tNow}
      onBrush={axis.setZoom}
      onReset={axis.resetZoom}
      paintOffscreenLater
    />
  );
}

/** What the page says under a row of charts, if anything. */
function RowCaption({ said, id }: { said: Captions | null; id: string }) {
  const text = said?.[id as CaptionRow];
  return (
    text && (
      <p className="caption" data-caption={id}>
        {text}
      </p>
    )
  );
}

/** Each side's charts in its column, on the shared time axis, row by row with what each row says under it. */
export function Columns({ offset, runs, domain: asked, playhead, setZoom, label, root, facts, said: saidBoth, overlay, setOverlay, stale }: ColumnsProps) {
  // The same range and handler from render to render, so the memoised charts skip renders that change neither.
  const domain = useMemo<[number, number]>(() => [asked[0], asked[1]], [asked[0], asked[1]]);
  const resetZoom = useCallback(() => setZoom(null), [setZoom]);
  const axis = { domain, setZoom, resetZoom };
  const { chartsA, chartsB, rows, sharedY, overlaid } = useSideCharts(runs, offset, facts, domain, stale);
  const waiting = { a: waitsForRun(runs, 'a'), b: waitsForRun(runs, 'b') };
  const yRanges = useRangesWhileWaiting(sharedY, domain, waiting);
  const time = { a: useHeldWhileWaiting(playhead, waiting.a), b: useHeldWhileWaiting(playhead, waiting.b) };
  const timeOverlaid = useHeldWhileWaiting(playhead, waiting.a || waiting.b);
  // A live run draws all it has; a live side makes the overlaid charts whole too.
  const live = (s: Slot) => runs.views[s]?.source === 'live';
  const tNow = (s: Slot) => (live(s) ? Infinity : time[s]);
  return (
    <div className={overlay ? 'columns overlay' : 'columns'} ref={root}>
      <ColumnHeads label={label} overlay={overlay} setOverlay={setOverlay} />
      {rows.map((id) => {
        const sides = [
          ['a', chartsA.find((x) => x.id === id)],
          ['b', chartsB.find((x) => x.id === id)],
        ] as const;
        return (
          <Fragment key={id}>
            {overlay ? (
              <div className="overlay-cell" data-overlay={id}>
                <RowChart chart={(sides[0][1] ?? sides[1][1])!} layers={overlaid.get(id)!} sharedY={sharedY.get(id)} tNow={live('a') || live('b') ? Infinity : timeOverlaid} axis={axis} />
              </div>
            ) : (
              sides.map(([s, c]) => (
                // dimmed as its cards are, so no chart reads as the run the sidebar describes
                <div key={s} className={stale[s] ? 'column stale' : 'column'} data-side={s}>
                  {c && <RowChart chart={c} layers={c.layers} sharedY={yRanges[s].get(id)} tNow={tNow(s)} axis={axis} />}
                </div>
              ))
            )}
            <RowCaption said={offset ? null : saidBoth} id={id} />
          </Fragment>
        );
      })}
    </div>
  );
}
