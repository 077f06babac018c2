import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { containsTrace, filesContaining } from '../../server/contest/heldOutCopies.ts';
import { TRACE_DIR } from '../../server/traces.ts';
import { readFileSync } from 'node:fs';

const lines = (times: number[]) => `${times.join('\n')}\n`;

describe('a served trace that contains a held-out one', () => {
  it('is found by its gaps, wherever the slice starts', () => {
    // gaps 2, 0, 5 — inside 2, 5, 2, 0, 5, 5 (from its third opportunity), 7 ms later in time
    expect(containsTrace(lines([1, 3, 8, 10, 10, 15, 20]), lines([5, 7, 7, 12]))).toBe(true);
    expect(containsTrace(lines([1, 3, 8, 10, 10, 16, 20]), lines([5, 7, 7, 12]))).toBe(false);
    // a gap that only ends the same way is not the same gap (",12," is not ",2,")
    expect(containsTrace(lines([0, 12, 12, 17]), lines([5, 7, 7, 12]))).toBe(false);
  });

  it('is found by either half, for a slice that runs past the longer trace’s end', () => {
    const held = Array.from({ length: 400 }, (_, i) => i * 3 + (i % 7));
    const served = held.slice(150).map((t) => t + 1000); // only the second half and a little more
    expect(containsTrace(lines(served), lines(held))).toBe(true);
    expect(containsTrace(lines(held.slice(0, 150)), lines(held))).toBe(false); // less than a half
  });

  it('among the bundled traces: TMobile-LTE-short.down is a slice of TMobile-LTE-driving.down, and nothing else contains the default held-out traces', () => {
    const heldOut = ['TMobile-LTE-short.down', 'TMobile-LTE-short.up', 'ATT-LTE-driving-2016.down', 'ATT-LTE-driving-2016.up'].map((name) => ({
      name,
      text: readFileSync(join(TRACE_DIR, name), 'utf8'),
    }));
    expect(filesContaining(TRACE_DIR, heldOut)).toEqual([{ file: 'TMobile-LTE-driving.down', contains: 'TMobile-LTE-short.down' }]);
  });
});
