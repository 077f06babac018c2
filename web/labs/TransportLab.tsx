import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { findScheme } from '../../shared/controllers/registry.ts';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { useEditorState } from '../editor/userCode.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import type { LinkModel } from '../../shared/link/spec.ts';
import { MATRIX_SEEDS, matrixRuns, rowVerdict } from '../../shared/scenarios/matrix.ts';
import { rowCaption } from '../../shared/scenarios/matrixCaption.ts';
import { FILE_SIZES, MATRIX, matrixRun } from '../../shared/scenarios/presets.ts';
import { fixed } from '../charts/format.ts';
import { RunCharts } from '../charts/RunCharts.tsx';
import { chartsOf } from '../app/layers.ts';
import { SweepPool } from '../worker/sweepPool.ts';
import { SchemeSelect } from '../components/SchemeSelect.tsx';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { transportLab, windowSchemes } from '../state/labs.ts';
import { Notices } from '../components/Notices.tsx';
import { Guide } from '../teach/Guide.tsx';
import { useNotices } from '../components/useNotices.ts';
import { Explained } from '../teach/Explained.tsx';
import { gradeExplanation, verdictExplanation } from '../teach/explanations.ts';
import { withPageCode } from '../editor/userCode.ts';
import { pageCatalogue } from '../app/catalogue.ts';
import { useLabRun } from './useLabRun.ts';
import { LabRunStatus } from './LabRunStatus.tsx';
import { pageSchemes } from '../editor/userCode.ts';

function Verdict({ passed, seeds, timedOut }: { passed: number; seeds: number; timedOut: number }) {
  const verdict = passed === seeds ? 'PASS' : timedOut > 0 ? 'TIMEOUT' : 'FAIL';
  return <Explained text={verdictExplanation(verdict, seeds, passed)}>{verdict}</Explained>;
}

/**
 * The matrix of some settings: each run's figures as they come, the runs that failed (the user's controller
 * threw, or hung: those are done too, and their rows say why), and once every run is in, how long they took.
 */
interface Matrix {
  inputs: readonly unknown[];
  results: (Summary | null)[];
  failures: ReadonlyMap<number, string>;
  ms: number | null;
}

const unrun = (inputs: readonly unknown[]): Matrix => ({ inputs, results: MATRIX.flatMap(() => Array(MATRIX_SEEDS).fill(null)), failures: new Map(), ms: null });

/**
 * The whole matrix for a scheme, over every seed, run again when the scheme, the link or the user's code
 * changes. A matrix of other settings than those asked for reads as the new one, not yet run: a render
 * between a change and its runs' start, or the end of the runs it replaced, shows no figures of them.
 */
