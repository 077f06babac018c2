import { describe, expect, it } from 'vitest';
import { tracesInName, workerName } from '../../../web/worker/protocol.ts';

describe("a simulation worker's name", () => {
  it('carries the traces it loads as it starts, and gives them back in order', () => {
    const name = workerName('a', ['Verizon-LTE-short.down', 'Verizon-LTE-short.up']);
    expect(name).toBe('simulation a: traces Verizon-LTE-short.down,Verizon-LTE-short.up');
    expect(tracesInName(name)).toEqual(['Verizon-LTE-short.down', 'Verizon-LTE-short.up']);
  });

  it('asks for nothing when it names no traces (a worker that replaces a hung one)', () => {
    expect(workerName('b', [])).toBe('simulation b');
    expect(tracesInName('simulation b')).toEqual([]);
    expect(tracesInName('')).toEqual([]);
  });
});
