import { type Dispatch, memo, type SetStateAction, useCallback } from 'react';
import { findScheme } from '../../shared/controllers/registry.ts';
import { withDefaults, type ParamSpec, type ParamValues } from '../../shared/controllers/types.ts';
import { NETEM_IMPAIRMENT_PARAMS } from '../../shared/link/netemParams.ts';
import { DISCIPLINE_PARAMS, LINK_PARAMS } from '../../shared/link/params.ts';
import { OFFSET_PARAMS } from '../../shared/offset/params.ts';
import { SIDE_STYLE } from '../charts/palette.ts';
import { schemesFor, type Experiment, type Side } from '../state/experiment.ts';
import { ParamControl } from './ParamControl.tsx';
import { RelayPolicy, type RelayPolicyView } from '../app/RelayPolicy.tsx';
import { SchemeSelect } from './SchemeSelect.tsx';
import { TraceSelect } from './TraceSelect.tsx';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { copyOf, hasCopy, isUntouchedCopy } from '../editor/copies.ts';
import { EXAMPLE } from '../editor/example.ts';
import { type CheckAndRun, LazyEditor } from '../editor/LazyEditor.tsx';
import { currentText, showEditor, useEditorState } from '../editor/userCode.ts';
import { pageCatalogue } from '../app/catalogue.ts';
import { pageSchemes } from '../editor/userCode.ts';

/** Sets the experiment, or changes the one in force (a control's change never works on an older copy). */
type SetExperiment = Dispatch<SetStateAction<Experiment>>;

interface Props {
  e: Experiment;
  set: SetExperiment;
  /** The editor's Run: new code checked and run in one worker pass (web/app/useRuns.ts). */
  checkAndRun: CheckAndRun;
  uploaded: string[];
  onUpload(file: File): void;
  /** The link's effective settings (the scenario's own, with overrides). */
  linkNow: ParamValues;
  policyNow: ParamValues;
  /** Live mode: the relay's policy, shown as the one a live fetch meets. */
  relayPolicy?: RelayPolicyView | null;
  /** The sides that show an imported run, which their settings here did not make. */
  imported?: string;
}

const byName = (specs: readonly ParamSpec[], names: string[]) => specs.filter((p) => names.includes(p.name));

function Group({
  title,
  specs,
  values,
  onChange,
  prefix,
  open = true,
}: {
  title: string;
  specs: readonly ParamSpec[];
  values: ParamValues;
  onChange(name: string, v: number | string): void;
  prefix: string;
  open?: boolean;
}) {
  return (
    <details open={open}>
      <summary>{title}</summary>
      {specs.map((p) => (
        <ParamControl key={p.name} spec={p} value={values[p.name] ?? p.default} onChange={onChange} prefix={prefix} />
      ))}
    </details>
  );
}

function SideControls({ which, e, set, imported }: { which: 'a' | 'b'; e: Experiment; set: SetExperiment; imported: boolean }) {
  // Installing a controller changes the registry, not the experiment: this re-renders the menus and sliders then.
  useEditorState();
  const side = e[which];
  const scheme = findScheme(side.scheme, pageSchemes())!;
  const values = withDefaults(scheme.params, side.params);
  const update = (s: Side) => set({ ...e, [which]: s });
  const setParam = useCallback((name: string, v: number | string) => set((x) => ({ ...x, [which]: { scheme: x[which].scheme, params: { ...x[which].params, [name]: v } } })), [set, which]);
  const style = SIDE_STYLE[which];
  return (
    <section className={imported ? 'side imported' : 'side'} aria-label={`Controller ${style.name}`}>
      <h2 style={{ borderColor: style.color }}>
        Controller {style.name}
        {which === 'a' && e.live && <small> · live</small>}
      </h2>
      {imported && (
        <p className="hint" data-hint="imported">
          {style.name} shows an imported run, not one of these settings: change one to run {style.name} again.
        </p>
      )}
      <label className="param">
        scheme
        <SchemeSelect
          value={side.scheme}
          schemes={schemesFor(e.scenario, pageCatalogue())}
          onChange={(scheme) => update({ scheme, params: {} })}
          label={`controller ${style.name} scheme`}
          param={`${which}.scheme`}
        />
        <small>{scheme.doc}</small>
      </label>
      <EditEntry scheme={side.scheme} which={which} />
      {scheme.params.map((p) => (
        <ParamControl key={p.name} spec={p} value={values[p.name]} onChange={setParam} prefix={`${which}.`} />
      ))}
    </section>
  );
}

/**
 * Opens the editor: on the user's own controller as it is, or on a readable copy of the selected built-in
 * (which replaces the text in the editor, so it asks first when that text is the user's own).
 */
