import { csvParse } from 'd3-dsv';
import { describe, expect, it } from 'vitest';
import { formatIntervalCsv } from '../../shared/csv/intervals.ts';
import { CsvError, formatTraceCsv, parseTraceCsv } from '../../shared/csv/trace.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { DROP, K } from '../../shared/log/kinds.ts';
import { MATRIX, matrixRun } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';

describe('trace CSV', () => {
  it('names the schema version, carries the experiment, and reads back exactly', () => {
    const spec = matrixRun(MATRIX.find((r) => r.drop && r.reorder)!, 'reno');
    const run = runScenario(spec, () => {
      throw new Error();
    });
    const text = formatTraceCsv(run.log, spec);
    expect(text.startsWith('# pipefill-trace v1\n# spec {')).toBe(true);
    const back = parseTraceCsv(text);
    expect(back.spec).toEqual(spec);
    expect(back.log.length).toBe(run.log.length);
    expect(back.log.compact()).toEqual(run.log.compact());
    expect(formatTraceCsv(back.log, back.spec)).toBe(text);
  });

  it('writes readable rows: kind names, drop reasons', () => {
    const log = new EventLog();
    log.push(1.5, K.drop, 2, 7, 1500, DROP.queue, 0);
    log.push(2, K.ack, 0, 3, 80, 41.25, 10.5);
    const rows = csvParse(formatTraceCsv(log, null).split('\n').slice(2).join('\n'));
    expect(rows[0]).toEqual({ t_ms: '1.5', flow: '2', kind: 'drop', seq: '7', bytes: '1500', window: '0', value: '0', detail: 'queue' });
    expect(rows[1]).toMatchObject({ kind: 'ack', value: '41.25', window: '10.5' });
  });

  it('writes each value as the shortest decimal that reads back as its 32-bit float, and squish as on/off', () => {
    const log = new EventLog();
    log.push(1, K.squish, 0, 0, 0, 1, 0);
    log.push(2, K.squish, 0, 0, 0, 0, 16_777_216);
    log.push(3, K.ack, 0, 1, 80, 123_456_789, Number.POSITIVE_INFINITY);
    log.push(4, K.ack, 0, 2, 80, 0.1, Number.NEGATIVE_INFINITY);
    log.push(5, K.ack, 0, 3, 80, Number.NaN, 1 / 3);
    const text = formatTraceCsv(log, null);
    expect(text.split('\n').slice(0, 3)).toEqual(['# pipefill-trace v1', '# spec null', 't_ms,flow,kind,seq,bytes,window,value,detail']);
    const rows = csvParse(text.split('\n').slice(2).join('\n'));
    expect(rows.map((r) => [r.window, r.value, r.detail])).toEqual([
      ['0', '1', 'on'],
      ['16777216', '0', 'off'],
      // past 2^24 whole numbers are floats' neighbours: 123456789 is stored as 123456792, and 123456790 reads back as it
      ['Infinity', '123456790', ''],
      ['-Infinity', '0.1', ''],
      ['0.33333334', '', ''],
    ]);
    const back = parseTraceCsv(text).log.columns;
    expect([...back.window]).toEqual([0, 16_777_216, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Math.fround(1 / 3)]);
    expect(Number.isNaN(back.value[4])).toBe(true);
  });

  it('writes a window or value the source does not hold as an empty field, and reads it back as unknown', () => {
    // as a pcap reads: a capture holds no window, and a sent packet's row no value
    const log = new EventLog();
    log.push(0, K.send, 0, 0, 1504, Number.NaN, Number.NaN);
    log.push(43, K.ack, 0, 0, 80, 43, Number.NaN);
    log.push(44, K.send, 0, 1, 1504, Number.NaN, 12);
    const text = formatTraceCsv(log, null);
    expect(text.split('\n').slice(3)).toEqual(['0,0,send,0,1504,,,', '43,0,ack,0,80,,43,', '44,0,send,1,1504,12,,', '']);
    const back = parseTraceCsv(text).log.columns;
    expect([...back.t.slice(0, 3)]).toEqual([0, 43, 44]);
    expect([...back.kind.slice(0, 3)]).toEqual([K.send, K.ack, K.send]);
    expect([...back.seq.slice(0, 3)]).toEqual([0, 0, 1]);
    expect([...back.bytes.slice(0, 3)]).toEqual([1504, 80, 1504]);
    expect([...back.window.slice(0, 3)]).toEqual([Number.NaN, Number.NaN, 12]);
    expect([...back.value.slice(0, 3)]).toEqual([Number.NaN, 43, Number.NaN]);
    expect(formatTraceCsv(parseTraceCsv(text).log, null)).toBe(text);
    // a file written before reads as it did: "NaN" is unknown too
    const head = '# pipefill-trace v1\n# spec null\nt_ms,flow,kind,seq,bytes,window,value,detail\n';
    const old = parseTraceCsv(`${head}0,0,send,0,1504,NaN,NaN,\n`).log.columns;
    expect([old.window[0], old.value[0]]).toEqual([Number.NaN, Number.NaN]);
    // only a window or a value may be unknown: an empty time, sequence number or size is still refused
    expect(() => parseTraceCsv(`${head},0,send,0,1504,,,\n`)).toThrow('line 4: t_ms is not a number ("")');
    expect(() => parseTraceCsv(`${head}0,0,send,,1504,,,\n`)).toThrow('line 4: seq is not a number ("")');
    expect(() => parseTraceCsv(`${head}0,0,send,0,,,,\n`)).toThrow('line 4: bytes is not a number ("")');
  });

  it('refuses what is not a Pipefill trace, naming the line', () => {
    expect(() => parseTraceCsv('t,x\n1,2\n')).toThrow('not a Pipefill trace: the first line must be "# pipefill-trace v1"');
    expect(() => parseTraceCsv('')).toThrow('not a Pipefill trace: the first line must be "# pipefill-trace v1"');
    expect(parseTraceCsv('# pipefill-trace v1 \n# spec null\nt_ms,flow,kind,seq,bytes,window,value,detail\n').log.length).toBe(0);
    expect(() => parseTraceCsv('# pipefill-trace v1\nspec null\n')).toThrow('line 2 must be "# spec" followed by the experiment');
    expect(() => parseTraceCsv('t,x\n1,2\n')).toThrow(CsvError);
    // the run's other export: its figures per interval, which hold no events
    expect(() => parseTraceCsv(formatIntervalCsv(new EventLog(), 100, 200))).toThrow(
      'this is a run’s per-interval summary, which holds no events to replay: import its trace CSV (Export → Trace CSV)',
    );
    expect(() => parseTraceCsv('# pipefill-trace v1\n# spec {oops\n')).toThrow(/line 2/);
    const head = '# pipefill-trace v1\n# spec null\nt_ms,flow,kind,seq,bytes,window,value,detail\n';
    expect(() => parseTraceCsv(`${head}1,0,send,0,1500,1,0,\n2,0,fly,0,1,1,0,\n`)).toThrow(/line 5: unknown kind "fly"/);
    expect(() => parseTraceCsv(`${head}x,0,send,0,1500,1,0,\n`)).toThrow(/line 4: t_ms is not a number/);
    expect(() => parseTraceCsv(`${head}1,300,send,0,1500,1,0,\n`)).toThrow(/flow must be/);
    expect(() => parseTraceCsv('# pipefill-trace v1\n# spec null\nt_ms,flow\n')).toThrow(/missing column "kind"/);
    // Rows at one time are in order; a time before the row above's is not (a run's rows pasted after themselves).
    expect(parseTraceCsv(`${head}0,0,send,0,1500,1,1,\n2.5,0,send,1,1500,1,2,\n2.5,0,ack,0,80,1,40,\n`).log.columns.t.slice(0, 3)).toEqual(new Float64Array([0, 2.5, 2.5]));
    expect(() => parseTraceCsv(`${head}0,0,send,0,1500,1,1,\n2.5,0,ack,0,80,1,40,\n0,0,send,0,1500,1,1,\n2.5,0,ack,0,80,1,40,\n`)).toThrow(
      'line 6: time goes backwards (t_ms 0 after 2.5): the rows of a trace are in time order',
    );
    // Cut in the middle of a value that still reads as a number ("0.2" of "0.25"): the missing line break gives it away.
    expect(() => parseTraceCsv(`${head}1,0,send,0,1500,1,0,\n2,0,ack,0,80,1,0.2`)).toThrow('line 5 is cut off: the file ends in the middle of a row (was it truncated?)');
  });
});

describe('interval summary CSV', () => {
  it('sums throughput and averages delays per interval and flow', () => {
    const log = new EventLog();
    log.push(10, K.depart, 0, 0, 1500, 4, 0);
    log.push(20, K.depart, 0, 1, 1500, 6, 0);
    log.push(30, K.ack, 0, 0, 80, 40, 3);
    log.push(150, K.drop, 0, 2, 1500, 0, 0);
    const rows = csvParse(formatIntervalCsv(log, 100, 200).split('\n').slice(1).join('\n'));
    expect(rows[0]).toEqual({ t_ms: '0', flow: '0', throughput_mbps: '0.24', queue_delay_ms: '5', rtt_ms: '40', window: '3', drops: '0', timeouts: '0' });
    expect(rows[1]).toMatchObject({ t_ms: '100', throughput_mbps: '0', drops: '1' });
  });
});
