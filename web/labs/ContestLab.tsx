import { useEffect, useRef, useState } from 'react';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { flow } from '../../shared/scenarios/presets.ts';
import { contestOn } from '../../shared/scenarios/contestOn.ts';
import { scoreboardEntries, sweepValuesOf } from '../../shared/scenarios/sweep.ts';
import { Notices } from '../components/Notices.tsx';
import { Guide } from '../teach/Guide.tsx';
import { useNotices } from '../components/useNotices.ts';
import type { Item } from '../state/codec.ts';
import { contestLab, decodeContestLab } from '../state/labs.ts';
import { WorkerPool } from '../worker/pool.ts';
import { exportSweepCsv, SweepResults } from './contest/SweepResults.tsx';
import { defaultSweep, type SweepDef, SweepSettings, sweepProblem } from './contest/SweepSettings.tsx';
import { type Progress, type SweepRun, useSweepRunner } from './contest/useSweepRunner.ts';
import { useUrlState } from '../components/useViewUrl.ts';
import { pageCatalogue } from '../app/catalogue.ts';
import { pageSchemes } from '../editor/userCode.ts';

/** Traces uploaded in this lab: checked once by a worker, then handed to the sweep's workers. */
function useUploads(onError: (m: string) => void, onUploaded: (trace: string) => void) {
  const [uploads, setUploads] = useState<{ name: string; text: string; durationMs: number }[]>([]);
  const checker = useRef<WorkerPool | null>(null);
  const upload = async (file: File) => {
    checker.current ??= new WorkerPool();
    const name = file.name.replace(/[^\w.-]/g, '_');
    const text = await file.text();
    const r = await checker.current.upload(name, text);
    if (r.kind === 'error') return onError(`${file.name} is not a Mahimahi trace: ${r.message}`);
    setUploads((u) => [...u.filter((x) => x.name !== name), { name, text, durationMs: r.durationMs }]);
    onUploaded(`upload:${name}`);
  };
  return { uploads, upload };
}

/** The sweeps the URL opened with, each as the page writes its own ("1..3+0.25", whatever `+` became on the way). */
const sweepsFrom = (items: Item[]): SweepDef[] =>
  items.length ? items.map(([scheme, param, values]) => ({ scheme: String(scheme), param: String(param), values: String(values) })) : [defaultSweep('fixed')];

/** Every run the sweeps ask for, or what is wrong with their values. */
function sweepRuns(sweeps: SweepDef[]): { runs: SweepRun[] } | { problems: string[] } {
  const runs: SweepRun[] = [];
  const problems: string[] = [];
  sweeps.forEach((s, k) => {
    const values = sweepValuesOf(s.scheme, s.param, s.values, pageSchemes());
    if ('error' in values) problems.push(`sweep ${k + 1}: ${values.error}`);
    // A choice is placed by its rank in the list, and named by its name.
    else
      values.forEach((v, i) =>
        runs.push({ sweep: k, scheme: s.scheme, param: s.param, value: typeof v === 'number' ? v : i, choice: typeof v === 'string' ? v : undefined, params: { [s.param]: v } }),
      );
  });
  return problems.length ? { problems } : { runs };
}

/** Keeps the trace and the sweeps last typed right in the URL: one being typed, or wrong, would open as the default. */
function useSweepsInUrl(trace: string, sweeps: SweepDef[]): void {
  const linked = useRef(sweeps);
  if (sweeps.every((s) => sweepProblem(s) === null)) linked.current = sweeps;
  useUrlState(
    'contest-lab',
    contestLab(pageCatalogue()),
    { trace: trace.startsWith('upload:') ? 'Verizon-LTE-short' : trace, sw: linked.current.map((s) => [s.scheme, s.param, s.values]) },
    sweeps.some((s) => s.scheme === USER_SCHEME_ID),
  );
}

/** How far the sweep is: runs done of all, and once it ends, the time taken or that it was cancelled. */
function SweepProgress({ progress }: { progress: Progress }) {
  return (
    <div className="progress" role="progressbar" aria-label="Sweep progress" aria-valuemin={0} aria-valuemax={progress.total} aria-valuenow={progress.done} data-testid="sweep-progress">
      <div style={{ width: `${(100 * progress.done) / progress.total}%` }} />
      <span>
        {progress.done} / {progress.total} runs {progress.running ? '…' : `in ${(progress.ms / 1000).toFixed(2)} s`}
        {!progress.running && progress.done < progress.total ? ' (cancelled)' : ''}
      </span>
    </div>
  );
}

/** Sweeps of controller parameters on a contest trace, filling the throughput–delay plane as runs finish. */
export function ContestLab() {
  const [initial] = useState(() => decodeContestLab(window.location.search, pageCatalogue()));
  const { notices, dismiss } = useNotices(initial);
  const [trace, setTrace] = useState(initial.value.trace as string);
  const [sweeps, setSweeps] = useState<SweepDef[]>(() => sweepsFrom(initial.value.sw as Item[]));
  const runner = useSweepRunner();
  const { uploads, upload } = useUploads((m) => runner.setErrors([m]), setTrace);
  useSweepsInUrl(trace, sweeps);
  const { setErrors } = runner;
  // What Run refused, or a run failed with, is of the sweeps as they were: edited, each box says its own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared as the sweeps change.
  useEffect(() => setErrors([]), [sweeps]);

  const start = (runs: SweepRun[]) => {
    const durationOf = (name: string) => uploads.find((u) => `upload:${u.name}` === name)?.durationMs ?? 0;
    void runner.start(
      runs,
      (r) => contestOn(trace, [flow(r.scheme, r.params)], 1, durationOf),
      uploads.map(({ name, text }) => ({ name, text })),
    );
  };
  const runSweeps = () => {
    const r = sweepRuns(sweeps);
    if ('problems' in r) runner.setErrors(r.problems);
    else start(r.runs);
  };
  const runScoreboard = () => start(scoreboardEntries().map((e, k) => ({ sweep: k, scheme: e.scheme, param: '', value: NaN, params: {} })));
  const { points, progress } = runner;

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <Guide view="contest-lab" />
      <SweepSettings
        trace={trace}
        setTrace={setTrace}
        uploads={uploads}
        onUpload={(f) => void upload(f)}
        sweeps={sweeps}
        setSweeps={setSweeps}
        running={progress?.running ?? false}
        onSweep={runSweeps}
        onScoreboard={runScoreboard}
        onCancel={runner.cancel}
        onExport={() => exportSweepCsv(trace, points)}
        canExport={points.length > 0}
      />
      {progress && <SweepProgress progress={progress} />}
      {runner.errors.map((e) => (
        <p key={e} className="error" role="alert">
          {e}
        </p>
      ))}
      <SweepResults points={points} sweeps={sweeps.length} omni={runner.omni} />
    </div>
  );
}
