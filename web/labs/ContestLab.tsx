import { csvFormat } from 'd3-dsv';
import { useEffect, useRef, useState } from 'react';
import { findScheme, SCHEMES } from '../../shared/controllers/registry.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import { BUNDLED_TRACES, flow } from '../../shared/scenarios/presets.ts';
import { contestOn } from '../../shared/scenarios/contestOn.ts';
import type { FlowSpec } from '../../shared/scenarios/spec.ts';
import { bestBy, frontier, scoreboardEntries, sweepPoint, sweepValues, type SweepPoint } from '../../shared/scenarios/sweep.ts';
import { PlaneChart, type PlaneLine, type PlanePoint } from '../charts/PlaneChart.tsx';
import { COLORS } from '../charts/palette.ts';
import { fixed } from '../charts/format.ts';
import { download } from '../export/download.ts';
import { SweepPool } from '../worker/sweepPool.ts';
import { WorkerPool } from '../worker/pool.ts';
import { SchemeSelect } from '../components/SchemeSelect.tsx';
import { useInitialState, useUrlState } from './lab.ts';
import { CONTEST_LAB } from '../state/labs.ts';
import type { Item } from '../state/codec.ts';
import { Notices } from '../components/Notices.tsx';
import { useNotices } from '../components/useNotices.ts';

interface SweepDef {
  scheme: string;
  param: string;
  values: string;
}

const SWEEP_COLORS = [COLORS.blue, COLORS.vermillion, COLORS.green, COLORS.purple];
const WINDOW_SCHEMES = SCHEMES.filter((s) => s.mode === 'window' && s.params.some((p) => p.kind === 'number'));

function defaultSweep(scheme: string): SweepDef {
  const s = findScheme(scheme)!;
  const p = s.params.find((x) => x.kind === 'number')!;
  const preset: Record<string, string> = { 'fixed.w': '2..512*2', 'bdp.gain': '1..3+0.25', 'aimd.a': '0.25..4*2', 'rate-based.k': '0.5..4+0.5' };
  return { scheme, param: p.name, values: preset[`${scheme}.${p.name}`] ?? `${p.kind === 'number' ? p.min : 0}..${p.kind === 'number' ? p.max : 1}*2` };
}


