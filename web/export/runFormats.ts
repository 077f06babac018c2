import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { encodeMahimahiLog, opportunitiesOver } from '../../shared/formats/mahimahiLog.ts';
import { encodePcap } from '../../shared/formats/pcap.ts';
import { encodeQlog } from '../../shared/formats/qlog.ts';
import { scenarioOf } from '../../shared/formats/runFacts.ts';
import { parseTrace } from '../../shared/trace/mahimahi.ts';

/** The formats a run exports in beside its CSVs, with the file's extension and type. */
export const RUN_FORMATS = {
  pcap: { title: 'pcap (Wireshark)', extension: 'pcap', type: 'application/vnd.tcpdump.pcap' },
  qlog: { title: 'qlog (qvis)', extension: 'sqlog', type: 'application/qlog+json-seq' },
  'mahimahi-log': { title: 'Mahimahi link log', extension: 'log', type: 'text/plain' },
} as const;
export type RunFormat = keyof typeof RUN_FORMATS;

/**
 * A run's trace CSV (as its worker makes it) in another format. A link log takes the delivery
 * opportunities of the run's trace, read by `traceText` (null when the run has no trace link).
 */
export async function runAs(format: RunFormat, csv: string, traceText: (name: string) => Promise<string | null>): Promise<Blob> {
  const run = parseTraceCsv(csv);
  const type = RUN_FORMATS[format].type;
  if (format === 'pcap') return new Blob([encodePcap(run) as Uint8Array<ArrayBuffer>], { type });
  if (format === 'qlog') return new Blob([encodeQlog(run)], { type });
  const spec = scenarioOf(run);
  const link = spec?.link;
  const text = link?.kind === 'trace' ? await traceText(link.trace) : null;
  const opportunities = text && spec && link ? opportunitiesOver(parseTrace(text, link.trace).times, spec.durationMs, link.once) : [];
  return new Blob([encodeMahimahiLog(run, opportunities, link?.trace || 'pipefill')], { type });
}
