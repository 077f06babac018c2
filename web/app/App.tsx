import { useEffect, useMemo, useRef, useState } from 'react';
import { findScheme } from '../../shared/controllers/registry.ts';
import { linkValues } from '../../shared/link/params.ts';
import { constantRateTrace, formatTrace } from '../../shared/trace/mahimahi.ts';
import { policyValues } from '../../shared/offset/params.ts';
import type { RelayInfo } from '../../server/relay.ts';
import { PlaneChart, type PlanePoint } from '../charts/PlaneChart.tsx';
import { COLORS, SIDE_STYLE } from '../charts/palette.ts';
import { TimeChart } from '../charts/TimeChart.tsx';
import { Playback, type PlaybackState } from '../components/Playback.tsx';
import { Sidebar } from '../components/Sidebar.tsx';
import { SummaryCards } from '../components/Summary.tsx';
import { download } from '../export/download.ts';
import { chartsSvg, svgToPng } from '../export/image.ts';
import { decodeExperiment, DEFAULT_EXPERIMENT, encodeExperiment, SCENARIO_SIDES, type Experiment, type Scenario } from '../state/experiment.ts';
import { specFor } from '../state/spec.ts';
import type { RunView } from '../worker/protocol.ts';
import { chartsOf } from './layers.ts';
import { useRuns, type Slot } from './useRuns.ts';

type RelayState = RelayInfo | 'absent' | 'unknown';

function sideNote(view: RunView | undefined, busy: boolean | undefined): string {
  if (!view) return busy ? 'running…' : '';
  const what = view.source === 'live' ? (view.live ? 'live, done' : 'live, fetching…') : view.source;
  return `${what}${view.source === 'simulated' ? ` in ${view.wallMs.toFixed(0)} ms` : ''}${busy && view.source !== 'live' ? ' · updating…' : ''}`;
}