/** Sweeps of controller parameters on a contest trace, filling the throughput–delay plane as runs finish. */
export function ContestLab() {
  const initial = useInitialState(CONTEST_LAB);
  const { notices, dismiss } = useNotices(initial.errors);
  const [trace, setTrace] = useState(initial.value.trace as string);
  const [sweeps, setSweeps] = useState<SweepDef[]>(() => {
    const given = (initial.value.sw as Item[]).map(([scheme, param, values]) => ({ scheme: String(scheme), param: String(param), values: String(values) }));
    return given.length ? given : [defaultSweep('fixed')];
  });
  const [points, setPoints] = useState<(SweepPoint & { sweep: number })[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number; running: boolean; ms: number } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [omni, setOmni] = useState<Summary['omniscient']>(null);
  const pool = useRef<SweepPool | null>(null);
  useEffect(() => () => pool.current?.close(), []);
  const [uploads, setUploads] = useState<{ name: string; text: string; durationMs: number }[]>([]);
  const checker = useRef<WorkerPool | null>(null);

  const onUpload = async (file: File) => {
    checker.current ??= new WorkerPool();
    const name = file.name.replace(/[^\w.-]/g, '_');
    const text = await file.text();
    const r = await checker.current.upload(name, text);
    if (r.kind === 'error') return setErrors([`${file.name} is not a Mahimahi trace: ${r.message}`]);
    if (r.kind === 'uploaded') {
      setUploads((u) => [...u.filter((x) => x.name !== name), { name, text, durationMs: r.durationMs }]);
      setTrace(`upload:${name}`);
    }
  };

  const contestOnTrace = (flows: FlowSpec[]) => contestOn(trace, flows, 1, (name) => uploads.find((u) => `upload:${u.name}` === name)?.durationMs ?? 0);

  useUrlState('contest-lab', CONTEST_LAB, { trace: trace.startsWith('upload:') ? 'Verizon-LTE-short' : trace, sw: sweeps.map((s) => [s.scheme, s.param, s.values]) });

  const start = async (runs: { sweep: number; scheme: string; param: string; value: number; params: Record<string, number> }[]) => {
    pool.current ??= new SweepPool();
    setPoints([]);
    setErrors([]);
    const t0 = performance.now();
    setProgress({ done: 0, total: runs.length, running: true, ms: 0 });
    const specs = runs.map((r) => contestOnTrace([flow(r.scheme, r.params)]));
    let done = 0;
    const finished = await pool.current.run(
      specs,
      (i, summary) => {
        const r = runs[i];
        setOmni(summary.omniscient);
        setPoints((p) => [...p, { ...sweepPoint(r.scheme, r.param, r.value, summary.all), sweep: r.sweep }]);
        setProgress({ done: ++done, total: runs.length, running: true, ms: performance.now() - t0 });
      },
      (i, message) => setErrors((e) => [...e, `${runs[i].scheme} ${runs[i].param}=${runs[i].value}: ${message}`]),
      uploads.map(({ name, text }) => ({ name, text })),
    );
    setProgress((p) => p && { ...p, running: false, ms: finished ? performance.now() - t0 : p.ms });
  };

  const runSweeps = () => {
    const runs: Parameters<typeof start>[0] = [];
    const problems: string[] = [];
    sweeps.forEach((s, k) => {
      const values = sweepValues(s.scheme, s.param, s.values);
      if ('error' in values) problems.push(`sweep ${k + 1}: ${values.error}`);
      else for (const value of values) runs.push({ sweep: k, scheme: s.scheme, param: s.param, value, params: { [s.param]: value } });
    });
    if (problems.length) return setErrors(problems);
    void start(runs);
  };

  const runScoreboard = () => void start(scoreboardEntries().map((e, k) => ({ sweep: k, scheme: e.scheme, param: '', value: NaN, params: {} })));

  const scoreboard = points.length > 0 && points.every((p) => p.param === '');
  const groups = scoreboard ? points.map((p, i) => ({ color: SWEEP_COLORS[i % 4], pts: [p] })) : sweeps.map((_, k) => ({ color: SWEEP_COLORS[k], pts: points.filter((p) => p.sweep === k) }));
  const bestPower = bestBy(points, 'power');
  const bestScore = bestBy(points, 'score');
  const planePoints: PlanePoint[] = points.map((p, i) => ({
    label: scoreboard ? p.scheme : `${p.scheme} ${p.param}=${p.value}`,
    throughputMbps: p.throughputMbps,
    delay95: p.delay95,
    color: scoreboard ? SWEEP_COLORS[i % 4] : SWEEP_COLORS[p.sweep],
    marker: 'dot',
    labelled: scoreboard || p === bestPower || p === bestScore,
    ring: p === bestPower || p === bestScore,
  }));
  if (omni) planePoints.push({ label: 'omniscient', ...omni, color: COLORS.ink, marker: 'star' });
  const lines: PlaneLine[] = scoreboard ? [] : groups.map((g) => ({ color: g.color, points: frontier(g.pts) }));

  const exportCsv = () =>
    download(
      `pipefill-sweep-${trace}.csv`,
      csvFormat(points.map((p) => ({ trace, scheme: p.scheme, param: p.param, value: p.value, throughput_mbps: p.throughputMbps, delay95_ms: p.delay95, power: p.power, score: p.score, frontier: frontier(points.filter((x) => x.sweep === p.sweep)).includes(p) }))),
    );

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <section className="lab-controls" aria-label="Sweep settings">
        <label className="param">
          trace
          <select value={trace} onChange={(e) => setTrace(e.target.value)} data-param="trace">
            {BUNDLED_TRACES.map((t) => (
              <option key={t.name} value={t.name}>
                {t.title}
              </option>
            ))}
            {uploads.map((u) => (
              <option key={u.name} value={`upload:${u.name}`}>
                uploaded: {u.name}
              </option>
            ))}
          </select>
        </label>
        <label className="param">
          or upload a Mahimahi trace
          <input type="file" accept=".down,.up,.txt,.trace,text/plain" onChange={(e) => e.target.files?.[0] && void onUpload(e.target.files[0])} data-param="upload" />
        </label>
        {sweeps.map((s, k) => {
          const scheme = findScheme(s.scheme)!;
          const set = (d: Partial<SweepDef>) => setSweeps(sweeps.map((x, j) => (j === k ? { ...x, ...d } : x)));
          return (
            <fieldset key={k} style={{ borderColor: SWEEP_COLORS[k] }}>
              <legend>sweep {k + 1}</legend>
              <SchemeSelect value={s.scheme} schemes={WINDOW_SCHEMES} onChange={(id) => set(defaultSweep(id))} label={`sweep ${k + 1} scheme`} />
              <select value={s.param} onChange={(e) => set({ param: e.target.value })} aria-label={`sweep ${k + 1} parameter`}>
                {scheme.params.filter((p) => p.kind === 'number').map((p) => (
                  <option key={p.name}>{p.name}</option>
                ))}
              </select>
              <input value={s.values} onChange={(e) => set({ values: e.target.value })} aria-label={`sweep ${k + 1} values`} title="FROM..TO*FACTOR, FROM..TO+STEP or a list: 2..512*2, 1..3+0.25, 1,2,4" data-param={`sweep${k}`} size={14} />
              {sweeps.length > 1 && (
                <button type="button" onClick={() => setSweeps(sweeps.filter((_, j) => j !== k))} aria-label={`remove sweep ${k + 1}`}>
                  ×
                </button>
              )}
            </fieldset>
          );
        })}
        {sweeps.length < 4 && (
          <button type="button" onClick={() => setSweeps([...sweeps, defaultSweep(['bdp', 'aimd', 'rate-based', 'fixed'].find((x) => !sweeps.some((s) => s.scheme === x)) ?? 'fixed')])}>
            + compare another scheme
          </button>
        )}
        <button type="button" className="primary" onClick={runSweeps} disabled={progress?.running} data-action="sweep">
          Run sweep
        </button>
        <button type="button" onClick={runScoreboard} disabled={progress?.running} data-action="scoreboard">
          Scoreboard of the built-in schemes
        </button>
        {progress?.running && (
          <button type="button" onClick={() => pool.current?.cancel()} data-action="cancel">
            Cancel
          </button>
        )}
        <button type="button" onClick={exportCsv} disabled={points.length === 0} data-action="export">
          Export CSV
        </button>
      </section>
      {progress && (
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={progress.total} aria-valuenow={progress.done} data-testid="sweep-progress">
          <div style={{ width: `${(100 * progress.done) / progress.total}%` }} />
          <span>
            {progress.done} / {progress.total} runs {progress.running ? '…' : `in ${(progress.ms / 1000).toFixed(2)} s`}
            {!progress.running && progress.done < progress.total ? ' (cancelled)' : ''}
          </span>
        </div>
      )}
      {errors.map((e) => (
        <p key={e} className="error" role="alert">
          {e}
        </p>
      ))}
      <div className="lab-body">
        <PlaneChart points={planePoints} lines={lines} width={640} height={380} />
        <table className="results" data-testid="sweep-table">
          <thead>
            <tr>
              <th>run</th>
              <th>Mbit/s</th>
              <th>delay95 ms</th>
              <th>power</th>
              <th>score</th>
            </tr>
          </thead>
          <tbody>
            {[...points].sort((a, b) => a.sweep - b.sweep || a.value - b.value).map((p) => (
              <tr key={`${p.scheme}${p.param}${p.value}`} className={p === bestPower || p === bestScore ? 'best' : ''}>
                <td>
                  <i className="swatch" style={{ background: scoreboard ? SWEEP_COLORS[points.indexOf(p) % 4] : SWEEP_COLORS[p.sweep] }} /> {scoreboard ? findScheme(p.scheme)?.title : `${p.scheme} ${p.param}=${p.value}`}
                  {p === bestPower && ' ★ power'}
                  {p === bestScore && ' ★ score'}
                </td>
                <td>{fixed(p.throughputMbps, 2)}</td>
                <td>{fixed(p.delay95, 0)}</td>
                <td>{fixed(p.power, 1)}</td>
                <td>{fixed(p.score, 3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
