import { useEffect, useMemo, useRef, useState } from 'react';
import { findScheme } from '../../shared/controllers/registry.ts';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { useEditorState } from '../editor/userCode.ts';
import { SHARED_PRESETS, sharedBottleneck } from '../../shared/scenarios/presets.ts';
import { STARVATION, starvation } from '../../shared/scenarios/starvation.ts';
import { PlaneChart, type PlanePoint } from '../charts/PlaneChart.tsx';
import { TimeChart } from '../charts/TimeChart.tsx';
import type { RunView } from '../worker/protocol.ts';
import { WorkerPool } from '../worker/pool.ts';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { sharedLab } from '../state/labs.ts';
import type { Item } from '../state/codec.ts';
import { Notices } from '../components/Notices.tsx';
import { Guide } from '../teach/Guide.tsx';
import { useNotices } from '../components/useNotices.ts';
import { type FlowDef, FLOW_COLORS, FlowResults, FlowTable, flowLayers, PresetSelect } from './sharedLab/parts.tsx';
import { flowsUnit } from './sharedLab/rateUnit.ts';
import { withPageCode } from '../editor/userCode.ts';
import { pageCatalogue } from '../app/catalogue.ts';
import { pageSchemes } from '../editor/userCode.ts';
import { FairnessGrid, type GridSettings } from './fairness/FairnessGrid.tsx';

/**
 * The preset's flows: its file sizes and start times (both made for its link), with the given schemes
 * when the user already chose theirs (another bottleneck keeps the controllers being compared).
 */
function presetFlows(id: string, schemes?: string[]): FlowDef[] {
  // long-lived flows, all starting at once: the address keeps a size of 1 byte that nothing reads
  if (id === STARVATION.id) return starvation(schemes).flows.map((f) => ({ scheme: f.scheme, startMs: 0, bytes: 1 }));
  const spec = sharedBottleneck(SHARED_PRESETS.find((p) => p.id === id)!, schemes);
  return spec.flows.map((f) => ({ scheme: f.scheme, startMs: f.startMs, bytes: f.bytes! }));
}

/** The preset's link with the flows as the table sets them. */
function presetSpec(preset: string, flows: FlowDef[]) {
  const spec = sharedBottleneck(
    SHARED_PRESETS.find((p) => p.id === preset)!,
    flows.map((f) => f.scheme),
  );
  spec.flows = flows.map((f) => ({ scheme: f.scheme, params: {}, startMs: f.startMs, bytes: f.bytes }));
  return spec;
}

/** The run of the flows on the preset's link, again a moment after each change, with the zoom of its charts. */
function useSharedRun(preset: string, flows: FlowDef[]) {
  const [view, setView] = useState<RunView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [domain, setDomain] = useState<[number, number] | null>(null);
  const pool = useRef<WorkerPool | null>(null);
  // the newest run asked for: an older one that ends meanwhile (before the debounce asked for the newest) leaves the flag alone
  const newest = useRef(0);
  // the user's controller runs again once its code changed
  const code = useEditorState().installed;
  const version = flows.some((f) => f.scheme === USER_SCHEME_ID) ? code : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the flows run again when the user's code changes.
  useEffect(() => {
    pool.current ??= new WorkerPool();
    const spec = preset === STARVATION.id ? starvation(flows.map((f) => f.scheme)) : presetSpec(preset, flows);
    setError(null);
    setBusy(true);
    const asked = ++newest.current;
    const t = setTimeout(() => {
      void pool
        .current!.run('a', withPageCode(spec), (v) => {
          setView(v);
          setDomain(null);
        })
        .then((r) => {
          // A superseded run's successor is still under way, or yet to start, and clears the flag when it ends.
          if (r.kind === 'superseded' || asked !== newest.current) return;
          setBusy(false);
          if (r.kind === 'error') setError(r.message);
        });
    }, 150);
    return () => clearTimeout(t);
  }, [preset, flows, version]);
  return { view, error, busy, domain, setDomain };
}