function EditEntry({ scheme, which }: { scheme: string; which: 'a' | 'b' }) {
  if (scheme === USER_SCHEME_ID) {
    return (
      <button type="button" className="edit-copy" onClick={() => showEditor(true, which)}>
        Edit your controller
      </button>
    );
  }
  const copy = hasCopy(scheme);
  const open = async () => {
    const text = await copyOf(scheme);
    // Only the user's own text is asked about: the untouched starter, or an untouched copy, goes without a word.
    const now = currentText();
    const own = now !== text && now !== EXAMPLE && !(await isUntouchedCopy(now));
    if (own && !window.confirm('Replace the text in the editor with a copy of this controller?')) return;
    showEditor(true, which, text);
  };
  return (
    <button type="button" className="edit-copy" onClick={open} disabled={!copy} title={copy ? 'Open a JavaScript copy of this controller in the editor' : 'No editable copy of this controller yet'}>
      Edit a copy
    </button>
  );
}

/** Every control: the link (or the offset server), and one panel per controller, built from the schemas. */
export const Sidebar = memo(function Sidebar({ e, set, checkAndRun, uploaded, onUpload, linkNow, policyNow, relayPolicy = null, imported = '' }: Props) {
  const setLink = useCallback((name: string, v: number | string) => set((x) => ({ ...x, link: { ...x.link, [name]: v } })), [set]);
  const setPolicy = useCallback((name: string, v: number | string) => set((x) => ({ ...x, offset: { ...x.offset, [name]: v } })), [set]);
  const isRate = e.trace === 'rate';
  const discipline = String(linkNow.discipline) as keyof typeof DISCIPLINE_PARAMS;
  const netem = isRate && linkNow.linkModel === 'netem';
  const queueParams = netem ? ['limit', 'netemQdisc'] : [...(linkNow.queue === 'infinite' ? ['queue'] : ['queue', 'queueLimit']), 'discipline', ...DISCIPLINE_PARAMS[discipline], 'ecn'];
  const impairments = ['loss', 'burstP', 'burstR', 'burstLoss', 'duplicate', 'reorder', 'jitter', ...(netem ? NETEM_IMPAIRMENT_PARAMS.map((p) => p.name) : [])];
  const ackImpairments = netem && linkNow.netemQdisc === 'loopback' ? [] : impairments.map((n) => `ack${n[0].toUpperCase()}${n.slice(1)}`);
  return (
    <section className="sidebar" aria-label="Settings">
      {e.scenario === 'contest' ? (
        <section aria-label="Link">
          <h2>Link</h2>
          <TraceSelect trace={e.trace} uploaded={uploaded} rate choose={(trace) => set({ ...e, trace })} />
          <label className="param upload">
            upload a Mahimahi trace
            <input type="file" accept=".down,.up,.txt,.trace,text/plain" onChange={(ev) => ev.target.files?.[0] && onUpload(ev.target.files[0])} data-param="upload" />
          </label>
          <Group
            title="Delay and queue"
            specs={byName(LINK_PARAMS, ['linkModel', 'delay', ...(isRate ? ['bandwidth'] : ['loop']), ...queueParams])}
            values={linkNow}
            onChange={setLink}
            prefix="link."
          />
          <Group title="Impairments, data direction" specs={byName(LINK_PARAMS, impairments)} values={linkNow} onChange={setLink} prefix="link." open={false} />
          {ackImpairments.length > 0 && <Group title="Impairments, ACK direction" specs={byName(LINK_PARAMS, ackImpairments)} values={linkNow} onChange={setLink} prefix="link." open={false} />}
        </section>
      ) : (
        <section aria-label="Offset server">
          <h2>Offset server</h2>
          <label className="param">
            rate schedule
            <select value={e.variable ? 'variable' : 'constant'} onChange={(ev) => set({ ...e, variable: ev.target.value === 'variable' })} data-param="variable">
              <option value="constant">constant rate</option>
              <option value="variable">variable rate</option>
            </select>
          </label>
          {relayPolicy && <RelayPolicy relay={relayPolicy} variable={e.variable} />}
          <Group title="Policy" specs={OFFSET_PARAMS} values={policyNow} onChange={setPolicy} prefix="srv." open={false} />
          <Group title="Link to the server" specs={byName(LINK_PARAMS, ['delay', 'loss', 'jitter', 'reorder'])} values={linkNow} onChange={setLink} prefix="link." open={false} />
        </section>
      )}
      <SideControls which="a" e={e} set={set} imported={imported.includes('a')} />
      <SideControls which="b" e={e} set={set} imported={imported.includes('b')} />
      <button type="button" className="edit-copy" onClick={() => showEditor(true)}>
        Write your own controller…
      </button>
      <LazyEditor e={e} set={set} checkAndRun={checkAndRun} />
    </section>
  );
});
