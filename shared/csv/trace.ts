import { csvRecords } from './records.ts';
import { EventLog } from '../log/eventLog.ts';
import { DROP_REASONS, ESTIMATES, K, KINDS } from '../log/kinds.ts';
import type { LiveRun, ScenarioSpec } from '../scenarios/spec.ts';

/**
 * The trace CSV, one schema for simulated and live runs. The first line names the schema version, the
 * second carries the experiment so an import can replay it; then one row per event. `value` means, by
 * kind: send, retransmit, loss → packets in flight with it; enqueue, mark → queue length (packets); depart → queueing delay; deliver → one-way delay; ack, reply →
 * RTT; timeout → the timeout in force; estimate, penalty → the figure; done → elapsed ms (offset: server
 * Time). `detail` names a drop's reason, an estimate, or squish on/off. A window or value the source does
 * not hold (a pcap has no window, a sent packet's capture no value) is unknown (NaN) and written as an empty field.
 */
export const CSV_VERSION = 'pipefill-trace v1';
export const CSV_COLUMNS = ['t_ms', 'flow', 'kind', 'seq', 'bytes', 'window', 'value', 'detail'] as const;

export class CsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvError';
  }
}

/** Shortest decimal that reads back as the same 32-bit float; unknown (NaN) as an empty field. */
function f32(v: number): string {
  // up to 2^24 every whole number is a float and nothing shorter reads back as it: most of a log's values
  if (Number.isInteger(v) && Math.abs(v) <= 16_777_216) return String(v);
  if (Number.isNaN(v)) return '';
  if (!Number.isFinite(v)) return String(v);
  for (let p = 1; p < 10; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return String(s);
  }
  return String(v);
}

function detailOf(kind: number, seq: number, value: number): string {
  if (kind === K.drop) return DROP_REASONS[value] ?? '';
  if (kind === K.estimate) return ESTIMATES[seq] ?? '';
  if (kind === K.squish) return value ? 'on' : 'off';
  return '';
}

export function formatTraceCsv(log: EventLog, spec: ScenarioSpec | LiveRun | null): string {
  const c = log.columns;
  // No field can hold a comma, a quote or a line break (numbers and names from fixed lists): rows are
  // joined as they are. A row's window is most often the one before it, so its text is kept.
  const lines: string[] = [CSV_COLUMNS.join(',')];
  let window = NaN;
  let windowText = '';
  for (let i = 0; i < log.length; i++) {
    const w = c.window[i];
    if (w !== window) windowText = f32((window = w));
    lines.push(`${c.t[i]},${c.flow[i]},${KINDS[c.kind[i]]},${c.seq[i]},${c.bytes[i]},${windowText},${f32(c.value[i])},${detailOf(c.kind[i], c.seq[i], c.value[i])}`);
  }
  return `# ${CSV_VERSION}\n# spec ${spec ? JSON.stringify(spec) : 'null'}\n${lines.join('\n')}\n`;
}

export interface ImportedTrace {
  log: EventLog;
  spec: ScenarioSpec | LiveRun | null;
}

const MAX_ROWS = 5_000_000;

/** Reads a trace CSV back into an event log; throws CsvError naming the first problem and its line. */
export function parseTraceCsv(text: string): ImportedTrace {
  const lines = text.split('\n', 2);
  if (lines[0]?.trim() !== `# ${CSV_VERSION}`) {
    // The other file a run exports: its figures per interval, which cannot replay it.
    if (lines[0]?.startsWith(`# ${CSV_VERSION} intervals`)) throw new CsvError('this is a run’s per-interval summary, which holds no events to replay: import its trace CSV (Export → Trace CSV)');
    throw new CsvError(`not a Pipefill trace: the first line must be "# ${CSV_VERSION}"`);
  }
  const specLine = lines[1] ?? '';
  if (!specLine.startsWith('# spec ')) throw new CsvError('line 2 must be "# spec" followed by the experiment');
  let spec: ImportedTrace['spec'];
  try {
    spec = JSON.parse(specLine.slice('# spec '.length)) as ImportedTrace['spec'];
  } catch {
    throw new CsvError('line 2: the experiment is not valid JSON');
  }
  const body = text.slice(lines[0].length + specLine.length + 2);
  const rows = csvRecords(body);
  for (const col of CSV_COLUMNS) if (!rows.columns.includes(col)) throw new CsvError(`line 3: missing column "${col}"`);
  if (rows.length > MAX_ROWS) throw new CsvError(`more than ${MAX_ROWS} rows`);
  // An export ends with a line break: without one, the last row may have been cut anywhere, even where it still reads as a number.
  if (!text.endsWith('\n')) throw new CsvError(`line ${rows.length + 3} is cut off: the file ends in the middle of a row (was it truncated?)`);
  const log = new EventLog(Math.max(16, rows.length));
  // Every exporter writes its rows in the order of events, which is time order (rows at one time included):
  // rows out of order (files joined end to end) would replay a run longer than its experiment says.
  let lastT = -Infinity;
  rows.forEach((r, i) => {
    const line = i + 4;
    const kind = K[r.kind as keyof typeof K];
    if (kind === undefined) throw new CsvError(`line ${line}: unknown kind "${r.kind}"`);
    const n = (name: (typeof CSV_COLUMNS)[number]) => {
      const raw = r[name] ?? '';
      // An empty window or value is one the file does not hold: unknown, as "NaN" (what older exports wrote) is.
      if (raw === '' && (name === 'window' || name === 'value')) return NaN;
      const v = raw === 'Infinity' ? Infinity : raw === '-Infinity' ? -Infinity : raw === 'NaN' ? NaN : raw.trim() === '' ? NaN : Number(raw);
      if (Number.isNaN(v) && raw !== 'NaN') throw new CsvError(`line ${line}: ${name} is not a number ("${raw}")`);
      return v;
    };
    const flow = n('flow');
    if (!Number.isInteger(flow) || flow < 0 || flow > 255) throw new CsvError(`line ${line}: flow must be a whole number from 0 to 255`);
    const t = n('t_ms');
    if (t < lastT) throw new CsvError(`line ${line}: time goes backwards (t_ms ${t} after ${lastT}): the rows of a trace are in time order`);
    lastT = t;
    log.push(t, kind, flow, n('seq'), n('bytes'), n('value'), n('window'));
  });
  return { log, spec };
}