function useMatrixRuns(scheme: string, model: LinkModel, version: unknown) {
  const inputs = [scheme, model, version];
  const [matrix, setMatrix] = useState<Matrix>(() => unrun(inputs));
  const pool = useRef<SweepPool | null>(null);

  const runAll = async () => {
    pool.current ??= new SweepPool();
    const mine = inputs;
    const update = (f: (m: Matrix) => Matrix) => setMatrix((m) => (m.inputs === mine ? f(m) : m));
    setMatrix(unrun(mine));
    const t0 = performance.now();
    const whole = await pool.current.run(
      MATRIX.flatMap((r) => matrixRuns(r, scheme, {}, MATRIX_SEEDS, 1, model)).map(withPageCode),
      (i, s) => update((m) => ({ ...m, results: m.results.map((x, k) => (k === i ? s : x)) })),
      (i, message) => update((m) => ({ ...m, failures: new Map(m.failures).set(i, message) })),
    );
    if (whole) update((m) => ({ ...m, ms: performance.now() - t0 }));
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the matrix runs again when the scheme, the link (or the user's code) changes, and only then.
  useEffect(() => {
    void runAll();
    return () => pool.current?.cancel();
  }, [scheme, model, version]);
  useEffect(() => () => pool.current?.close(), []);
  const shown = matrix.inputs.every((x, i) => x === inputs[i]) ? matrix : unrun(inputs);
  return { results: shown.results, failures: shown.failures, running: shown.ms === null, ms: shown.ms ?? 0 };
}

/** The run of the row the user opened (seed 1), and the span its charts are zoomed to. */
const useRowRun = (selected: number | null, scheme: string, model: LinkModel, version: unknown) =>
  // the row runs again when the user's code changes
  useLabRun(() => (selected === null ? null : matrixRun(MATRIX[selected], scheme, {}, 1, model)), JSON.stringify([selected, scheme, model, version]));

/** What each link model is, as the lab says which one the rows run on. */
const LINK_MODEL_NOTE: Record<LinkModel, string> = {
  netem:
    "The rows run on Linux netem, as the course's harness sets tc on its loopback: one qdisc both ways (replies wait behind the data queued before them), a packet sent after the larger of its delay and the backlog, 1000 packets at most.",
  mahimahi: 'The rows run on a Mahimahi link, as the contest: a queue of 100 packets before the bottleneck, then the propagation delay; replies cross a path of their own.',
};

type Verdicts = (i: number) => ReturnType<typeof rowVerdict> | null;

/**
 * One line per row: the verdict, pass rate and grade spread over every seed, then seed 1's figures (the
 * run a click opens), each set under a heading that says which: a row that timed out on some seeds may
 * have taken seed 1 17 s.
 */
function MatrixTable({
  results,
  verdictOf,
  captionOf,
  failureOf,
  selected,
  select,
}: {
  results: (Summary | null)[];
  verdictOf: Verdicts;
  captionOf: (i: number) => string | null;
  failureOf: (i: number) => string | null;
  selected: number | null;
  select: (i: number) => void;
}) {
  return (
    <table className="results matrix" data-testid="matrix">
      <thead>
        <tr className="column-groups">
          <td colSpan={3} />
          <th colSpan={3} scope="colgroup">
            over its {MATRIX_SEEDS} seeds
          </th>
          <th colSpan={4} scope="colgroup">
            seed 1 (the run a click opens)
          </th>
        </tr>
        <tr>
          <th>#</th>
          <th>group</th>
          <th>test</th>
          <th>result</th>
          <th>pass rate</th>
          <th>grade spread</th>
          <th>time s</th>
          <th>bytes on the wire</th>
          <th>retransmissions</th>
          <th>grade</th>
        </tr>
      </thead>
      <tbody>
        {MATRIX.map((row, i) => {
          const r = results[i * MATRIX_SEEDS]?.flows[0].reliable;
          const v = verdictOf(i);
          const caption = captionOf(i);
          const failed = failureOf(i);
          return (
            <Fragment key={i}>
              <tr onClick={() => select(i)} className={selected === i ? 'selected' : ''} tabIndex={0} onKeyDown={(e) => e.key === 'Enter' && select(i)} data-row={i + 1}>
                <td>{i + 1}</td>
                <td>{row.group}</td>
                <td>{row.name}</td>
                <td className={failed ? 'fail' : v ? (v.passed === v.seeds ? 'pass' : 'fail') : ''}>
                  {failed ? <Explained text={failed}>ERROR</Explained> : v ? <Verdict passed={v.passed} seeds={v.seeds} timedOut={v.timedOut} /> : '…'}
                </td>
                <td>{v ? `${v.passed}/${v.seeds}` : ''}</td>
                <td>{v?.spread ?? ''}</td>
                <td>{r ? fixed(r.seconds, 3) : ''}</td>
                <td>{r ? Math.round(r.overhead * FILE_SIZES[row.size]) : ''}</td>
                <td>{r?.retransmissions ?? ''}</td>
                <td>{r?.grade ? <Explained text={gradeExplanation(r.grade)}>{r.grade.label}</Explained> : ''}</td>
              </tr>
              {caption && (
                <tr className="row-caption" data-caption-row={i + 1}>
                  <td colSpan={10}>{caption}</td>
                </tr>
              )}
            </Fragment>
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
  const initial = useInitialState(transportLab(pageCatalogue()));
  const { notices, dismiss } = useNotices(initial);
  const [scheme, setScheme] = useState(initial.value.scheme as string);
  const [selected, setSelected] = useState<number | null>(initial.value.row ? (initial.value.row as number) - 1 : null);
  const [model, setModel] = useState(initial.value.link as LinkModel);
  useUrlState('transport-lab', transportLab(pageCatalogue()), { scheme, row: selected === null ? 0 : selected + 1, link: model }, scheme === USER_SCHEME_ID);
  // the user's controller runs again once its code changed
  const code = useEditorState().installed;
  const version = scheme === USER_SCHEME_ID ? code : null;
  const { results, failures, running, ms } = useMatrixRuns(scheme, model, version);
  const { view, state: rowRun, domain, setDomain } = useRowRun(selected, scheme, model, version);
  const runSection = useRef<HTMLElement>(null);
  // An opened row's run appears below the table: bring it into view, again once its charts have come (the
  // page may not have been long enough to scroll it to the top before).
  const charted = view !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls when a row opens and when its charts come, not on other renders.
  useEffect(() => {
    if (selected !== null) runSection.current?.scrollIntoView({ block: 'start' });
  }, [selected, charted]);

  const charts = useMemo(() => (view ? chartsOf(view.series, false).filter((c) => c.id === 'sequence' || c.id === 'window') : []), [view]);
  const seedsOf = (i: number) => results.slice(i * MATRIX_SEEDS, (i + 1) * MATRIX_SEEDS);
  const verdictOf = (i: number) => (seedsOf(i).every(Boolean) ? rowVerdict(seedsOf(i) as Summary[]) : null);
  const captionOf = (i: number) =>
    seedsOf(i).every(Boolean)
      ? rowCaption(
          MATRIX[i],
          seedsOf(i).map((s) => s!.flows[0].reliable!),
        )
      : null;
  const passed = MATRIX.filter((_, i) => verdictOf(i)?.passed === MATRIX_SEEDS).length;
  /** The first of a row's seeds that failed: what it said. */
  const failureOf = (i: number) => Array.from({ length: MATRIX_SEEDS }, (_, k) => failures.get(i * MATRIX_SEEDS + k)).find((m) => m !== undefined) ?? null;
  const firstFailure = failures.size > 0 ? failures.get(Math.min(...failures.keys()))! : null;

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <Guide view="transport-lab" />
      <section className="lab-controls" aria-label="Matrix settings">
        <label className="param">
          controller
          <SchemeSelect value={scheme} schemes={windowSchemes(pageCatalogue())} onChange={setScheme} label="controller" param="scheme" />
        </label>
        <span data-testid="matrix-status">
          {running
            ? `running… ${results.filter(Boolean).length + failures.size} / ${results.length}`
            : `${passed} / ${MATRIX.length} rows pass · ${MATRIX_SEEDS} seeds · ${(ms / 1000).toFixed(2)} s${failures.size ? ` · ${failures.size} runs failed` : ''}`}
        </span>
        <label className="param">
          link
          <select value={model} onChange={(e) => setModel(e.target.value as LinkModel)} data-param="link">
            <option value="netem">Linux netem</option>
            <option value="mahimahi">Mahimahi</option>
          </select>
        </label>
        <span className="hint" data-testid="link-model">
          {LINK_MODEL_NOTE[model]}
        </span>
        <span className="hint">A row passes when the receiver's bytes equal the file exactly within the harness's timeout, on every seed. Click a row to see its run.</span>
      </section>
      {firstFailure && (
        <p className="error" role="alert">
          {`${failures.size} of the ${results.length} runs failed; the first: ${firstFailure}`}
        </p>
      )}
      <MatrixTable results={results} verdictOf={verdictOf} captionOf={captionOf} failureOf={failureOf} selected={selected} select={setSelected} />
      {selected !== null && (
        <section className="row-run" aria-label={`Run of row ${selected + 1}`} ref={runSection}>
          <h2>
            Row {selected + 1}: {MATRIX[selected].name} <small>· {findScheme(scheme, pageSchemes())?.title} · seed 1</small>
          </h2>
          <LabRunStatus state={rowRun} what={`row ${selected + 1}'s run`} />
          <RunCharts charts={charts} domain={domain ?? [0, view?.series.endMs ?? 1]} tNow={Infinity} onZoom={setDomain} />
        </section>
      )}
    </div>
  );
}
