import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRun } from '../../../shared/formats/detect.ts';
import type { Format } from '../../../shared/formats/errors.ts';
import { parseIperf3 } from '../../../shared/formats/iperf3.ts';
import { encodePcap } from '../../../shared/formats/pcap.ts';
import { EventLog } from '../../../shared/log/eventLog.ts';
import { K } from '../../../shared/log/kinds.ts';
import { convert, CONVERT_USAGE } from '../../../server/cli/convert.ts';
import { runInProcess } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/tempDir.ts';

const text = (s: string) => new TextEncoder().encode(s);
const fails = (bytes: Uint8Array, from?: Format) => {
  try {
    readRun(bytes, from);
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return 'read';
};

function onePacketPcap(): Uint8Array {
  const log = new EventLog();
  log.push(0, K.send, 0, 0, 1500, 1, 1);
  return encodePcap({ log, spec: null });
}

describe('bad files get an error naming where', () => {
  it('pcap: a short file, another magic number, pcapng, a record cut off', () => {
    expect(fails(new Uint8Array(10), 'pcap')).toBe('FormatError: not a pcap file: 10 bytes, shorter than the 24-byte file header');
    expect(fails(new Uint8Array(24), 'pcap')).toBe('FormatError: not a pcap file: the magic number is 0x00000000');
    expect(fails(new Uint8Array([0x0a, 0x0d, 0x0d, 0x0a, ...new Uint8Array(40)]))).toMatch(/it is pcapng: save it as pcap/);
    expect(fails(onePacketPcap().subarray(0, 60))).toBe('FormatError: record 1 (byte 24): 52 bytes captured, but the file ends 20 bytes on (was it cut off?)');
  });

  it('qlog: a record that is not JSON, a missing header, an event without a time', () => {
    expect(fails(text('\x1e{"qlog_version":"0.3","qlog_format":"JSON-SEQ"}\n\x1e{"time":1,\n'))).toMatch(/^FormatError: qlog record 2: not JSON \(/);
    expect(fails(text('\x1e{"time":1,"name":"x"}\n'))).toBe('FormatError: qlog: the first record must be the header, with "qlog_version" (0.3) or "file_schema" (current drafts)');
    expect(fails(text('\x1e{"qlog_version":"0.3"}\n\x1e{"time":"soon","name":"transport:packet_sent","data":{}}\n'))).toBe('FormatError: qlog record 2: "time" must be a number (got "soon")');
    expect(fails(text('{"qlog_version":"0.3","traces":[{"events":[[0,"transport","packet_sent",{}]]}]}'))).toMatch(/traces\[0\]\.events\[0\]: an event must be an object/);
  });

  it('Mahimahi link log: no base timestamp, an unknown event, a departure without its delay', () => {
    expect(fails(text('0 + 1504\n'), 'mahimahi-log')).toBe('FormatError: line 1: an event before the "# base timestamp:" line (not an mm-link log?)');
    expect(fails(text('# base timestamp: 5\n6 + 1504\n7 x 1504\n'))).toBe('FormatError: line 3: unknown event "x" (mm-link logs have +, #, - and d)');
    expect(fails(text('# base timestamp: 5\n6 + 1504\n7 - 1504\n'))).toBe('FormatError: line 3: a departure needs its delay ("timestamp - bytes delay")');
    expect(fails(text('# base timestamp: 5\n6 + many\n'))).toBe('FormatError: line 2: expected "timestamp event bytes [delay]" with whole numbers (got "6 + many")');
  });

  it('iperf3: not JSON, no intervals, a UDP test, the receiver’s side, a failed test', () => {
    expect(() => parseIperf3('{"start":')).toThrow(/^iperf3 JSON: not JSON \(/);
    expect(() => parseIperf3('{"start":{}}')).toThrow('iperf3 JSON: "intervals" must be a non-empty list (is this iperf3 -J output?)');
    expect(() => parseIperf3('{"start":{"test_start":{"protocol":"UDP"}},"intervals":[]}')).toThrow('iperf3 JSON: start.test_start.protocol is "UDP"; only TCP tests carry a window and RTT');
    expect(() => parseIperf3('{"intervals":[{"streams":[{"start":0,"end":1,"bytes":1,"bits_per_second":8,"retransmits":0,"rtt":5,"sender":false}]}]}')).toThrow(
      "iperf3 JSON: intervals[0].streams[0] is the receiver's side, which has no window",
    );
    expect(() => parseIperf3('{"intervals":[{"streams":[{"start":0,"end":1,"bytes":1,"bits_per_second":8,"retransmits":0,"snd_cwnd":"big","rtt":5}]}]}')).toThrow(
      'iperf3 JSON: intervals[0].streams[0].snd_cwnd must be a number not below 0 (got "big")',
    );
    expect(() => parseIperf3('{"start":{},"intervals":[],"error":"unable to connect to server: Connection refused"}')).toThrow(
      'iperf3 JSON: the test failed ("unable to connect to server: Connection refused")',
    );
  });

  it('a file of no known format says so', () => {
    expect(fails(text('hello\n'))).toBe('FormatError: the format is not recognised: not a Pipefill trace CSV, pcap, qlog, Mahimahi link log or iperf3 JSON (name it with --from)');
  });
});

describe('npm run convert with a bad file', () => {
  it('exits with 2 and the line at fault, never a stack trace', async () => {
    const dir = tempDir('convert-');
    const bad = join(dir, 'bad.log');
    writeFileSync(bad, '# base timestamp: 0\n1 + 1504\n2 ? 3\n');
    const r = await runInProcess('convert', convert, [bad, '--to', 'csv'], CONVERT_USAGE);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('convert: line 3: unknown event "?" (mm-link logs have +, #, - and d)\nRun with --help for the options.\n');
    const missing = await runInProcess('convert', convert, [join(dir, 'none.csv')], CONVERT_USAGE);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read') });
    const two = await runInProcess('convert', convert, [bad, bad], CONVERT_USAGE);
    expect(two.stderr).toContain('unexpected argument');
  });
});
