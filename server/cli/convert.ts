import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { CsvError, formatTraceCsv } from '../../shared/csv/trace.ts';
import { K } from '../../shared/log/kinds.ts';
import { detectFormat, readRun } from '../../shared/formats/detect.ts';
import { FORMATS, type Format, FormatError } from '../../shared/formats/errors.ts';
import { iperf3IntervalCsv, parseIperf3 } from '../../shared/formats/iperf3.ts';
import { decodeMahimahiLog, encodeMahimahiLog, opportunitiesOver } from '../../shared/formats/mahimahiLog.ts';
import { encodePcap } from '../../shared/formats/pcap.ts';
import { encodeQlog } from '../../shared/formats/qlog.ts';
import { type Run, scenarioOf } from '../../shared/formats/runFacts.ts';
import { TraceError } from '../../shared/trace/mahimahi.ts';
import { loadTrace } from '../traces.ts';
import { flagHelp } from './flagHelp.ts';
import { HELP_FLAG, outputFlag, readCommandLine, UsageError } from './flags.ts';
import { runAsProcess } from './asProcess.ts';
import { type Io, isEntry, type UsageFaults } from './tool.ts';

const OUTPUTS = ['csv', 'pcap', 'qlog', 'mahimahi-log'] as const;
type Output = (typeof OUTPUTS)[number];
const EXTENSION: Record<Output, string> = { csv: '.csv', pcap: '.pcap', qlog: '.sqlog', 'mahimahi-log': '.log' };

export const CONVERT_FLAGS = [
  { name: 'to', kind: 'choice', choices: OUTPUTS, default: 'csv', doc: 'the format to write' },
  { name: 'from', kind: 'choice', choices: FORMATS, default: 'csv', doc: 'the format of IN, when its first bytes do not tell (they do for every format written here)' },
  outputFlag('out', 'where to write (default: IN with the new format’s extension, beside it)'),
  HELP_FLAG,
] as const;

const help = () => `Usage: npm run convert -- IN --to csv|pcap|qlog|mahimahi-log [--out FILE]

Converts a run between the formats the field's tools read. IN is a Pipefill trace CSV, a pcap written
here, a qlog (.sqlog or .qlog), a Mahimahi link log (mm-link --uplink-log) or iperf3's -J output; its
format is recognised from its first bytes.

  csv           the trace CSV (from iperf3: the per-interval summary, the window in packets and bytes)
  pcap          libpcap, as tcpdump on the sender's host captures it (Wireshark, tshark)
  qlog          qlog 0.3 JSON-SEQ of QUIC events (qvis's congestion view)
  mahimahi-log  mm-link's link log of the bottleneck (mm-throughput-graph, mm-delay-graph); its
                delivery opportunities are a trace link's (a constant-rate link's log has none)

${flagHelp(CONVERT_FLAGS)}

Example: npm run convert -- run.csv --to pcap && tshark -r run.pcap -q -z io,stat,1
`;

/** `npm run convert`: reads IN in any format, writes it in the one asked for. */
export async function convert(argv: string[], io: Io): Promise<number> {
  const line = readCommandLine(argv, CONVERT_FLAGS, [], 1);
  if (line.help) {
    io.out(help());
    return 0;
  }
  const input = line.positionals[0];
  if (input === undefined) throw new UsageError('IN, the file to convert, is missing');
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(input);
  } catch (e) {
    throw new UsageError(`cannot read ${input} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const from = line.given.from === undefined ? undefined : line.flags.from;
  const to = line.flags.to;
  const out = line.flags.out ?? join(dirname(input), basename(input, extname(input)) + EXTENSION[to]);
  if (resolve(out) === resolve(input)) throw new UsageError(`--out would overwrite IN (${input}): name another file`);
  const format = from ?? detectFormat(bytes);
  writeFileSync(out, write(bytes, format ?? undefined, to));
  io.out(`${input} (${format}) → ${out} (${to})`);
  return 0;
}

function write(bytes: Uint8Array, from: Format | undefined, to: Output): string | Uint8Array {
  const text = () => new TextDecoder().decode(bytes);
  // An iperf3 test has figures per interval, not events: its CSV is the per-interval summary.
  if (from === 'iperf3' && to === 'csv') return iperf3IntervalCsv(parseIperf3(text()));
  if (from === 'iperf3' && to !== 'qlog') throw new FormatError(`iperf3's JSON has figures per interval, not packets or a bottleneck: it converts to csv or qlog, not ${to}`);
  const run = readRun(bytes, from);
  switch (to) {
    case 'csv':
      return formatTraceCsv(run.log, run.spec);
    case 'pcap':
      return encodePcap(run);
    case 'qlog':
      return encodeQlog(run);
    case 'mahimahi-log':
      return encodeMahimahiLog(run, run.format === 'mahimahi-log' ? decodeMahimahiLog(text()).opportunities : bottleneckOpportunities(run));
  }
}

/** The delivery opportunities of the run's bottleneck, from its trace (or its constant rate as one). */
function bottleneckOpportunities(run: Run): number[] {
  if (run.log.count(K.enqueue) + run.log.count(K.depart) === 0)
    throw new FormatError('the run has no bottleneck events (enqueue, depart): a link log needs a simulated run or an emulated link’s capture');
  const spec = scenarioOf(run);
  const c = run.log.columns;
  const endMs = spec?.durationMs ?? Math.ceil(c.t[run.log.length - 1]);
  if (spec?.link.kind === 'trace') return opportunitiesOver(loadTrace(spec.link.trace).times, endMs, spec.link.once);
  // A constant rate is no trace: mm-link would be given one, but a gigabit's opportunities are a line each.
  return [];
}

/** A file that does not read as its format is the command line's fault. */
export const CONVERT_USAGE: UsageFaults = { errors: [FormatError, CsvError, TraceError] };

if (isEntry(import.meta.url)) await runAsProcess('convert', convert, import.meta.url, CONVERT_USAGE);
