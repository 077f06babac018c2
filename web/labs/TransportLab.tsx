import { useEffect, useMemo, useRef, useState } from 'react';
import { findScheme } from '../../shared/controllers/registry.ts';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { useEditorState } from '../editor/userCode.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import { MATRIX_SEEDS, matrixRuns, rowVerdict } from '../../shared/scenarios/matrix.ts';
import { FILE_SIZES, MATRIX, matrixRun } from '../../shared/scenarios/presets.ts';
import { fixed } from '../charts/format.ts';
import { RunCharts } from '../charts/RunCharts.tsx';
import { chartsOf } from '../app/layers.ts';
import type { RunView } from '../worker/protocol.ts';
import { WorkerPool } from '../worker/pool.ts';
import { SweepPool } from '../worker/sweepPool.ts';
import { SchemeSelect } from '../components/SchemeSelect.tsx';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { TRANSPORT_LAB, windowSchemes } from '../state/labs.ts';
import { Notices } from '../components/Notices.tsx';
import { Guide } from '../teach/Guide.tsx';
import { useNotices } from '../components/useNotices.ts';
import { Explained } from '../teach/Explained.tsx';
import { gradeExplanation, verdictExplanation } from '../teach/explanations.ts';

function Verdict({ passed, seeds, timedOut }: { passed: number; seeds: number; timedOut: number }) {
  const verdict = passed === seeds ? 'PASS' : timedOut > 0 ? 'TIMEOUT' : 'FAIL';
  return <Explained text={verdictExplanation(verdict, seeds, passed)}>{verdict}</Explained>;
}

