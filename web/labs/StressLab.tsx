import { useEffect, useMemo, useState } from 'react';
import type { ParamSpec } from '../../shared/controllers/types.ts';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { formatSegments, parseSegments, type Segment, segmentsTrace } from '../../shared/stress/segments.ts';
import { formatTrace } from '../../shared/trace/mahimahi.ts';
import { chartsOf } from '../app/layers.ts';
import { RunCharts } from '../charts/RunCharts.tsx';
import { Notices } from '../components/Notices.tsx';
import { ParamControl } from '../components/ParamControl.tsx';
import { SchemeSelect } from '../components/SchemeSelect.tsx';
import { useNotices } from '../components/useNotices.ts';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { useEditorState } from '../editor/userCode.ts';
import { download } from '../export/download.ts';
import { schemesFor } from '../state/experiment.ts';
import { stressLab } from '../state/labs.ts';
import { Guide } from '../teach/Guide.tsx';
import { type StressSettings, stressSpec, useStressSearch } from './stress/useStressSearch.ts';
import { SegmentStrip, WorstFigures } from './stress/WorstTrace.tsx';
import { pageCatalogue } from '../app/catalogue.ts';
import { useLabRun } from './useLabRun.ts';
import { LabRunStatus } from './LabRunStatus.tsx';

const NUMBERS = stressLab(pageCatalogue()).filter((f): f is ParamSpec => f.kind === 'number');

/** The controller's run on a trace, drawn as the playground draws a side's. */
const useTraceRun = (segments: Segment[] | null, settings: Pick<StressSettings, 'scheme' | 'seed'>, version: unknown) =>
  // the run is the trace's (named by its text), the scheme's and the seed's
  useLabRun(() => segments && stressSpec(segments, settings), JSON.stringify([segments ? formatSegments(segments) : '', settings.scheme, settings.seed, version]));

/** Break my controller: a seeded search for the link trace on which the controller falls furthest below the ideal. */
export function StressLab() {
  const initial = useInitialState(stressLab(pageCatalogue()));
  const { notices, dismiss } = useNotices(initial);
  const v = initial.value;
  const [settings, setSettings] = useState<StressSettings>({ scheme: v.scheme as string, budget: v.budget as number, seed: v.seed as number, seconds: v.seconds as number });
  const search = useStressSearch();
  const [linked] = useState(() => parseSegments(v.worst as string));
  const worst = search.state.worst?.segments ?? linked;
  const code = useEditorState().installed;
  const version = settings.scheme === USER_SCHEME_ID ? code : null;
  useUrlState('stress', stressLab(pageCatalogue()), { ...settings, worst: worst && !search.state.running ? formatSegments(worst) : '' }, settings.scheme === USER_SCHEME_ID);
  const run = useTraceRun(search.state.running ? null : worst, settings, version);
  // Before any search the trace is the link's: it is scored as a search scores its worst, for what a link is shared for.
  const unsearched = !search.state.running && search.state.runs === 0 && search.state.error === null;
  const scoreKey = unsearched && worst ? JSON.stringify([formatSegments(worst), settings.scheme, settings.seed, version]) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the figures are those of the trace, scheme, seed and code `scoreKey` names.
  useEffect(() => {
    if (scoreKey && worst) void search.score(worst, settings);
  }, [scoreKey]);
  const charts = useMemo(() => (run.view ? chartsOf(run.view.series, false).filter((c) => ['throughput', 'delay', 'window'].includes(c.id)) : []), [run.view]);
  const set = (name: string, value: number | string) => {
    search.clear();
    setSettings((s) => ({ ...s, [name]: value }));
  };
  const { state } = search;

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <Guide view="stress" />
      <section className="lab-controls" aria-label="Search settings">
        <label className="param">
          controller
          <SchemeSelect value={settings.scheme} schemes={schemesFor('contest', pageCatalogue())} onChange={(id) => set('scheme', id)} label="controller" param="scheme" />
        </label>
        {NUMBERS.map((p) => (
          <ParamControl key={p.name} spec={p} value={settings[p.name as keyof StressSettings]} onChange={set} prefix="" />
        ))}
        {state.running ? (
          <button type="button" onClick={search.cancel}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => void search.start(settings)}>
            Search
          </button>
        )}
        <span role="status" data-testid="stress-status">
          {state.running
            ? `searching… ${state.runs} / ${settings.budget} runs · ${state.rate.toFixed(0)} runs/s`
            : state.runs > 0
              ? `${state.runs} runs · ${state.rate.toFixed(0)} runs/s`
              : worst
                ? 'the trace from the link'
                : 'Search tries traces of rate segments and outages for the one that breaks the controller.'}
        </span>
      </section>
      {state.error && (
        <p className="error" role="alert">
          {state.error}
        </p>
      )}
      {worst && (
        <section className="stress-result" aria-label="The worst trace found">
          <h2>{state.running ? 'Worst trace so far' : 'Worst trace found'}</h2>
          <SegmentStrip segments={worst} />
          {state.worst && <WorstFigures worst={state.worst} contestScore={state.contestScore} />}
          <p className="actions">
            <button type="button" onClick={() => download(`stress-${settings.scheme}-seed${settings.seed}.trace`, formatTrace(segmentsTrace(worst)), 'text/plain')}>
              Download trace (Mahimahi)
            </button>
            <code data-testid="stress-segments">{formatSegments(worst)}</code>
          </p>
          <LabRunStatus state={run.state} what="the controller's run on this trace" />
          <RunCharts charts={charts} domain={run.domain ?? [0, run.view?.series.endMs ?? 1]} tNow={Infinity} onZoom={run.setDomain} />
        </section>
      )}
    </div>
  );
}
