import { IMPORT_ACCEPT } from '../export/importFile.ts';
import type { ReactNode } from 'react';
import { SIDE_STYLE } from '../charts/palette.ts';
import type { ParamSpec } from '../../shared/controllers/types.ts';
import { useTypedValue } from '../components/useTypedValue.ts';
import { type Experiment, experimentSchema, type Scenario } from '../state/experiment.ts';
import { Guide } from '../teach/Guide.tsx';
import { pageCatalogue } from './catalogue.ts';
import type { Slot } from './useRuns.ts';
import { useLightDismiss } from '../components/useLightDismiss.ts';

const SEED = experimentSchema('contest', pageCatalogue()).find((f) => f.name === 'seed') as ParamSpec;

/** The seed as typed (useTypedValue): a value outside its range is refused with the reason, and the run and URL keep the seed they had. */
function SeedInput({ seed, set }: { seed: number; set(seed: number): void }) {
  const { problem, problemId, input } = useTypedValue(SEED, seed, set);
  return (
    <label>
      seed
      <input type="text" inputMode="numeric" {...input} data-param="seed" style={{ width: '6em' }} />
      {problem && (
        <span className="error" role="alert" id={problemId} data-problem="seed">
          {problem}
        </span>
      )}
    </label>
  );
}

interface Props {
  /** Whether the settings sidebar shows, and the switch that folds it. */
  settingsOpen: boolean;
  toggleSettings(): void;
  e: Experiment;
  set(e: Experiment): void;
  setScenario(s: Scenario): void;
  /** The live target, when the relay offers one. */
  liveTarget: string | null;
  onImport(file: File, slot: Slot): void;
  note(message: string): void;
  /** The export menu. */
  children: ReactNode;
}

/** Scenario, live or simulated, seed, reset, the experiment's link, exports and imports. */
export function Toolbar({ settingsOpen, toggleSettings, e, set, setScenario, liveTarget, onImport, note, children }: Props) {
  const importMenu = useLightDismiss();
  // a drag's last step, written a spell later (history.ts), is in the address by now: the press began the click
  const copyLink = () => {
    void navigator.clipboard?.writeText(window.location.href).then(
      () => note('The link to this experiment is on the clipboard.'),
      () => note(window.location.href),
    );
  };
  return (
    <div className="toolbar">
      <button type="button" onClick={toggleSettings} aria-expanded={settingsOpen} data-action="settings" title="Show or hide the link and controller settings">
        {settingsOpen ? '◀ Settings' : '▶ Settings'}
      </button>
      <label>
        scenario
        <select value={e.scenario} onChange={(ev) => setScenario(ev.target.value as Scenario)} data-param="scenario">
          <option value="contest">Contest: cellular trace</option>
          <option value="offset">Offset server</option>
        </select>
      </label>
      {e.scenario === 'offset' && (
        <label>
          controller A runs
          <select value={e.live ? 'live' : 'sim'} onChange={(ev) => set({ ...e, live: ev.target.value === 'live' })} data-param="mode">
            <option value="sim">simulated</option>
            <option value="live" disabled={!liveTarget}>
              live, against the relay’s server
            </option>
          </select>
        </label>
      )}
      <SeedInput seed={e.seed} set={(seed) => set({ ...e, seed })} />
      <button type="button" onClick={() => setScenario(e.scenario)}>
        Reset to preset
      </button>
      <button type="button" onClick={copyLink}>
        Copy link
      </button>
      {children}
      <Guide view={e.scenario} />
      <details className="menu" ref={importMenu}>
        <summary>Import</summary>
        <div>
          <small>a run’s trace CSV, iperf3 -J output, a qlog or a Mahimahi link log</small>
          {(['a', 'b'] as const).map((s) => (
            <label key={s}>
              replay in {SIDE_STYLE[s].name}
              <input
                type="file"
                accept={IMPORT_ACCEPT}
                onChange={(ev) => {
                  if (!ev.target.files?.[0]) return;
                  onImport(ev.target.files[0], s);
                  // the file is on its way: the menu folds, so the run it brings shows
                  importMenu.current?.removeAttribute('open');
                }}
                data-import={s}
              />
            </label>
          ))}
        </div>
      </details>
    </div>
  );
}
