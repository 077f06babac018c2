import { constantRateTrace, formatTrace } from '../../shared/trace/mahimahi.ts';
import { download } from '../export/download.ts';
import { RUN_FORMATS, type RunFormat, runAs } from '../export/runFormats.ts';
import { chartsSvg, svgToPng } from '../export/image.ts';
import { settingsLine } from '../export/settings.ts';
import type { Experiment } from '../state/experiment.ts';
import { PLAYGROUND_RESULTS_ID } from './landmarks.ts';
import type { Runs, Slot } from './useRuns.ts';
import { useLightDismiss } from '../components/useLightDismiss.ts';

interface Props {
  e: Experiment;
  runs: Runs;
  /** The link's effective settings: a constant-rate link's trace, the figure's settings line. */
  link: Record<string, number | string>;
  uploadedText: ReadonlyMap<string, string>;
  chartsRoot: () => HTMLElement | null;
  label(slot: Slot): string;
  note(message: string): void;
}

/** The formats a side's run exports in: a link log only where the bottleneck is a trace's. */
const formatsFor = (e: Experiment): RunFormat[] => (e.scenario === 'contest' && e.trace !== 'rate' ? ['pcap', 'qlog', 'mahimahi-log'] : ['pcap', 'qlog']);

/** Every export of the experiment: each run's CSVs (made in its worker), the link's trace, the charts. */
export function ExportMenu({ e, runs, link, uploadedText, chartsRoot, label, note }: Props) {
  const menu = useLightDismiss();
  // A side whose next run is under way exports nothing until that run is shown: its worker may already
  // hold the next run's code, which is not the shown run's (and a figure of it is about to be replaced).
  const waiting = (s: Slot) => Boolean(runs.busy[s]) && runs.views[s]?.source !== 'live';
  const unready = (s: Slot) => !runs.views[s] || waiting(s);
  const why = (s: Slot) => (waiting(s) ? `${label(s)}: its next run is under way; export it once it is shown` : undefined);
  const exportCsv = async (slot: Slot, what: 'trace' | 'intervals') => {
    try {
      download(`pipefill-${slot}-${e[slot].scheme}${what === 'trace' ? '' : '-intervals'}.csv`, await runs.pool.exportCsv(slot, what));
    } catch (err) {
      note(`The ${what} CSV could not be made: ${(err as Error).message}`);
    }
  };
  /** A trace's text: an uploaded one's as it was read, a bundled one's from the server (null, said in a notice, when it cannot be fetched). */
  const traceText = async (name: string): Promise<string | null> => {
    const uploaded = uploadedText.get(name.replace(/^upload:/, ''));
    if (uploaded !== undefined) return uploaded;
    const r = await fetch(`/traces/${name}`);
    if (r.ok) return r.text();
    note(`The trace ${name} could not be fetched (${r.status}).`);
    return null;
  };
  /** The data direction's delivery schedule as a Mahimahi trace file. */
  const exportLinkTrace = async () => {
    if (e.trace === 'rate') return download(`constant-${link.bandwidth}Mbps.trace`, formatTrace(constantRateTrace(Number(link.bandwidth))), 'text/plain');
    const name = e.trace.startsWith('upload:') ? e.trace.slice(7) : `${e.trace}.down`;
    const text = await traceText(name);
    if (text !== null) download(name, text, 'text/plain');
  };
  /** A run in a format other tools read, made here from its trace CSV. */
  const exportRun = async (slot: Slot, format: RunFormat) => {
    try {
      const blob = await runAs(format, await runs.pool.exportCsv(slot, 'trace'), traceText);
      download(`pipefill-${slot}-${e[slot].scheme}.${RUN_FORMATS[format].extension}`, blob);
    } catch (err) {
      note(`The ${RUN_FORMATS[format].title} could not be made: ${(err as Error).message}`);
    }
  };
  /** The whole figure (cards, plane, captions, every chart) with the settings on top, as vector SVG or PNG. */
  const exportImage = async (kind: 'svg' | 'png') => {
    const charts = chartsRoot();
    const root = charts?.closest<HTMLElement>(`#${PLAYGROUND_RESULTS_ID}`) ?? charts;
    if (!root) return;
    // a figure is vector: every packet's dot, not the coarse copies the page draws the whole run from
    await runs.wholeDots();
    const { svg, width, height } = chartsSvg(root, settingsLine(e, link));
    try {
      const name = `pipefill-${e.a.scheme}-vs-${e.b.scheme}`;
      if (kind === 'svg') download(`${name}.svg`, svg, 'image/svg+xml');
      else download(`${name}.png`, await svgToPng(svg, width, height));
    } catch (err) {
      note(`The figure could not be made: ${(err as Error).message}`);
    }
  };
  return (
    <details className="menu" ref={menu}>
      <summary>Export</summary>
      <div>
        {(['a', 'b'] as const).map((s) => (
          <span key={s}>
            <button type="button" onClick={() => void exportCsv(s, 'trace')} disabled={unready(s)} title={why(s)} data-export={`trace-${s}`}>
              Trace CSV, {label(s)}
            </button>
            <button type="button" onClick={() => void exportCsv(s, 'intervals')} disabled={unready(s)} title={why(s)} data-export={`intervals-${s}`}>
              Per-interval CSV, {label(s)}
            </button>
            {formatsFor(e).map((f) => (
              <button key={f} type="button" onClick={() => void exportRun(s, f)} disabled={unready(s)} title={why(s)} data-export={`${f}-${s}`}>
                {RUN_FORMATS[f].title}, {label(s)}
              </button>
            ))}
          </span>
        ))}
        {e.scenario === 'contest' && (
          <button type="button" onClick={() => void exportLinkTrace()} data-export="link-trace">
            Link trace (Mahimahi format)
          </button>
        )}
        <button type="button" onClick={() => void exportImage('png')} disabled={waiting('a') || waiting('b')} title={why('a') ?? why('b')} data-export="png">
          Figure as PNG (for a slide)
        </button>
        <button type="button" onClick={() => void exportImage('svg')} disabled={waiting('a') || waiting('b')} title={why('a') ?? why('b')} data-export="svg">
          Figure as SVG (vector)
        </button>
      </div>
    </details>
  );
}
