import { describe, expect, it } from 'vitest';
import { BYTES_PER_EVENT, type EventColumns, EventLog, rowsOf } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';

/** A log of `n` rows, row i at time i, of kind send on even rows and ack on odd ones. */
function logOf(n: number, capacity?: number): EventLog {
  const log = new EventLog(capacity);
  for (let i = 0; i < n; i++) log.push(i, i % 2 ? K.ack : K.send, 1, i, 1500, i / 2, 10);
  return log;
}

describe('EventLog', () => {
  it('stores a row as 26 bytes: time 8, kind 1, flow 1, sequence, bytes, value and window 4 each', () => {
    expect(BYTES_PER_EVENT).toBe(26);
    const log = logOf(3, 8);
    expect(log.byteLength).toBe(3 * 26);
    expect(log.allocatedBytes).toBe(8 * 26);
  });

  it('grows past its capacity and keeps every row', () => {
    const log = logOf(5000, 16);
    expect(log.length).toBe(5000);
    const c = log.columns;
    expect([c.t[4999], c.seq[4999], c.value[4999], c.kind[4998]]).toEqual([4999, 4999, 2499.5, K.send]);
    expect(log.allocatedBytes).toBeGreaterThanOrEqual(5000 * 26);
  });

  it('compact() copies the rows: later pushes and changes leave the copy as it was', () => {
    const log = logOf(4);
    const copy = log.compact();
    expect(copy.t.length).toBe(4);
    log.columns.seq[0] = 99;
    log.push(4, K.ack, 1, 4, 80, 0, 0);
    expect([...copy.seq]).toEqual([0, 1, 2, 3]);
    const now = log.columns;
    for (const [name, column] of Object.entries(copy)) expect(column.buffer, name).not.toBe(now[name as keyof EventColumns].buffer);
  });

  it('giveBack() empties a log and lends its columns to the next log they fit, once', () => {
    // Columns an earlier test file gave back in this worker (the unit files share their modules) are taken
    // first: this test counts on those it gives back itself.
    EventLog.lend(1);
    const first = EventLog.lend(5000);
    for (let i = 0; i < 3; i++) first.push(i, K.send, 1, i, 1500, 0, 0);
    const buffer = first.columns.t.buffer;
    first.giveBack();
    expect([first.length, first.count(K.send), first.columns.t.length]).toEqual([0, 0, 0]);
    // too large for the columns given back: fresh ones, and the spare stays for a log it fits
    expect(EventLog.lend(6000).columns.t.buffer).not.toBe(buffer);
    const second = EventLog.lend(4000);
    expect(second.columns.t.buffer).toBe(buffer);
    expect([second.length, second.count(K.send), second.allocatedBytes]).toEqual([0, 0, 5000 * 26]);
    second.push(7, K.ack, 2, 7, 80, 1, 2);
    expect([...second.columns.t, ...second.columns.seq]).toEqual([7, 7]);
    expect(EventLog.lend(100).columns.t.buffer).not.toBe(buffer);
  });

  it('counts rows of each kind, including rows pushed after the last count', () => {
    const log = logOf(5);
    expect([log.count(K.send), log.count(K.ack)]).toEqual([3, 2]);
    log.push(5, K.ack, 1, 5, 80, 0, 0);
    expect([log.count(K.send), log.count(K.ack)]).toEqual([3, 3]);
    expect(rowsOf(log, K.ack)).toEqual([1, 3, 5]);
  });

  it('from() reads columns of which the first `length` rows are the log', () => {
    const log = EventLog.from(logOf(6).compact(), 4);
    expect(log.length).toBe(4);
    expect([...log.columns.t]).toEqual([0, 1, 2, 3]);
    expect(log.count(K.send)).toBe(2);
  });
});
