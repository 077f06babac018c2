import { useId } from 'react';
import { findScheme } from '../../../shared/controllers/registry.ts';
import { SchemeSelect } from '../../components/SchemeSelect.tsx';
import { TraceSelect } from '../../components/TraceSelect.tsx';
import { SWEEP_COLORS } from './pointStyle.ts';
import { schemesFor } from '../../state/experiment.ts';
import { pageCatalogue } from '../../app/catalogue.ts';
import { pageSchemes } from '../../editor/userCode.ts';
import { sweepValuesOf } from '../../../shared/scenarios/sweep.ts';

export interface SweepDef {
  scheme: string;
  param: string;
  values: string;
}

/** At render time, so the user's own controller, once loaded, can be swept over its parameters. */
const sweepable = () => schemesFor('contest', pageCatalogue()).filter((s) => s.params.length > 0);

const PRESET_RANGES: Record<string, string> = { 'fixed.w': '2..512*2', 'bdp.gain': '1..3+0.25', 'aimd.a': '0.25..4*2', 'rate-based.k': '0.5..4+0.5' };

/**
 * A parameter of a scheme (its first numeric one unless named, else its first) over a range that shows its
 * trade-off: a preset where one is known, else the parameter's whole range (doubling from a positive
 * minimum, in about eight steps from zero); a choice parameter over all its choices.
 */
export function defaultSweep(scheme: string, param?: string): SweepDef {
  const s = findScheme(scheme, pageSchemes())!;
  const p = s.params.find((x) => x.name === param) ?? s.params.find((x) => x.kind === 'number') ?? s.params[0];
  if (p.kind === 'choice') return { scheme, param: p.name, values: p.choices.join(',') };
  const preset = PRESET_RANGES[`${scheme}.${p.name}`];
  const eighth = Math.max(p.step, Math.round((p.max - p.min) / 8 / p.step) * p.step);
  // Doubling where the range spans a few octaves (2..512); steps of an eighth where it does not (0.5..0.9).
  const whole = p.min > 0 && p.max / p.min >= 8 ? `${p.min}..${p.max}*2` : `${p.min}..${p.max}+${Number(eighth.toPrecision(6))}`;
  return { scheme, param: p.name, values: preset ?? whole };
}

/** What is wrong with a sweep's values, or null: said as they are typed, not only when the sweep runs. */
export function sweepProblem(s: SweepDef): string | null {
  const r = sweepValuesOf(s.scheme, s.param, s.values, pageSchemes());
  return 'error' in r ? r.error : null;
}

function SweepFieldset({ index, sweep: s, set, remove }: { index: number; sweep: SweepDef; set(d: Partial<SweepDef>): void; remove: (() => void) | null }) {
  const scheme = findScheme(s.scheme, pageSchemes())!;
  const problem = sweepProblem(s);
  const problemId = useId();
  return (
    <fieldset style={{ borderColor: SWEEP_COLORS[index] }}>
      <legend>sweep {index + 1}</legend>
      <SchemeSelect value={s.scheme} schemes={sweepable()} onChange={(id) => set(defaultSweep(id))} label={`sweep ${index + 1} scheme`} />
      <select value={s.param} onChange={(e) => set(defaultSweep(s.scheme, e.target.value))} aria-label={`sweep ${index + 1} parameter`}>
        {scheme.params.map((p) => (
          <option key={p.name}>{p.name}</option>
        ))}
      </select>
      <input
        value={s.values}
        onChange={(e) => set({ values: e.target.value })}
        aria-label={`sweep ${index + 1} values`}
        title="FROM..TO*FACTOR, FROM..TO+STEP or a list: 2..512*2, 1..3+0.25, 1,2,4; a choice's names: multiplicative,sqrt"
        data-param={`sweep${index}`}
        size={Math.min(40, Math.max(14, s.values.length))}
        aria-invalid={problem !== null}
        aria-describedby={problem === null ? undefined : problemId}
      />
      {problem && (
        <span className="error" role="alert" id={problemId}>
          {problem}
        </span>
      )}
      {remove && (
        <button type="button" onClick={remove} aria-label={`remove sweep ${index + 1}`}>
          ×
        </button>
      )}
    </fieldset>
  );
}

interface Props {
  trace: string;
  setTrace(t: string): void;
  uploads: readonly { name: string }[];
  onUpload(file: File): void;
  sweeps: SweepDef[];
  setSweeps(s: SweepDef[]): void;
  running: boolean;
  onSweep(): void;
  onScoreboard(): void;
  onCancel(): void;
  onExport(): void;
  canExport: boolean;
}

/** The trace, up to four sweeps, and the buttons that run, cancel and export them. */
export function SweepSettings({ trace, setTrace, uploads, onUpload, sweeps, setSweeps, running, onSweep, onScoreboard, onCancel, onExport, canExport }: Props) {
  return (
    <section className="lab-controls" aria-label="Sweep settings">
      <TraceSelect trace={trace} uploaded={uploads.map((u) => u.name)} rate={false} choose={setTrace} />
      <label className="param">
        or upload a Mahimahi trace
        <input type="file" accept=".down,.up,.txt,.trace,text/plain" onChange={(e) => e.target.files?.[0] && onUpload(e.target.files[0])} data-param="upload" />
      </label>
      {sweeps.map((s, k) => (
        <SweepFieldset
          key={k}
          index={k}
          sweep={s}
          set={(d) => setSweeps(sweeps.map((x, j) => (j === k ? { ...x, ...d } : x)))}
          remove={sweeps.length > 1 ? () => setSweeps(sweeps.filter((_, j) => j !== k)) : null}
        />
      ))}
      {sweeps.length < 4 && (
        <button type="button" onClick={() => setSweeps([...sweeps, defaultSweep(['bdp', 'aimd', 'rate-based', 'fixed'].find((x) => !sweeps.some((s) => s.scheme === x)) ?? 'fixed')])}>
          + compare another scheme
        </button>
      )}
      <button type="button" className="primary" onClick={onSweep} disabled={running} data-action="sweep">
        Run sweep
      </button>
      <button
        type="button"
        onClick={onScoreboard}
        disabled={running}
        data-action="scoreboard"
        title="Every built-in scheme made for a contest link, at its defaults: all but the offset server's, the transport matrix's fixed timer, and DCTCP and Prague, which on the contest's drop-tail queue (it marks nothing) are Reno"
      >
        Scoreboard of the built-in schemes
      </button>
      {running && (
        <button type="button" onClick={onCancel} data-action="cancel">
          Cancel
        </button>
      )}
      <button type="button" onClick={onExport} disabled={!canExport} data-action="export">
        Export CSV
      </button>
    </section>
  );
}
