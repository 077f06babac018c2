import { CsvError, CSV_VERSION, parseTraceCsv } from '../csv/trace.ts';
import { FormatError, type Format } from './errors.ts';
import { iperf3Run, parseIperf3 } from './iperf3.ts';
import { decodeMahimahiLog } from './mahimahiLog.ts';
import { PCAP_MAGIC_NS, PCAP_MAGIC_US } from './pcap.ts';
import { decodePcap } from './pcapRead.ts';
import { decodeQlog } from './qlogRead.ts';
import type { Run } from './runFacts.ts';

const PCAPNG_MAGIC = 0x0a0d0d0a;

/** Which format a file is in, from its first bytes; null when none fits. */
export function detectFormat(bytes: Uint8Array): Format | null {
  if (bytes.length >= 4) {
    const v = new DataView(bytes.buffer, bytes.byteOffset, 4);
    const magics = [v.getUint32(0, true), v.getUint32(0, false)];
    if (magics.some((m) => m === PCAP_MAGIC_NS || m === PCAP_MAGIC_US || m === PCAPNG_MAGIC)) return 'pcap';
  }
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  const start = head.trimStart();
  if (start.startsWith(`# ${CSV_VERSION}`)) return 'csv';
  if (start.startsWith('\x1e') || (start.startsWith('{') && /"(qlog_version|file_schema|qlog_format)"/.test(head))) return 'qlog';
  if (start.startsWith('{') && /"(intervals|connected|test_start)"/.test(head)) return 'iperf3';
  if (/^# mahimahi mm-link|^# base timestamp: \d+/m.test(head) || /^\d+ [+#-] \d+/.test(start)) return 'mahimahi-log';
  return null;
}

/** A file in any format read into a run; `from` overrides what its bytes say. Errors are FormatError or CsvError. */
export function readRun(bytes: Uint8Array, from?: Format): Run & { format: Format } {
  const format = from ?? detectFormat(bytes);
  if (format === null) throw new FormatError('the format is not recognised: not a Pipefill trace CSV, pcap, qlog, Mahimahi link log or iperf3 JSON (name it with --from)');
  const text = () => new TextDecoder().decode(bytes);
  switch (format) {
    case 'csv':
      return { ...parseTraceCsv(text()), format };
    case 'pcap':
      return { ...decodePcap(bytes), format };
    case 'qlog':
      return { ...decodeQlog(text()), format };
    case 'mahimahi-log': {
      const { log, spec } = decodeMahimahiLog(text());
      return { log, spec, format };
    }
    case 'iperf3':
      return { ...iperf3Run(parseIperf3(text())), format };
  }
}

/** Whether an error is the file's fault (said to the user as it is) rather than the program's. */
export const isFileError = (e: unknown): e is Error => e instanceof FormatError || e instanceof CsvError;