/** The whole matrix for a scheme, over every seed, run again when the scheme or the user's code changes. */
function useMatrixRuns(scheme: string, version: unknown) {
  const [results, setResults] = useState<(Summary | null)[]>([]);
  const [running, setRunning] = useState(false);
  const [ms, setMs] = useState(0);
  const pool = useRef<SweepPool | null>(null);

  const runAll = async () => {
    pool.current ??= new SweepPool();
    setResults(MATRIX.flatMap(() => Array(MATRIX_SEEDS).fill(null)));
    setRunning(true);
    const t0 = performance.now();
    await pool.current.run(
      MATRIX.flatMap((r) => matrixRuns(r, scheme)),
      (i, s) => setResults((rs) => rs.map((x, k) => (k === i ? s : x))),
      () => {},
    );
    setMs(performance.now() - t0);
    setRunning(false);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the matrix runs again when the scheme (or the user's code) changes, and only then.
  useEffect(() => {
    void runAll();
    return () => pool.current?.cancel();
  }, [scheme, version]);
  useEffect(() => () => pool.current?.close(), []);
  return { results, running, ms };
}

/** The run of the row the user opened (seed 1), and the span its charts are zoomed to. */
function useRowRun(selected: number | null, scheme: string, version: unknown) {
  const [view, setView] = useState<RunView | null>(null);
  const [domain, setDomain] = useState<[number, number] | null>(null);
  const runner = useRef<WorkerPool | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the row runs again when the user's code changes.
  useEffect(() => {
    if (selected === null) return;
    runner.current ??= new WorkerPool();
    setView(null);
    setDomain(null);
    void runner.current.run('a', matrixRun(MATRIX[selected], scheme), setView);
  }, [selected, scheme, version]);
  return { view, domain, setDomain };
}

type Verdicts = (i: number) => ReturnType<typeof rowVerdict> | null;

/** One line per row: seed 1's figures, and the verdict, pass rate and grade spread over every seed. */
function MatrixTable({ results, verdictOf, selected, select }: { results: (Summary | null)[]; verdictOf: Verdicts; selected: number | null; select: (i: number) => void }) {
  return (
    <table className="results matrix" data-testid="matrix">
      <thead>
        <tr>
          <th>#</th>
          <th>group</th>
          <th>test</th>
          <th>result</th>
          <th>time s</th>
          <th>bytes on the wire</th>
          <th>retransmissions</th>
          <th>grade</th>
          <th>pass rate</th>
          <th>grade spread</th>
        </tr>
      </thead>
      <tbody>
        {MATRIX.map((row, i) => {
          const r = results[i * MATRIX_SEEDS]?.flows[0].reliable;
          const v = verdictOf(i);
          return (
            <tr key={i} onClick={() => select(i)} className={selected === i ? 'selected' : ''} tabIndex={0} onKeyDown={(e) => e.key === 'Enter' && select(i)} data-row={i + 1}>
              <td>{i + 1}</td>
              <td>{row.group}</td>
              <td>{row.name}</td>
              <td className={v ? (v.passed === v.seeds ? 'pass' : 'fail') : ''}>{v ? <Verdict passed={v.passed} seeds={v.seeds} timedOut={v.timedOut} /> : '…'}</td>
              <td>{r ? fixed(r.seconds, 3) : ''}</td>
              <td>{r ? Math.round(r.overhead * FILE_SIZES[row.size]) : ''}</td>
              <td>{r?.retransmissions ?? ''}</td>
              <td>{r?.grade ? <Explained text={gradeExplanation(r.grade)}>{r.grade.label}</Explained> : ''}</td>
              <td>{v ? `${v.passed}/${v.seeds}` : ''}</td>
              <td>{v?.spread ?? ''}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * The reliable-transport test matrix: every row run with the chosen controller over MATRIX_SEEDS seeds
 * (pass rate and grade spread; the other columns are seed 1's run); a row opens its run.
 */
export function TransportLab() {
  const initial = useInitialState(TRANSPORT_LAB);
  const { notices, dismiss } = useNotices(initial);
  const [scheme, setScheme] = useState(initial.value.scheme as string);
  const [selected, setSelected] = useState<number | null>(initial.value.row ? (initial.value.row as number) - 1 : null);
  useUrlState('transport-lab', TRANSPORT_LAB, { scheme, row: selected === null ? 0 : selected + 1 }, scheme === USER_SCHEME_ID);
  // the user's controller runs again once its code changed
  const code = useEditorState().installed;
  const version = scheme === USER_SCHEME_ID ? code : null;
  const { results, running, ms } = useMatrixRuns(scheme, version);
  const { view, domain, setDomain } = useRowRun(selected, scheme, version);

  const charts = useMemo(() => (view ? chartsOf(view.series, false).filter((c) => c.id === 'sequence' || c.id === 'window') : []), [view]);
  const seedsOf = (i: number) => results.slice(i * MATRIX_SEEDS, (i + 1) * MATRIX_SEEDS);
  const verdictOf = (i: number) => (seedsOf(i).every(Boolean) ? rowVerdict(seedsOf(i) as Summary[]) : null);
  const passed = MATRIX.filter((_, i) => verdictOf(i)?.passed === MATRIX_SEEDS).length;

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <Guide view="transport-lab" />
      <section className="lab-controls" aria-label="Matrix settings">
        <label className="param">
          controller
          <SchemeSelect value={scheme} schemes={windowSchemes()} onChange={setScheme} label="controller" param="scheme" />
        </label>
        <span data-testid="matrix-status">
          {running ? `running… ${results.filter(Boolean).length} / ${results.length}` : `${passed} / ${MATRIX.length} rows pass · ${MATRIX_SEEDS} seeds · ${(ms / 1000).toFixed(2)} s`}
        </span>
        <span className="hint">A row passes when the receiver's bytes equal the file exactly within the harness's timeout, on every seed. Click a row to see its run.</span>
      </section>
      <MatrixTable results={results} verdictOf={verdictOf} selected={selected} select={setSelected} />
      {selected !== null && (
        <section className="row-run" aria-label={`Run of row ${selected + 1}`}>
          <h2>
            Row {selected + 1}: {MATRIX[selected].name} <small>· {findScheme(scheme)?.title}</small>
          </h2>
          <RunCharts charts={charts} domain={domain ?? [0, view?.series.endMs ?? 1]} tNow={Infinity} onZoom={setDomain} />
        </section>
      )}
    </div>
  );
}