/** The preset link and the flows on it, as the URL opened them and as the URL keeps them. */
function useFlows(initial: ReturnType<typeof useInitialState>) {
  const [preset, setPreset] = useState(initial.value.preset as string);
  const [flows, setFlows] = useState<FlowDef[]>(() => {
    const given = (initial.value.f as Item[]).map(([scheme, startMs, bytes]) => ({ scheme: String(scheme), startMs: Number(startMs), bytes: Number(bytes) }));
    if (given.length < 2) return presetFlows(preset);
    return preset === STARVATION.id
      ? presetFlows(
          preset,
          given.map((f) => f.scheme),
        )
      : given;
  });
  const [grid, setGrid] = useState<GridSettings>(() => {
    const schemes = (initial.value.gs as Item[]).map(([s]) => String(s));
    return { schemes: schemes.length > 0 ? schemes : ['cubic', 'bbr'], link: initial.value.gl as string };
  });
  useUrlState(
    'shared-lab',
    sharedLab(pageCatalogue()),
    { preset, f: flows.map((f) => [f.scheme, f.startMs, f.bytes]), gs: grid.schemes.map((s) => [s]), gl: grid.link },
    [...flows.map((f) => f.scheme), ...grid.schemes].includes(USER_SCHEME_ID),
  );
  // Another link keeps each flow's controller, with the file sizes and start times made for it. The
  // starvation preset is a lesson of its own scheme's, which its name promises: picked, it runs two of them
  // (the table then changes them, for the same experiment with another scheme).
  const choosePreset = (id: string) => {
    setPreset(id);
    setFlows(presetFlows(id, id === STARVATION.id ? undefined : flows.map((f) => f.scheme)));
  };
  return { preset, flows, setFlows, choosePreset, grid, setGrid };
}

/** Each flow's throughput and window, the fairness over time (zoomable together), and each flow on the plane. */
function SharedCharts({ view, busy, domain, setDomain }: { view: RunView; busy: boolean; domain: [number, number] | null; setDomain(d: [number, number] | null): void }) {
  const unit = flowsUnit(view);
  const layers = useMemo(() => flowLayers(view, unit.perMbps), [view, unit.perMbps]);
  if (!layers) return null;
  const plane: PlanePoint[] = view.summary.flows.map((f, i) => ({
    label: `flow ${i + 1} ${findScheme(f.scheme, pageSchemes())?.title ?? f.scheme}`,
    throughputMbps: f.link.throughputMbps,
    delay95: f.link.delay95,
    color: FLOW_COLORS[i],
    marker: 'circle',
  }));
  const d: [number, number] = domain ?? [0, view.series.endMs];
  const reset = () => setDomain(null);
  return (
    <div className={busy ? 'lab-body stale' : 'lab-body'}>
      <div className="lab-charts">
        <TimeChart title="Throughput of each flow" yLabel={unit.label} layers={layers.tput} domain={d} tNow={Infinity} onBrush={setDomain} onReset={reset} />
        <TimeChart title="Window of each flow" yLabel="packets" layers={layers.windows} domain={d} tNow={Infinity} onBrush={setDomain} onReset={reset} />
        <TimeChart title="Jain's fairness index" yLabel="index" layers={layers.jain} domain={d} tNow={Infinity} yMin={1} onBrush={setDomain} onReset={reset} />
      </div>
      <PlaneChart points={plane} rate={unit} />
    </div>
  );
}

/** Two to eight flows sharing one bottleneck: who gets what, how fast they converge, and how fairly. */
export function SharedLab() {
  const initial = useInitialState(sharedLab(pageCatalogue()));
  const { notices, dismiss } = useNotices(initial);
  const { preset, flows, setFlows, choosePreset, grid, setGrid } = useFlows(initial);
  const { view, error, busy, domain, setDomain } = useSharedRun(preset, flows);
  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <Guide view="shared-lab" />
      <section className="lab-controls" aria-label="Flows">
        <PresetSelect preset={preset} choose={choosePreset} />
        <FlowTable flows={flows} setFlows={setFlows} sizes={preset !== STARVATION.id} />
      </section>
      {preset === STARVATION.id && (
        <p className="caption" data-caption="starvation">
          Starvation (Arun, Alizadeh and Balakrishnan, SIGCOMM 2022): the second flow's ACKs are held and released in batches, each up to {STARVATION.jitterMs} ms, delay no queue caused. A
          delay-bounding scheme such as Copa reads that delay as queueing and holds its rate down, while the other flow, which sees the few milliseconds of real queue, takes the link. Another scheme
          in the table is the same experiment for it.
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="lab-status" role="status" data-busy={busy || undefined}>
        {busy
          ? `running ${flows.length} flows on the link…${view ? ' (the results below are the previous run’s)' : ''}`
          : view
            ? `${flows.length} flows simulated in ${view.wallMs.toFixed(0)} ms`
            : ''}
      </p>
      {view && <FlowResults view={view} />}
      {view && <SharedCharts view={view} busy={busy} domain={domain} setDomain={setDomain} />}
      <FairnessGrid settings={grid} set={setGrid} />
    </div>
  );
}
