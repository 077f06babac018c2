import { useEffect, useMemo, useRef, useState } from 'react';
import { findScheme, SCHEMES } from '../../shared/controllers/registry.ts';
import { SHARED_PRESETS, sharedBottleneck } from '../../shared/scenarios/presets.ts';
import type { Layer } from '../charts/painter.ts';
import { PlaneChart, type PlanePoint } from '../charts/PlaneChart.tsx';
import { COLORS } from '../charts/palette.ts';
import { fixed } from '../charts/format.ts';
import { TimeChart } from '../charts/TimeChart.tsx';
import type { RunView } from '../worker/protocol.ts';
import { WorkerPool } from '../worker/pool.ts';
import { SchemeSelect } from '../components/SchemeSelect.tsx';
import { useInitialState, useUrlState } from './lab.ts';
import { SHARED_LAB } from '../state/labs.ts';
import type { Item } from '../state/codec.ts';
import { Notices } from '../components/Notices.tsx';
import { useNotices } from '../components/useNotices.ts';

interface FlowDef {
  scheme: string;
  startMs: number;
  bytes: number;
}

const FLOW_COLORS = [COLORS.blue, COLORS.vermillion, COLORS.green, COLORS.purple, COLORS.orange, COLORS.sky, COLORS.ink, COLORS.yellow];
const WINDOW_SCHEMES = SCHEMES.filter((s) => s.mode === 'window');

function presetFlows(id: string): FlowDef[] {
  const spec = sharedBottleneck(SHARED_PRESETS.find((p) => p.id === id)!);
  return spec.flows.map((f) => ({ scheme: f.scheme, startMs: f.startMs, bytes: f.bytes! }));
}


