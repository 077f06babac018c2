import { describe, expect, it } from 'vitest';
import { formatTraceCsv, parseTraceCsv } from '../../../shared/csv/trace.ts';
import { readRun } from '../../../shared/formats/detect.ts';
import { decodeMahimahiLog, encodeMahimahiLog, opportunitiesOver } from '../../../shared/formats/mahimahiLog.ts';
import { encodePcap } from '../../../shared/formats/pcap.ts';
import { encodeQlog } from '../../../shared/formats/qlog.ts';
import type { Run } from '../../../shared/formats/runFacts.ts';
import { EventLog } from '../../../shared/log/eventLog.ts';
import { DROP } from '../../../shared/log/kinds.ts';
import { flow, MATRIX, matrixRun } from '../../../shared/scenarios/presets.ts';
import { loadTrace } from '../../../server/traces.ts';
import { K, lossyReliable, offsetFetch, rows, shortContest } from '../../helpers/formatRuns.ts';

/** The run written as the project's CSV, read back, converted, and read back again: what the format keeps. */
function throughCsv(run: Run): Run {
  return parseTraceCsv(formatTraceCsv(run.log, run.spec));
}

/** Rows alike field by field, numbers within each field's tolerance (NaN only as NaN). */
const near = (a: (number | string)[][], b: (number | string)[][], tolerance: number[]) =>
  a.length === b.length && a.every((r, i) => r.every((v, k) => Object.is(v, b[i][k]) || (typeof v === 'number' && Math.abs(v - (b[i][k] as number)) <= (tolerance[k] ?? 0))));

describe('pcap round trip (CSV → pcap → CSV)', () => {
  it('keeps every send, retransmission and ACK of a lossy reliable transfer, with the ACK’s RTT', () => {
    const run = throughCsv(lossyReliable());
    expect(run.log.count(K.retransmit)).toBeGreaterThan(0);
    const back = readRun(encodePcap(run));
    expect(back.log.count(K.retransmit)).toBe(run.log.count(K.retransmit));
    expect(back.format).toBe('pcap');
    const want = rows(run.log, [K.send, K.retransmit, K.ack], ['value']).map((r) => (r[2] === 'ack' ? r : [...r.slice(0, 5), Number.NaN]));
    expect(near(rows(back.log, [K.send, K.retransmit, K.ack], ['value']), want, [1e-6, 0, 0, 0, 0, 1e-3])).toBe(true);
  });

  it('keeps a contest run’s per-packet ACKs (as SACK blocks) and its sends', () => {
    const run = shortContest();
    const back = readRun(encodePcap(run));
    expect(rows(back.log, [K.send, K.retransmit, K.ack])).toEqual(rows(run.log, [K.send, K.retransmit, K.ack]));
  });

  it('keeps an offset session’s requests and replies, by offset, from the protocol’s own text', () => {
    const run = offsetFetch();
    const back = readRun(encodePcap(run));
    const t = [1e-6, 0, 0, 0, 0];
    expect(near(rows(back.log, [K.send, K.reply]), rows(run.log, [K.send, K.reply]), t)).toBe(true);
  });

  it('keeps an emulated link’s datagrams as the sender sent them, UDP of the sizes the link counted', () => {
    const spec = { ...matrixRun(MATRIX[0]), flows: [flow('external', {}, 0, 1000)] };
    const log = new EventLog();
    log.push(0.25, K.send, 0, 0, 28 + 1000, 1, 0);
    log.push(1.5, K.deliver, 0, 0, 28 + 1000, 1.25, 0);
    log.push(2.75, K.send, 0, 1, 28 + 12, 1, 0);
    const bytes = encodePcap(throughCsv({ log, spec }));
    expect(bytes.length).toBe(24 + 2 * (16 + 28));
    expect(new DataView(bytes.buffer).getUint8(24 + 16 + 9)).toBe(17);
    expect(rows(readRun(bytes).log, [K.send])).toEqual(rows(log, [K.send]));
  });
});

describe('qlog round trip (CSV → qlog → CSV)', () => {
  it('keeps sends, retransmissions, ACKs, losses and timeouts with the window, the flight and the RTT', () => {
    const run = throughCsv(lossyReliable());
    const back = readRun(new TextEncoder().encode(encodeQlog(run)));
    expect(back.format).toBe('qlog');
    expect(back.spec).toEqual(run.spec);
    const kinds = [K.send, K.retransmit, K.ack, K.loss, K.timeout];
    expect(run.log.count(K.timeout) * run.log.count(K.loss)).toBeGreaterThan(0);
    const sent = (r: Run) => rows(r.log, [K.send, K.retransmit], ['value', 'window']);
    expect(sent(back)).toEqual(sent(run));
    const acks = (r: Run) => rows(r.log, [K.ack], ['value', 'window']);
    expect(acks(back)).toEqual(acks(run));
    expect(rows(back.log, kinds, ['window']).map((r) => r.slice(0, 3))).toEqual(rows(run.log, kinds, ['window']).map((r) => r.slice(0, 3)));
  });

  it('keeps an offset session’s replies with their RTT', () => {
    const run = offsetFetch();
    const back = readRun(new TextEncoder().encode(encodeQlog(run)));
    const replies = (r: Run) => rows(r.log, [K.reply], ['value', 'window']);
    expect(replies(back)).toEqual(replies(run));
  });
});

describe('Mahimahi link log round trip (CSV → log → CSV)', () => {
  it('keeps the bottleneck’s arrivals, departures with their delay, and drops, and the trace’s opportunities', () => {
    const run = shortContest();
    expect(run.log.count(K.drop)).toBeGreaterThan(0);
    const trace = loadTrace('Verizon-LTE-short.down');
    const opportunities = opportunitiesOver(trace.times, 20_000, true);
    const text = encodeMahimahiLog(run, opportunities);
    const back = decodeMahimahiLog(text);
    expect(back.opportunities).toEqual(opportunities);
    const bottleneck = [K.enqueue, K.depart];
    expect(rows(back.log, bottleneck, ['value'])).toEqual(rows(run.log, bottleneck, ['value']));
    const drops = (r: Run) => rows(r.log, [K.drop], ['value']).filter((d) => d[5] === DROP.queue);
    expect(drops(back)).toEqual(drops(run));
  });
});
