import { constantRateTrace, formatTrace } from '../../shared/trace/mahimahi.ts';
import { download } from '../export/download.ts';
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

/** Every export of the experiment: each run's CSVs (made in its worker), the link's trace, the charts. */
export function ExportMenu({ e, runs, link, uploadedText, chartsRoot, label, note }: Props) {
  const menu = useLightDismiss();
  const exportCsv = async (slot: Slot, what: 'trace' | 'intervals') => {
    try {
      download(`pipefill-${slot}-${e[slot].scheme}${what === 'trace' ? '' : '-intervals'}.csv`, await runs.pool.exportCsv(slot, what));
    } catch (err) {
      note(`The ${what} CSV could not be made: ${(err as Error).message}`);
    }
  };
  /** The data direction's delivery schedule as a Mahimahi trace file. */
  const exportLinkTrace = async () => {
    if (e.trace === 'rate') return download(`constant-${link.bandwidth}Mbps.trace`, formatTrace(constantRateTrace(Number(link.bandwidth))), 'text/plain');
    if (e.trace.startsWith('upload:')) return download(e.trace.slice(7), uploadedText.get(e.trace.slice(7)) ?? '', 'text/plain');
    const name = `${e.trace}.down`;
    const r = await fetch(`/traces/${name}`);
    if (r.ok) download(name, await r.text(), 'text/plain');
    else note(`The trace ${name} could not be fetched (${r.status}).`);
  };
  /** The whole figure (cards, plane, captions, every chart) with the settings on top, as vector SVG or PNG. */
  const exportImage = async (kind: 'svg' | 'png') => {
    const charts = chartsRoot();
    const root = charts?.closest<HTMLElement>(`#${PLAYGROUND_RESULTS_ID}`) ?? charts;
    if (!root) return;
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
            <button type="button" onClick={() => void exportCsv(s, 'trace')} disabled={!runs.views[s]} data-export={`trace-${s}`}>
              Trace CSV, {label(s)}
            </button>
            <button type="button" onClick={() => void exportCsv(s, 'intervals')} disabled={!runs.views[s]} data-export={`intervals-${s}`}>
              Per-interval CSV, {label(s)}
            </button>
          </span>
        ))}
        {e.scenario === 'contest' && (
          <button type="button" onClick={() => void exportLinkTrace()} data-export="link-trace">
            Link trace (Mahimahi format)
          </button>
        )}
        <button type="button" onClick={() => void exportImage('png')} data-export="png">
          Figure as PNG (for a slide)
        </button>
        <button type="button" onClick={() => void exportImage('svg')} data-export="svg">
          Figure as SVG (vector)
        </button>
      </div>
    </details>
  );
}