export function App() {
  const initial = useMemo(() => decodeExperiment(window.location.search), []);
  const [e, setE] = useState<Experiment>(initial.value);
  const [notices, setNotices] = useState<string[]>(initial.errors.map((m) => `The link asked for something this page cannot do, so it uses the default instead: ${m}`));
  const [uploaded, setUploaded] = useState<Record<string, number>>({});
  const uploadedText = useRef(new Map<string, string>());
  const runs = useRuns(e, uploaded);
  const [play, setPlay] = useState<PlaybackState>({ playing: true, speed: 10, t: 0 });
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const [relay, setRelay] = useState<RelayState>('unknown');
  const chartsRoot = useRef<HTMLDivElement>(null);

  const note = (m: string) => setNotices((n) => [...n.slice(-3), m]);

  useEffect(() => {
    window.history.replaceState(null, '', `?${encodeExperiment(e)}`);
  }, [e]);

  useEffect(() => {
    fetch('/api/relay')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((info: RelayInfo) => setRelay(info), () => setRelay('absent'));
  }, []);

  const endMs = Math.max(1, ...(['a', 'b'] as const).map((s) => runs.views[s]?.series.endMs ?? 0));
  const domain: [number, number] = zoom ?? [0, endMs];

  const ready = Boolean(runs.views.a || runs.views.b);
  useEffect(() => {
    if (!play.playing || !ready) return;
    let last = performance.now();
    let raf = requestAnimationFrame(function tick(now) {
      const dt = now - last;
      last = now;
      setPlay((p) => (p.t + dt * p.speed >= endMs ? { ...p, t: endMs, playing: false } : { ...p, t: p.t + dt * p.speed }));
      raf = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(raf);
  }, [play.playing, endMs, ready]);

  // Each side's charts change only with its own run, so a change to A leaves B's canvases as they are.
  const offset = e.scenario === 'offset';
  const chartsA = useMemo(() => (runs.views.a ? chartsOf(runs.views.a.series, offset) : []), [runs.views.a, offset]);
  const chartsB = useMemo(() => (runs.views.b ? chartsOf(runs.views.b.series, offset) : []), [runs.views.b, offset]);
  const charts = { a: chartsA, b: chartsB };

  const planePoints: PlanePoint[] = [];
  for (const s of ['a', 'b'] as const) {
    const v = runs.views[s];
    if (v) planePoints.push({ label: `${SIDE_STYLE[s].name} ${findScheme(e[s].scheme)?.title ?? ''}`, throughputMbps: v.summary.all.throughputMbps, delay95: v.summary.all.delay95, color: SIDE_STYLE[s].color, marker: SIDE_STYLE[s].marker });
  }
  const omni = runs.views.a?.summary.omniscient ?? runs.views.b?.summary.omniscient;
  if (omni) planePoints.push({ label: 'omniscient', throughputMbps: omni.throughputMbps, delay95: omni.delay95, color: COLORS.ink, marker: 'star' });

  const specA = specFor(e, 'a');
  const linkNow = { ...linkValues(specA.link) };
  const policyNow = specA.offset ? policyValues(specA.offset.policy) : {};

  const setScenario = (scenario: Scenario) => setE({ ...DEFAULT_EXPERIMENT, ...structuredClone(SCENARIO_SIDES[scenario]), scenario, seed: e.seed, link: {}, offset: {} });

  const onUpload = async (file: File) => {
    if (file.size > 50_000_000) return note(`${file.name}: larger than 50 MB, not a trace this page can take`);
    const name = file.name.replace(/[^\w.-]/g, '_');
    const text = await file.text();
    const r = await runs.pool.upload(name, text);
    if (r.kind === 'error') return note(`${file.name} is not a Mahimahi trace: ${r.message}`);
    if (r.kind === 'uploaded') {
      uploadedText.current.set(name, text);
      setUploaded((u) => ({ ...u, [name]: r.durationMs }));
      setE({ ...e, trace: `upload:${name}` });
    }
  };

  const onImport = async (file: File, slot: Slot) => {
    const r = await runs.pool.request(slot, { kind: 'replay', csv: await file.text() }, (view) => runs.show(slot, view));
    if (r.kind === 'error') note(`${file.name} could not be replayed: ${r.message}`);
    else setPlay({ playing: true, speed: play.speed, t: 0 });
  };

  const exportCsv = async (slot: Slot, what: 'trace' | 'intervals') => {
    try {
      download(`pipefill-${slot}-${e[slot].scheme}${what === 'trace' ? '' : '-intervals'}.csv`, await runs.pool.exportCsv(slot, what));
    } catch (err) {
      note(`The ${what} CSV could not be made: ${(err as Error).message}`);
    }
  };
  const exportTrace = (slot: Slot) => void exportCsv(slot, 'trace');
  const exportIntervals = (slot: Slot) => void exportCsv(slot, 'intervals');
  /** The data direction's delivery schedule as a Mahimahi trace file. */
  const exportLinkTrace = async () => {
    if (e.trace === 'rate') {
      const mbps = Number(linkNow.bandwidth);
      return download(`constant-${mbps}Mbps.trace`, formatTrace(constantRateTrace(mbps)), 'text/plain');
    }
    if (e.trace.startsWith('upload:')) return download(e.trace.slice(7), uploadedText.current.get(e.trace.slice(7)) ?? '', 'text/plain');
    const name = `${e.trace}.down`;
    const r = await fetch(`/traces/${name}`);
    if (r.ok) download(name, await r.text(), 'text/plain');
    else note(`The trace ${name} could not be fetched (${r.status}).`);
  };

  const exportImage = async (kind: 'svg' | 'png') => {
    const { svg, width, height } = chartsSvg(chartsRoot.current!);
    if (kind === 'svg') download('pipefill-charts.svg', svg, 'image/svg+xml');
    else download('pipefill-charts.png', await svgToPng(svg, width, height));
  };

  const liveTarget = relay !== 'absent' && relay !== 'unknown' ? (e.variable ? relay.offsetVariable : relay.offsetConstant) : null;
  const stateLabel = (slot: Slot) => `${SIDE_STYLE[slot].name} · ${findScheme(e[slot].scheme)?.title}`;

  return (
    <div className="app">
      <header>
        <div className="toolbar">
          <label>
            scenario
            <select value={e.scenario} onChange={(ev) => setScenario(ev.target.value as Scenario)} data-param="scenario">
              <option value="contest">Contest: cellular trace</option>
              <option value="offset">Offset server</option>
            </select>
          </label>
          {e.scenario === 'offset' && (
            <label>
              controller A runs
              <select value={e.live ? 'live' : 'sim'} onChange={(ev) => setE({ ...e, live: ev.target.value === 'live' })} data-param="mode">
                <option value="sim">simulated</option>
                <option value="live" disabled={!liveTarget}>
                  live, against the relay’s server
                </option>
              </select>
            </label>
          )}
          <label>
            seed
            <input type="number" min={0} value={e.seed} onChange={(ev) => Number.isInteger(Number(ev.target.value)) && Number(ev.target.value) >= 0 && setE({ ...e, seed: Number(ev.target.value) })} data-param="seed" style={{ width: '5em' }} />
          </label>
          <button type="button" onClick={() => setScenario(e.scenario)}>
            Reset to preset
          </button>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(window.location.href).then(() => note('The link to this experiment is on the clipboard.'), () => note(window.location.href))}>
            Copy link
          </button>
          <details className="menu">
            <summary>Export</summary>
            <div>
              {(['a', 'b'] as const).map((s) => (
                <span key={s}>
                  <button type="button" onClick={() => exportTrace(s)} disabled={!runs.views[s]} data-export={`trace-${s}`}>
                    Trace CSV, {stateLabel(s)}
                  </button>
                  <button type="button" onClick={() => exportIntervals(s)} disabled={!runs.views[s]} data-export={`intervals-${s}`}>
                    Per-interval CSV, {stateLabel(s)}
                  </button>
                </span>
              ))}
              {e.scenario === 'contest' && (
                <button type="button" onClick={() => void exportLinkTrace()} data-export="link-trace">
                  Link trace (Mahimahi format)
                </button>
              )}
              <button type="button" onClick={() => void exportImage('png')} data-export="png">
                Charts as PNG
              </button>
              <button type="button" onClick={() => void exportImage('svg')} data-export="svg">
                Charts as SVG
              </button>
            </div>
          </details>
          <details className="menu">
            <summary>Import CSV</summary>
            <div>
              {(['a', 'b'] as const).map((s) => (
                <label key={s}>
                  replay in {SIDE_STYLE[s].name}
                  <input type="file" accept=".csv,text/csv" onChange={(ev) => ev.target.files?.[0] && void onImport(ev.target.files[0], s)} data-import={s} />
                </label>
              ))}
            </div>
          </details>
        </div>
      </header>
      {notices.length > 0 && (
        <div className="notices" role="status">
          {notices.map((n, i) => (
            <p key={i}>
              {n} <button type="button" aria-label="Dismiss" onClick={() => setNotices((x) => x.filter((_, k) => k !== i))}>×</button>
            </p>
          ))}
        </div>
      )}
      {e.scenario === 'offset' && e.live && (
        <div className="live" role="status">
          {liveTarget ? (
            <>
              Controller A fetches the file from the relay’s {e.variable ? 'variable' : 'constant'}-rate server at {liveTarget} through the bridge.{' '}
              {runs.busy.a ? (
                <button type="button" onClick={runs.stopLive}>
                  Stop
                </button>
              ) : (
                <button type="button" onClick={() => runs.startLive(window.location.origin, liveTarget, e.variable)} data-action="start-live">
                  Start live fetch
                </button>
              )}
            </>
          ) : (
            'Live mode needs the relay (npm start), and it cannot be reached from this page. Simulated mode keeps working.'
          )}
        </div>
      )}
      {e.scenario === 'offset' && !e.live && relay === 'absent' && <p className="hint">Live mode is off: the relay that serves it is not reachable from this page.</p>}
      <div className="layout">
        <Sidebar e={e} set={setE} uploaded={Object.keys(uploaded)} onUpload={(f) => void onUpload(f)} linkNow={linkNow} policyNow={policyNow} />
        <main>
          <Playback state={play} endMs={endMs} onChange={setPlay} zoomed={zoom !== null} onResetZoom={() => setZoom(null)} />
          <div className="overview">
            {(['a', 'b'] as const).map((s) =>
              runs.views[s] ? (
                <SummaryCards key={s} summary={runs.views[s]!.summary} side={stateLabel(s)} color={SIDE_STYLE[s].color} note={sideNote(runs.views[s], runs.busy[s])} />
              ) : (
                <section key={s} className="cards" aria-label={`Summary of run ${SIDE_STYLE[s].name}`}>
                  <h3>{stateLabel(s)}</h3>
                  <p>{runs.errors[s] ? '' : 'running…'}</p>
                </section>
              ),
            )}
            {e.scenario === 'contest' && <PlaneChart points={planePoints} />}
          </div>
          {(['a', 'b'] as const).map((s) => runs.errors[s] && <p key={s} className="error" role="alert">{`${stateLabel(s)}: ${runs.errors[s]}`}</p>)}
          <div className="columns" ref={chartsRoot}>
            {(['a', 'b'] as const).map((s) => (
              <div key={s} className="column" data-side={s}>
                <h2 style={{ borderColor: SIDE_STYLE[s].color }}>{stateLabel(s)}</h2>
                {charts[s].map((c) => (
                  <TimeChart
                    key={c.id}
                    title={c.title}
                    yLabel={c.yLabel}
                    layers={c.layers}
                    fitY={c.fitY}
                    domain={domain}
                    tNow={runs.views[s]?.source === 'live' ? Infinity : play.t}
                    onBrush={(d) => setZoom(d)}
                    onReset={() => setZoom(null)}
                  />
                ))}
              </div>
            ))}
          </div>
        </main>
      </div>
    </div>
  );
}
