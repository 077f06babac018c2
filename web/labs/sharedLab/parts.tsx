import { findScheme } from '../../../shared/controllers/registry.ts';
import { SHARED_PRESETS } from '../../../shared/scenarios/presets.ts';
import { bitrate, fixed } from '../../charts/format.ts';
import type { Layer } from '../../charts/painter.ts';
import { COLORS } from '../../charts/palette.ts';
import { SchemeSelect } from '../../components/SchemeSelect.tsx';
import { FLOW_BYTES, FLOW_START, windowSchemes } from '../../state/labs.ts';
import { NumberBox } from '../../components/ParamControl.tsx';
import type { RunView } from '../../worker/protocol.ts';

export interface FlowDef {
  scheme: string;
  startMs: number;
  bytes: number;
}

export const FLOW_COLORS = [COLORS.blue, COLORS.vermillion, COLORS.green, COLORS.purple, COLORS.orange, COLORS.sky, COLORS.ink, COLORS.yellow];

/** Chart layers of a shared-bottleneck run: each flow's throughput and window, and Jain's index. */
export function flowLayers(view: RunView | null): { tput: Layer[]; windows: Layer[]; jain: Layer[] } | null {
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
}

/** The flows: scheme, start and size of each, two to eight of them. */
export function FlowTable({ flows, setFlows }: { flows: FlowDef[]; setFlows(f: FlowDef[]): void }) {
  const set = (i: number, d: Partial<FlowDef>) => setFlows(flows.map((f, k) => (k === i ? { ...f, ...d } : f)));
  return (
    <>
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
                <SchemeSelect value={f.scheme} schemes={windowSchemes()} onChange={(scheme) => set(i, { scheme })} label={`flow ${i + 1} scheme`} />
              </td>
              <td>
                <NumberBox spec={FLOW_START} value={f.startMs} onChange={(startMs) => set(i, { startMs })} name={`f${i + 1}.start`} label={`flow ${i + 1} start`} />
              </td>
              <td>
                <NumberBox spec={FLOW_BYTES} value={f.bytes} onChange={(bytes) => set(i, { bytes })} name={`f${i + 1}.bytes`} label={`flow ${i + 1} bytes`} />
              </td>
              <td>
                {flows.length > 2 && (
                  <button type="button" onClick={() => setFlows(flows.filter((_, k) => k !== i))} aria-label={`remove flow ${i + 1}`}>
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {flows.length < 8 && (
        <button type="button" onClick={() => setFlows([...flows, { ...flows[flows.length - 1], startMs: flows[flows.length - 1].startMs + 500 }])} data-action="add-flow">
          + add a flow
        </button>
      )}
    </>
  );
}

/**
 * When each flow finished, its goodput, whether it arrived exact, its delay, and the throughput the plane
 * shows: goodput counts the file once over the time to finish it; throughput counts every packet through the
 * bottleneck, retransmissions included, over the time it was sending.
 */
export function FlowResults({ view }: { view: RunView }) {
  return (
    <table className="results" data-testid="flow-results">
      <thead>
        <tr>
          <th>flow</th>
          <th>finished</th>
          <th title="The file's bits ÷ the time from the flow's start to its last byte">goodput Mbit/s</th>
          <th>exact</th>
          <th>delay95 ms</th>
          <th title="Every packet's bits through the bottleneck, retransmissions included ÷ (last − first departure): the plane's throughput">throughput Mbit/s</th>
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
            <td>{fixed(f.link.throughputMbps, 2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The link the flows share: one of the presets, each with its delay, rate, loss and queue. */
export function PresetSelect({ preset, choose }: { preset: string; choose(id: string): void }) {
  return (
    <label className="param">
      preset
      <select value={preset} onChange={(e) => choose(e.target.value)} data-param="preset">
        {SHARED_PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.title} ({p.delayMs} ms, {bitrate(p.mbps)}, {p.lossPercent}% loss, {p.queueMbit} Mb queue)
          </option>
        ))}
      </select>
    </label>
  );
}
