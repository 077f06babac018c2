import { findScheme } from '../../../shared/controllers/registry.ts';
import { SHARED_PRESETS } from '../../../shared/scenarios/presets.ts';
import { STARVATION } from '../../../shared/scenarios/starvation.ts';
import { bitrate, fixed } from '../../charts/format.ts';
import type { Layer } from '../../charts/painter.ts';
import { flowsUnit } from './rateUnit.ts';
import { COLORS, MANY_COLORS } from '../../charts/palette.ts';
import { SchemeSelect } from '../../components/SchemeSelect.tsx';
import { FLOW_BYTES, FLOW_START, windowSchemes } from '../../state/labs.ts';
import { NumberBox } from '../../components/ParamControl.tsx';
import type { RunView } from '../../worker/protocol.ts';
import { pageCatalogue } from '../../app/catalogue.ts';
import { pageSchemes } from '../../editor/userCode.ts';

export interface FlowDef {
  scheme: string;
  startMs: number;
  bytes: number;
}

export const FLOW_COLORS = MANY_COLORS;

/**
 * Chart layers of a shared-bottleneck run: each flow's throughput (`perMbps` units to the Mbit/s, so a
 * 56.6 kbit/s link's flows read in kbit/s), its window, and Jain's index.
 */
export function flowLayers(view: RunView | null, perMbps = 1): { tput: Layer[]; windows: Layer[]; jain: Layer[] } | null {
  if (!view?.flows) return null;
  const fs = view.flows;
  const tput: Layer[] = fs.perFlow.map((series, i) => {
    const data = new Float64Array(series.length * 2);
    for (let b = 0; b < series.length; b++) {
      data[2 * b] = fs.t[b];
      data[2 * b + 1] = series[b] * perMbps;
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

/** The flows: scheme, start and size of each, two to eight of them (or, for long-lived flows, the two schemes alone). */
export function FlowTable({ flows, setFlows, sizes = true }: { flows: FlowDef[]; setFlows(f: FlowDef[]): void; sizes?: boolean }) {
  const set = (i: number, d: Partial<FlowDef>) => setFlows(flows.map((f, k) => (k === i ? { ...f, ...d } : f)));
  return (
    <>
      <table className="flows">
        <thead>
          <tr>
            <th>flow</th>
            <th>scheme</th>
            {sizes && <th>start ms</th>}
            {sizes && <th>bytes</th>}
            <th>
              <span className="visually-hidden">remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {flows.map((f, i) => (
            <tr key={i}>
              <td>
                <i className="swatch" style={{ background: FLOW_COLORS[i] }} /> {i + 1}
              </td>
              <td>
                <SchemeSelect value={f.scheme} schemes={windowSchemes(pageCatalogue())} onChange={(scheme) => set(i, { scheme })} label={`flow ${i + 1} scheme`} />
              </td>
              {sizes && (
                <td>
                  <NumberBox spec={FLOW_START} value={f.startMs} onChange={(startMs) => set(i, { startMs })} name={`f${i + 1}.start`} label={`flow ${i + 1} start`} />
                </td>
              )}
              {sizes && (
                <td>
                  <NumberBox spec={FLOW_BYTES} value={f.bytes} onChange={(bytes) => set(i, { bytes })} name={`f${i + 1}.bytes`} label={`flow ${i + 1} bytes`} />
                </td>
              )}
              <td>
                {sizes && flows.length > 2 && (
                  <button type="button" onClick={() => setFlows(flows.filter((_, k) => k !== i))} aria-label={`remove flow ${i + 1}`}>
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {sizes && flows.length < 8 && (
        <button type="button" onClick={() => setFlows([...flows, { ...flows[flows.length - 1], startMs: flows[flows.length - 1].startMs + 500 }])} data-action="add-flow">
          + add a flow
        </button>
      )}
    </>
  );
}

/**
 * A flow's completion time, the usual figure for a transfer (its goodput divides the file by it), and in
 * its tooltip when it started and finished on the run's clock, where the charts show its line end.
 */
export function completion(seconds: number | undefined, startMs: number | undefined): { text: string; title?: string } {
  if (seconds === undefined || !Number.isFinite(seconds)) return { text: 'not by the end' };
  if (startMs === undefined) return { text: `${fixed(seconds, 3)} s` };
  return { text: `${fixed(seconds, 3)} s`, title: `started at ${fixed(startMs / 1000, 3)} s, finished at ${fixed(startMs / 1000 + seconds, 3)} s` };
}

/** Each flow's start on the run's clock, ms, as the run itself had it. */
const startsOf = (view: RunView): number[] => (view.spec && 'flows' in view.spec ? view.spec.flows.map((f) => f.startMs) : []);

/**
 * How long each flow took to complete, its goodput, whether it arrived exact, its delay, and the throughput
 * the plane shows: goodput counts the file once over its completion time; throughput counts every packet
 * through the bottleneck, retransmissions included, over the time it was sending.
 */
export function FlowResults({ view }: { view: RunView }) {
  const starts = startsOf(view);
  // the charts' unit, so a figure here reads as a height there
  const unit = flowsUnit(view);
  // long-lived flows have no file: no completion, goodput or exactness to show
  const transfers = view.summary.workload === 'reliable';
  return (
    <table className="results" data-testid="flow-results">
      <thead>
        <tr>
          <th>flow</th>
          {transfers && (
            <th title="Flow completion time: from the flow's start until every byte of its file is acknowledged. On the charts' clock the flow ends at its start plus this (each row's tooltip says when)">
              completed in
            </th>
          )}
          {transfers && <th title="The file's bits ÷ its completion time">goodput {unit.label}</th>}
          {transfers && <th>exact</th>}
          <th>delay95 ms</th>
          <th title="Every packet's bits through the bottleneck, retransmissions included ÷ (last − first departure): the plane's throughput">throughput {unit.label}</th>
        </tr>
      </thead>
      <tbody>
        {view.summary.flows.map((f, i) => {
          const done = completion(f.reliable?.seconds, starts[i]);
          return (
            <tr key={i}>
              <td>
                <i className="swatch" style={{ background: FLOW_COLORS[i] }} /> {i + 1} {findScheme(f.scheme, pageSchemes())?.title}
                {f.jittered && ' (ACKs jittered)'}
              </td>
              {transfers && <td title={done.title}>{done.text}</td>}
              {transfers && <td>{fixed((f.reliable?.goodputMbps ?? NaN) * unit.perMbps, 3)}</td>}
              {transfers && <td>{f.reliable?.exact ? 'yes' : 'no'}</td>}
              <td>{fixed(f.link.delay95, 0)}</td>
              <td>{fixed(f.link.throughputMbps * unit.perMbps, 2)}</td>
            </tr>
          );
        })}
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
        <option value={STARVATION.id}>
          Starvation (two {findScheme(STARVATION.scheme, pageSchemes())?.title} flows, the second's ACKs held up to {STARVATION.jitterMs} ms; {STARVATION.delayMs} ms, {bitrate(STARVATION.mbps)})
        </option>
      </select>
    </label>
  );
}
