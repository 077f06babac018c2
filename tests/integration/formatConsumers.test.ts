import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRun } from '../../shared/formats/detect.ts';
import { encodePcap } from '../../shared/formats/pcap.ts';
import { convert, CONVERT_USAGE } from '../../server/cli/convert.ts';
import { runInProcess } from '../helpers/cli.ts';
import { iperf3Json } from '../helpers/iperf3.ts';
import { K, offsetFetch, rows, shortContest } from '../helpers/formatRuns.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * The formats against the tools that read and write them: Debian's tshark reads the pcap files, Debian's
 * iperf3 writes the JSON that is imported (both installed by .ci/run).
 */
const dir = tempDir('formats-');

/** tshark's fields of every packet, one array per packet. */
function tshark(file: string, fields: string[], filter?: string): string[][] {
  const args = ['-r', file, '-T', 'fields', '-E', 'separator=/t', ...fields.flatMap((f) => ['-e', f]), ...(filter ? ['-Y', filter] : [])];
  const out = execFileSync('tshark', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 });
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'));
}

describe('tshark reads the pcap export', () => {
  it('sees every packet of a contest run at its time, with its size, ports and sequence numbers', () => {
    const run = shortContest();
    const file = join(dir, 'contest.pcap');
    writeFileSync(file, encodePcap(run));
    const want = rows(run.log, [K.send, K.retransmit, K.ack]);
    const seen = tshark(file, ['frame.time_epoch', 'frame.len', 'tcp.srcport', 'tcp.seq_raw', 'tcp.len']);
    expect(seen.length).toBe(want.length);
    for (let i = 0; i < want.length; i += 97) {
      const [t, , kind, seq, bytes] = want[i];
      expect(Number(seen[i][0]) * 1000).toBeCloseTo(t as number, 6);
      expect(Number(seen[i][1])).toBe(bytes);
      expect(seen[i][2]).toBe(kind === 'ack' ? '5001' : '40000');
      if (kind === 'send') expect([Number(seen[i][3]), Number(seen[i][4])]).toEqual([1 + (seq as number) * 1452, 1452]);
    }
  });

  it('takes the ACKs for what they acknowledge: its RTT per ACK is the model’s', () => {
    const run = shortContest();
    const file = join(dir, 'contest-rtt.pcap');
    writeFileSync(file, encodePcap(run));
    const acks = rows(run.log, [K.ack], ['value']);
    const rtts = tshark(file, ['tcp.analysis.ack_rtt'], 'tcp.srcport == 5001 && tcp.analysis.ack_rtt');
    // Wireshark times an ACK that moves the acknowledged number on, from the segment it covers last.
    expect(rtts.length).toBeGreaterThan(acks.length * 0.9);
    expect(Number(rtts[0][0]) * 1000).toBeCloseTo(acks[0][5] as number, 6);
  });

  it('reads an offset session as UDP carrying the course protocol’s text headers', () => {
    const run = offsetFetch();
    const file = join(dir, 'offset.pcap');
    writeFileSync(file, encodePcap(run));
    const want = rows(run.log, [K.send, K.reply]);
    const seen = tshark(file, ['frame.time_epoch', 'ip.len', 'udp.dstport', 'data.data']);
    expect(seen.length).toBe(want.length);
    expect(Buffer.from(seen[0][3], 'hex').toString('latin1')).toBe('Offset: 0\nNumBytes: 1448\n\n');
    expect(seen[0][2]).toBe('9802');
    const reply = want.findIndex((r) => r[2] === 'reply');
    expect(Number(seen[reply][1])).toBe(28 + 'Offset: 0\nNumBytes: 1448\n\n'.length + 1448);
    expect(Buffer.from(seen[reply][3], 'hex').toString('latin1')).toBe('Offset: 0\nNumBytes: 1448\n\n');
    expect(Number(seen[reply][0]) * 1000).toBeCloseTo(want[reply][0] as number, 6);
  });
});

describe('a real iperf3 transfer over loopback imports', () => {
  it('as a run with the kernel’s window and RTT per interval, and converts to the per-interval CSV', async () => {
    const json = await iperf3Json(['-t', '1', '-i', '0.25']);
    const file = join(dir, 'iperf3.json');
    writeFileSync(file, json);
    const run = readRun(readFileSync(file));
    expect(run.format).toBe('iperf3');
    const acks = rows(run.log, [K.ack], ['value', 'window']);
    expect(acks.length).toBeGreaterThanOrEqual(4);
    for (const a of acks) {
      expect(a[5]).toBeGreaterThan(0);
      expect(a[6]).toBeGreaterThan(0);
    }
    const out = join(dir, 'iperf3.csv');
    const r = await runInProcess('convert', convert, [file, '--to', 'csv', '--out', out], CONVERT_USAGE);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines[0]).toMatch(/^# pipefill-trace v1 intervals 2\d\d ms \(iperf3, \w+, \d+-byte packets\)$/);
    expect(lines[1]).toBe('t_ms,flow,throughput_mbps,queue_delay_ms,rtt_ms,window,drops,timeouts,window_bytes,retransmits');
    expect(lines.filter((l) => /^\d/.test(l)).length).toBe(acks.length);
    // and on to qlog, the kernel's window in bytes
    const qlog = await runInProcess('convert', convert, [file, '--to', 'qlog', '--out', join(dir, 'iperf3.sqlog')], CONVERT_USAGE);
    expect(qlog.code, qlog.stderr).toBe(0);
    const metrics = readFileSync(join(dir, 'iperf3.sqlog'), 'utf8')
      .split('\x1e')
      .filter((r) => r.includes('congestion_window'));
    expect(JSON.parse(metrics[0]).data.congestion_window).toBeCloseTo(JSON.parse(json).intervals[0].streams[0].snd_cwnd, 0);
  }, 60_000);
});
