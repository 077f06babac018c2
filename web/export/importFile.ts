import { findScheme } from '../../shared/controllers/registry.ts';
import { CSV_VERSION, formatTraceCsv } from '../../shared/csv/trace.ts';
import { detectFormat, readRun } from '../../shared/formats/detect.ts';
import { type Format, FormatError } from '../../shared/formats/errors.ts';
import { parseIperf3 } from '../../shared/formats/iperf3.ts';
import type { LiveRun, ScenarioSpec } from '../../shared/scenarios/spec.ts';

/** What an import hands the side's worker: a trace CSV, and for a kernel's run the scheme to simulate beside it. */
export interface ImportedFile {
  csv: string;
  format: string;
  /** The Pipefill scheme of the kernel's congestion control (iperf3), when there is one. */
  scheme: string | null;
}

/** What Import reads, as a person is told. */
const IMPORT_FORMATS = `a run's trace CSV as Export saves it (its first line "# ${CSV_VERSION}"), iperf3's JSON (--json), a qlog, a pcap capture, or a Mahimahi link log`;

/** What a file that does not say its scheme is called on its side's heading. */
const FILE_NAMES: Record<Format, string> = { csv: 'trace CSV', pcap: 'pcap capture', qlog: 'qlog', 'mahimahi-log': 'Mahimahi link log', iperf3: 'iperf3 run' };

/** Files the page takes: the project's CSV, iperf3's JSON, qlog, pcap, Mahimahi link logs. */
export const IMPORT_ACCEPT = '.csv,.json,.sqlog,.qlog,.pcap,.log,text/csv,application/json';

/**
 * Reads a file in any format the page imports, as the trace CSV the worker replays. A run that does not say
 * its experiment (iperf3, a foreign qlog or link log) is drawn on the experiment the page shows for the
 * other side, the scheme of the kernel's congestion control taken from an iperf3 file: the file does not
 * say its link, the person importing it does by where they import it.
 */
export async function importedCsv(file: File, beside: ScenarioSpec): Promise<ImportedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = detectFormat(bytes);
  // the page's own CSV with its first line lost, another tool's CSV, a lab's table of results alike
  if (format === null) throw new FormatError(`it is none of the files Import reads: ${IMPORT_FORMATS}`);
  const run = readRun(bytes, format);
  if (run.format === 'csv') return { csv: new TextDecoder().decode(bytes), format: 'csv', scheme: null };
  const linux = run.format === 'iperf3' ? parseIperf3(new TextDecoder().decode(bytes)).scheme : null;
  const scheme = linux && findScheme(linux) ? linux : null;
  const c = run.log.columns;
  const lastMs = run.log.length ? c.t[run.log.length - 1] : 0;
  // the file's own flow is named by the file (the kernel's scheme, or what the file is), never by the other side's
  const named = scheme ?? (linux ? `${FILE_NAMES[run.format]} (${linux})` : FILE_NAMES[run.format]);
  const spec: ScenarioSpec | LiveRun = run.spec ?? {
    ...beside,
    durationMs: Math.max(1, Math.ceil(lastMs)),
    flows: beside.flows.map((f, i) => (i === 0 ? { ...f, scheme: named, params: {} } : f)),
  };
  return { csv: formatTraceCsv(run.log, spec), format: run.format, scheme };
}
