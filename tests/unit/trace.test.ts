import { describe, expect, it } from 'vitest';
import { constantRateTrace, formatTrace, MAX_TRACE_MS, parseTrace, TraceError, traceMbps } from '../../shared/trace/mahimahi.ts';

describe('parseTrace', () => {
  it('reads one millisecond per line, repeats meaning several opportunities', () => {
    const t = parseTrace('1\n1\n3\n4\n6\n');
    expect(Array.from(t.times)).toEqual([1, 1, 3, 4, 6]);
  });

  it('accepts CRLF line ends, trailing spaces and blank lines', () => {
    expect(Array.from(parseTrace('1\r\n2 \r\n\n5').times)).toEqual([1, 2, 5]);
  });

  it('names the line of a non-numeric entry', () => {
    expect(() => parseTrace('1\n2\nabc\n4')).toThrow(/line 3: not a whole number/);
    expect(() => parseTrace('1\n2.5\n')).toThrow(/line 2/);
    expect(() => parseTrace('1\n-3\n')).toThrow(/line 2/);
    expect(() => parseTrace('1\n2 3\n')).toThrow(/line 2/);
  });

  it('ends a line at a lone carriage return (old Mac files), and skips a byte-order mark', () => {
    expect(Array.from(parseTrace('1\r2\r3\r').times)).toEqual([1, 2, 3]);
    expect(Array.from(parseTrace('1\r\n2\r3\n').times)).toEqual([1, 2, 3]);
    expect(Array.from(parseTrace('\uFEFF1\n2\n').times)).toEqual([1, 2]);
    expect(() => parseTrace('1\r2\rx\r')).toThrow('line 3: not a whole number of milliseconds: "x"');
  });

  it('refuses a timestamp past the hour a run may last, by its value, however many digits it has', () => {
    expect(parseTrace('3600000\n').times[0]).toBe(MAX_TRACE_MS);
    expect(() => parseTrace('1\n3600001\n')).toThrow('line 2: "3600001" ms is past the 3,600,000 ms (an hour) a trace may last');
    expect(() => parseTrace(`1\n${'9'.repeat(60)}\n`)).toThrow(`line 2: "${'9'.repeat(40)}…" (60 characters) ms is past the 3,600,000 ms (an hour) a trace may last`);
  });

  it('refuses decreasing timestamps', () => {
    expect(() => parseTrace('1\n5\n4\n')).toThrow(/line 3: timestamps must not decrease \(4 after 5\)/);
  });

  it('refuses an empty trace and one whose period is 0', () => {
    expect(() => parseTrace('')).toThrow(TraceError);
    expect(() => parseTrace('\n\n')).toThrow(/empty/);
    expect(() => parseTrace('0\n0\n')).toThrow(/above 0/);
  });

  it('reads a file of plain lines as it reads the same numbers with any line ends, spaces and a byte-order mark', () => {
    // the plain file takes a quicker path than the others: both must read the same numbers
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 50; round++) {
      const times: number[] = [];
      for (let k = 0, t = 0; k < 1 + next(300); k++) times.push((t += next(3)) + 1);
      const plain = times.join('\n') + (next(2) ? '\n' : '');
      const mixed = (next(2) ? '\uFEFF' : '') + times.map((t) => `${'0'.repeat(next(2))}${t}${' '.repeat(next(2))}${['\n', '\r\n', '\r', '\n\n'][next(4)]}`).join('');
      expect(Array.from(parseTrace(plain).times)).toEqual(times);
      expect(Array.from(parseTrace(mixed).times)).toEqual(times);
    }
  });

  it('formats back to the same text', () => {
    expect(formatTrace(parseTrace('1\n1\n3\n'))).toBe('1\n1\n3\n');
  });
});

describe('constantRateTrace', () => {
  it('a trace of only "1" is 12.032 Mbit/s', () => {
    expect(traceMbps(parseTrace('1'))).toBeCloseTo(12.032, 6);
  });

  it('spreads opportunities evenly to the asked rate', () => {
    const t = constantRateTrace(12.032);
    expect(t.times.length).toBe(1000);
    expect(Array.from(t.times.slice(0, 3))).toEqual([1, 2, 3]);
    expect(traceMbps(constantRateTrace(5))).toBeCloseTo(5, 1);
    expect(() => constantRateTrace(0)).toThrow(/above 0/);
  });
});
