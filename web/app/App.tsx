import { type SetStateAction, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { withinRun } from '../charts/keyZoom.ts';
import { SIDE_STYLE } from '../charts/palette.ts';
import { Notices } from '../components/Notices.tsx';
import { Playback } from '../components/Playback.tsx';
import { Sidebar } from '../components/Sidebar.tsx';
import { useNotices } from '../components/useNotices.ts';
import { encodeExperiment, type Experiment } from '../state/experiment.ts';
import { codeFromQuery } from '../state/view.ts';
import { settingsOf, specFor } from '../state/spec.ts';
import { captions, linkDifferences } from '../teach/captions.ts';
import { useFacts } from '../teach/useFacts.ts';
import { pageCatalogue } from './catalogue.ts';
import { Columns, Overview } from './Columns.tsx';
import { ExportMenu } from './ExportMenu.tsx';
import { sideLabel, staleReasons, viewsFor } from './freshness.ts';
import { openedExperiment, withScenario } from './exerciseSetup.ts';
import { PLAYGROUND_RESULTS_ID } from './landmarks.ts';
import { LivePanel } from './LivePanel.tsx';
import { Toolbar } from './Toolbar.tsx';
import { restoreImportedCode, useEditorState } from '../editor/userCode.ts';
import { type ImportedFile, importedCsv } from '../export/importFile.ts';
import { useAddress } from './history.ts';
import type { Playhead } from './playhead.ts';
import { usePlayback } from './usePlayback.ts';
import { useSteadyCallback } from './useSteadyCallback.ts';
import { relayInfo, useRelay } from './useRelay.ts';
import { type Runs, type Slot, useRuns } from './useRuns.ts';

/** How a failed import is told: a later import that works takes it back. */
const NOT_REPLAYED = ' could not be replayed: ';
const NOT_A_TRACE = ' is not a Mahimahi trace: ';
/** An uploaded trace shorter than this, played once, is said to make runs that short. */
const SHORT_TRACE_MS = 1000;

type Notes = { note(m: string): void; forget(which: (m: string) => boolean): void };

/**
 * Uploaded traces of this session: their lengths (for the runs) and their text (for the export), and the
 * file whose upload just failed (the runs on the screen are the previous trace's until the settings change).
 */
function useUploads(e: Experiment) {
  const [durations, setDurations] = useState<Record<string, number>>({});
  const texts = useRef(new Map<string, string>());
  const [failed, setFailed] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: any change of the settings makes the runs current again.
  useEffect(() => setFailed(null), [e]);
  /** Checks a file in the workers (which keep it for the runs); resolves with its trace name and length, or rejects with why not. */
  const check = async (file: File, pool: Runs['pool']): Promise<{ trace: string; durationMs: number }> => {
    if (file.size > 50_000_000) throw new Error(`${file.name}${NOT_A_TRACE}it is larger than 50 MB`);
    const name = file.name.replace(/[^\w.-]/g, '_');
    const text = await file.text();
    const r = await pool.upload(name, text);
    if (r.kind === 'error') throw new Error(`${file.name}${NOT_A_TRACE}${r.message}`);
    texts.current.set(name, text);
    setDurations((u) => ({ ...u, [name]: r.durationMs }));
    return { trace: `upload:${name}`, durationMs: r.durationMs };
  };
  /** Runs the experiment on the uploaded trace, or names what is wrong with the file and marks the runs shown as the previous ones. */
  const upload = (file: File, pool: Runs['pool'], onTrace: (trace: string) => void, notices: Pick<Notes, 'note' | 'forget'>): Promise<void> =>
    check(file, pool).then(
      ({ trace, durationMs }) => {
        // an upload that failed before this one is past: its notice would speak of the trace now replaced
        notices.forget((m) => m.includes(NOT_A_TRACE));
        // a run on a trace played once lasts as long as the trace: a few lines make runs too short to show anything
        if (durationMs < SHORT_TRACE_MS && settingsOf({ ...e, trace }).link.loop === 'once')
          notices.note(`${file.name} lasts ${durationMs} ms, and the link plays it once, so the runs last ${durationMs} ms too: set loop to "loop" (Delay and queue) to play it over and over`);
        onTrace(trace);
      },
      (err: Error) => {
        notices.note(err.message);
        setFailed(file.name);
      },
    );
  return { durations, texts: texts.current, upload, failed };
}

/**
 * Replays an exported trace CSV, or a run another tool wrote (iperf3, qlog, a Mahimahi link log), on a side
 * and shows it from the start, as runs open; a file that cannot be replayed is named in a notice. A kernel's
 * run from iperf3 is drawn beside a simulated run of its own congestion control: `simulate` sets the other
 * side's scheme to it, before the import is shown (a change of the experiment runs anew a side it replaced).
 */
async function importRun(file: File, slot: Slot, e: Experiment, runs: Runs, playhead: Playhead, notices: Pick<Notes, 'note' | 'forget'>, simulate: (scheme: string) => void): Promise<void> {
  let imported: ImportedFile;
  try {
    imported = await importedCsv(file, specFor(e, otherSide(slot)));
  } catch (err) {
    return notices.note(`${file.name}${NOT_REPLAYED}${(err as Error).message}`);
  }
  if (imported.scheme) simulate(imported.scheme);
  const r = await runs.pool.request(slot, { kind: 'replay', csv: imported.csv }, (view) => runs.show(slot, view));
  if (r.kind === 'error') return notices.note(`${file.name}${NOT_REPLAYED}${r.message}`);
  notices.forget((m) => m.includes(NOT_REPLAYED));
  playhead.replay();
  await restoreImportedCode(r.view.spec);
}

const otherSide = (slot: Slot): Slot => (slot === 'a' ? 'b' : 'a');

/** The experiment the URL opened, the notices of what was wrong in it, and the URL kept in step with it. */
function useExperiment() {
  const initial = useMemo(() => openedExperiment(window.location.search), []);
  const [e, setE] = useState<Experiment>(initial.value);
  const notices = useNotices(initial);
  // A link whose controller code came damaged stays in the address as it came, until a setting changes.
  const [damaged] = useState(() => 'error' in codeFromQuery(window.location.search));
  useAddress(damaged && e === initial.value ? null : encodeExperiment(e, pageCatalogue()));
  return { e, setE, ...notices };
}

/** What the relay offers live mode for this experiment: the offset server to fetch from, and the policy it applies. */
function useLive(e: Experiment) {
  const relay = useRelay();
  const info = relayInfo(relay);
  const target = info && (e.variable ? info.offsetVariable : info.offsetConstant);
  const policy = useMemo(() => (e.live && info ? { policy: info.policy, sessionPolicy: info.sessionPolicy === true } : null), [e.live, info]);
  return { relay, target, policy };
}

/** Each side's run that failed, as an alert under the side's name. */
function RunErrors({ e, errors }: { e: Experiment; errors: Runs['errors'] }) {
  return (['a', 'b'] as const).map((s) => errors[s] && <p key={s} className="error" role="alert">{`${sideLabel(SIDE_STYLE[s].name, undefined, e[s].scheme)}: ${errors[s]}`}</p>);
}

/** The playhead over the runs shown (or their first seconds, while a first run is under way), and where they end, ms. */
function usePlayedRuns(runs: Runs) {
  const shown = (['a', 'b'] as const).map((s) => runs.views[s]?.series ?? runs.previews[s]);
  const endMs = Math.max(1, ...shown.map((s) => s?.endMs ?? 0));
  return { endMs, playhead: usePlayback(endMs, shown.some(Boolean)) };
}

/** The runs the page draws (never a run of the other scenario under this one's headings), their facts and captions. */
function useShownRuns(e: Experiment, durations: Record<string, number>) {
  const all = useRuns(e, durations);
  const runs: Runs = { ...all, views: viewsFor(all.views, e) };
  const facts = { a: useFacts(runs.views.a), b: useFacts(runs.views.b) };
  // a side whose run for a changed link is under way still shows its run on the old one
  const settling = (['a', 'b'] as const).some((slot) => runs.busy[slot] && facts[slot]?.link && linkDifferences(facts[slot].link, specFor(e, slot).link).length > 0);
  const said = useMemo(() => captions(facts.a, facts.b, settling), [facts.a, facts.b, settling]);
  return { runs, facts, said };
}

/**
 * Where the settings float over the runs (a screen 1100 px wide or less: styles.css), opening the editor
 * folds them, so A's charts are in sight beside it.
 */
function useFoldFloatingSettings(fold: () => void): void {
  const { open } = useEditorState();
  // biome-ignore lint/correctness/useExhaustiveDependencies: only as the editor opens.
  useEffect(() => {
    if (open && window.matchMedia('(max-width: 1100px)').matches) fold();
  }, [open]);
}

/**
 * Sets the experiment and asks for its runs at once, before the page renders it: a slider's step reaches
 * the workers without waiting for the page's render of it.
 */
function useSetAndRun(e: Experiment, set: (e: Experiment) => void, ask: (e: Experiment) => void) {
  const latest = useRef(e);
  return useSteadyCallback((next: SetStateAction<Experiment>) => {
    latest.current = typeof next === 'function' ? next(latest.current) : next;
    ask(latest.current);
    set(latest.current);
  });
}

/**
 * A zoomed chart draws every packet: the shown runs' whole dots come from their workers, again for each
 * new run while the zoom stands (a run's view brings coarse copies, which draw the whole run alike). A
 * side whose next run is under way is asked once that run is shown: its worker is busy with it.
 */
function useWholeDotsWhileZoomed(zoomed: boolean, runs: Runs): void {
  const { views, busy, wholeDots } = runs;
  const ready = (['a', 'b'] as const).filter((s) => !busy[s]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: wholeDots is remade each render; it reads the views this follows.
  useEffect(() => {
    if (zoomed) void wholeDots(ready);
  }, [zoomed, views.a, views.b, ready.join()]);
}

/** The playground: two controllers side by side on the same link, as the URL describes them. */
export function App() {
  const { e, setE: show, notices, note, dismiss, forget } = useExperiment();
  const uploads = useUploads(e);
  const { runs, facts, said } = useShownRuns(e, uploads.durations);
  const setE = useSetAndRun(e, show, runs.ask);
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const live = useLive(e);
  const chartsRoot = useRef<HTMLDivElement>(null);
  // On a projector-sized screen (1280 px and less) the settings fold away, so both runs fit side by side.
  const [settingsOpen, setSettingsOpen] = useState(() => window.innerWidth > 1300);
  useFoldFloatingSettings(() => setSettingsOpen(false));
  const { endMs, playhead } = usePlayedRuns(runs);
  const zoomTo = useCallback((d: [number, number] | null) => setZoom(d && withinRun(d, endMs)), [endMs]);
  useWholeDotsWhileZoomed(zoom !== null, runs);
  // Worked out once per experiment, so the memoised sidebar skips the page's renders for new runs.
  const { link: linkNow, policy: policyNow } = useMemo(() => settingsOf(e), [e]);
  const uploaded = useMemo(() => Object.keys(uploads.durations), [uploads.durations]);
  const checkAndRun = useSteadyCallback(runs.checkAndRun);
  const uploadFile = useSteadyCallback((f: File) => void uploads.upload(f, runs.pool, (trace) => setE({ ...e, trace }), { note, forget }));
  const label = (slot: Slot) => sideLabel(SIDE_STYLE[slot].name, runs.views[slot], e[slot].scheme);
  const stale = staleReasons(runs, e, uploads.failed);

  return (
    <div className="app">
      <header>
        <Toolbar
          settingsOpen={settingsOpen}
          toggleSettings={() => setSettingsOpen(!settingsOpen)}
          e={e}
          set={setE}
          setScenario={(scenario) => setE(withScenario(e, scenario))}
          liveTarget={live.target}
          onImport={(f, s) => void importRun(f, s, e, runs, playhead, { note, forget }, (scheme) => flushSync(() => setE((now) => ({ ...now, [otherSide(s)]: { scheme, params: {} } }))))}
          note={note}
        >
          <ExportMenu e={e} runs={runs} link={linkNow} uploadedText={uploads.texts} chartsRoot={() => chartsRoot.current} label={label} note={note} />
        </Toolbar>
      </header>
      <Notices notices={notices} dismiss={dismiss} />
      <LivePanel e={e} runs={runs} target={live.target} relay={live.relay} />
      <div className={settingsOpen ? 'layout' : 'layout settings-closed'}>
        <Sidebar
          e={e}
          set={setE}
          checkAndRun={checkAndRun}
          uploaded={uploaded}
          onUpload={uploadFile}
          linkNow={linkNow}
          policyNow={policyNow}
          relayPolicy={live.policy}
          imported={(['a', 'b'] as const).filter((s) => runs.views[s]?.source === 'imported').join('')}
        />
        <div className="runs" id={PLAYGROUND_RESULTS_ID} tabIndex={-1}>
          <Playback playhead={playhead} endMs={endMs} zoomed={zoom !== null} onResetZoom={() => setZoom(null)} />
          <Overview e={e} setE={setE} runs={runs} label={label} stale={stale} said={said} />
          <RunErrors e={e} errors={runs.errors} />
          <Columns
            offset={e.scenario === 'offset'}
            runs={runs}
            domain={zoom ?? [0, endMs]}
            playhead={playhead}
            setZoom={zoomTo}
            label={label}
            root={chartsRoot}
            facts={facts}
            said={said}
            overlay={e.overlay}
            setOverlay={(overlay) => setE({ ...e, overlay })}
            stale={stale}
          />
        </div>
      </div>
    </div>
  );
}