/** Two to eight flows sharing one bottleneck: who gets what, how fast they converge, and how fairly. */
export function SharedLab() {
  const initial = useInitialState(SHARED_LAB);
  const { notices, dismiss } = useNotices(initial.errors);
  const [preset, setPreset] = useState(initial.value.preset as string);
  const [flows, setFlows] = useState<FlowDef[]>(() => {
    const given = (initial.value.f as Item[]).map(([scheme, startMs, bytes]) => ({ scheme: String(scheme), startMs: Number(startMs), bytes: Number(bytes) }));
    return given.length >= 2 ? given : presetFlows(preset);
  });
  const [view, setView] = useState<RunView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [domain, setDomain] = useState<[number, number] | null>(null);
  const pool = useRef<WorkerPool | null>(null);

  useUrlState('shared-lab', SHARED_LAB, { preset, f: flows.map((f) => [f.scheme, f.startMs, f.bytes]) });

  useEffect(() => {
    pool.current ??= new WorkerPool();
    const spec = sharedBottleneck(SHARED_PRESETS.find((p) => p.id === preset)!, flows.map((f) => f.scheme));
    spec.flows = flows.map((f) => ({ scheme: f.scheme, params: {}, startMs: f.startMs, bytes: f.bytes }));
    setError(null);
    const t = setTimeout(() => {
      void pool.current!.run('a', spec, (v) => {
        setView(v);
        setDomain(null);
      }).then((r) => r.kind === 'error' && setError(r.message));
    }, 150);
    return () => clearTimeout(t);
  }, [preset, flows]);

  const layers = useMemo(() => {
    if (!view?.flows) return null;
    const fs = view.flows;
    const tput: Layer[] = fs.perFlow.map((series, i) => {
      const data = new Float64Array(series.length * 2);
      for (let b = 0; b < series.length; b++) {
        data[2 * b] = fs.t[b];
        data[2 * b + 1] = series[b];
      }
      return { kind: 'step', data, color: FLOW_COLORS[i], label: `flow ${i + 1}`, size: 1.5 };
    });
    const windows: Layer[] = fs.windows.map((w, i) => ({ kind: 'step', data: w, color: FLOW_COLORS[i], label: `flow ${i + 1}`, size: 1.2 }));
    const jainData = new Float64Array(fs.t.length * 2);
    for (let b = 0; b < fs.t.length; b++) {
      jainData[2 * b] = fs.t[b];
      jainData[2 * b + 1] = fs.jain[b];
    }
    const jain: Layer[] = [{ kind: 'line', data: jainData, color: COLORS.ink, label: "Jain's index (flows active in the interval)", size: 1.5 }];
    return { tput, windows, jain };
  }, [view]);

  const plane: PlanePoint[] = (view?.summary.flows ?? []).map((f, i) => ({
    label: `flow ${i + 1} ${findScheme(f.scheme)?.title ?? f.scheme}`,
    throughputMbps: f.link.throughputMbps,
    delay95: f.link.delay95,
    color: FLOW_COLORS[i],
    marker: 'circle',
  }));
  const set = (i: number, d: Partial<FlowDef>) => setFlows(flows.map((f, k) => (k === i ? { ...f, ...d } : f)));
  const d: [number, number] = domain ?? [0, view?.series.endMs ?? 1];

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <section className="lab-controls" aria-label="Flows">
        <label className="param">
          preset
          <select
            value={preset}
            onChange={(e) => {
              setPreset(e.target.value);
              setFlows(presetFlows(e.target.value));
            }}
            data-param="preset"
          >
            {SHARED_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title} ({p.delayMs} ms, {p.mbps >= 1 ? `${p.mbps} Mbit/s` : `${p.mbps * 1000} kbit/s`}, {p.lossPercent}% loss, {p.queueMbit} Mb queue)
              </option>
            ))}
          </select>
        </label>
        <table className="flows">
          <thead>
            <tr>
              <th>flow</th>
              <th>scheme</th>
              <th>start ms</th>
              <th>bytes</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {flows.map((f, i) => (
              <tr key={i}>
                <td>
                  <i className="swatch" style={{ background: FLOW_COLORS[i] }} /> {i + 1}
                </td>
                <td>
                  <SchemeSelect value={f.scheme} schemes={WINDOW_SCHEMES} onChange={(scheme) => set(i, { scheme })} label={`flow ${i + 1} scheme`} />
                </td>
                <td>
                  <input type="number" min={0} value={f.startMs} onChange={(e) => Number(e.target.value) >= 0 && set(i, { startMs: Number(e.target.value) })} aria-label={`flow ${i + 1} start`} style={{ width: '7em' }} />
                </td>
                <td>
                  <input type="number" min={1} max={1e9} value={f.bytes} onChange={(e) => Number(e.target.value) >= 1 && Number(e.target.value) <= 1e9 && set(i, { bytes: Number(e.target.value) })} aria-label={`flow ${i + 1} bytes`} style={{ width: '9em' }} />
                </td>
                <td>{flows.length > 2 && <button type="button" onClick={() => setFlows(flows.filter((_, k) => k !== i))} aria-label={`remove flow ${i + 1}`}>×</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {flows.length < 8 && (
          <button type="button" onClick={() => setFlows([...flows, { ...flows[flows.length - 1], startMs: flows[flows.length - 1].startMs + 500 }])} data-action="add-flow">
            + add a flow
          </button>
        )}
      </section>
      {error && <p className="error" role="alert">{error}</p>}
      {view && (
        <table className="results" data-testid="flow-results">
          <thead>
            <tr>
              <th>flow</th>
              <th>finished</th>
              <th>goodput Mbit/s</th>
              <th>exact</th>
              <th>delay95 ms</th>
            </tr>
          </thead>
          <tbody>
            {view.summary.flows.map((f, i) => (
              <tr key={i}>
                <td>
                  <i className="swatch" style={{ background: FLOW_COLORS[i] }} /> {i + 1} {findScheme(f.scheme)?.title}
                </td>
                <td>{f.reliable && Number.isFinite(f.reliable.seconds) ? `${fixed(f.reliable.seconds, 3)} s` : 'not by the end'}</td>
                <td>{fixed(f.reliable?.goodputMbps ?? NaN, 3)}</td>
                <td>{f.reliable?.exact ? 'yes' : 'no'}</td>
                <td>{fixed(f.link.delay95, 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {layers && (
        <div className="lab-body">
          <div className="lab-charts">
            <TimeChart title="Throughput of each flow" yLabel="Mbit/s" layers={layers.tput} domain={d} tNow={Infinity} onBrush={setDomain} onReset={() => setDomain(null)} />
            <TimeChart title="Window of each flow" yLabel="packets" layers={layers.windows} domain={d} tNow={Infinity} onBrush={setDomain} onReset={() => setDomain(null)} />
            <TimeChart title="Jain's fairness index" yLabel="index" layers={layers.jain} domain={d} tNow={Infinity} yMin={1} onBrush={setDomain} onReset={() => setDomain(null)} />
          </div>
          <PlaneChart points={plane} />
        </div>
      )}
    </div>
  );
}
