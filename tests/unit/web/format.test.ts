import { describe, expect, it } from 'vitest';
import { bitrate, fixed, significant, tickFormat } from '../../../web/charts/format.ts';

describe('axis and rate formatting', () => {
  it('cards: a value rounding to zero has no sign; ratios keep three significant digits', () => {
    expect([fixed(-0.04, 1), fixed(-0.05, 1), fixed(-0.06, 1), fixed(0, 0), fixed(Number.NaN, 1)]).toEqual(['0.0', '-0.1', '-0.1', '0', '—']);
    expect([0.51 / 7.691, 0.31 / 2.735, 4.34 / 0.128, 1234.5, Number.POSITIVE_INFINITY].map(significant)).toEqual(['0.0663', '0.113', '33.9', '1235', '—']);
  });

  it('gives close ticks above 1000 the digits that tell them apart', () => {
    const ticks = [14_000, 14_200, 14_400, 14_600];
    expect(ticks.map(tickFormat(ticks))).toEqual(['14k', '14.2k', '14.4k', '14.6k']);
    const finer = [14_000, 14_050, 14_100];
    expect(finer.map(tickFormat(finer))).toEqual(['14k', '14.05k', '14.1k']);
  });

  it('keeps round ticks short and small ticks decimal', () => {
    const round = [0, 5_000, 10_000, 15_000];
    expect(round.map(tickFormat(round))).toEqual(['0', '5k', '10k', '15k']);
    const small = [0, 0.2, 0.4, 0.6];
    expect(small.map(tickFormat(small))).toEqual(['0', '0.2', '0.4', '0.6']);
    const hundreds = [0, 200, 400];
    expect(hundreds.map(tickFormat(hundreds))).toEqual(['0', '200', '400']);
  });

  it('a single tick or none falls back to three significant digits', () => {
    expect(tickFormat([1234])(1234)).toBe('1.23k');
    expect(tickFormat([])(0.5)).toBe('0.5');
  });

  it('reads rates in kbit/s below 1 Mbit/s, without float noise', () => {
    expect(bitrate(0.0566)).toBe('56.6 kbit/s');
    expect(bitrate(0.566 / 10)).toBe('56.6 kbit/s');
    expect(bitrate(100)).toBe('100 Mbit/s');
    expect(bitrate(1.5)).toBe('1.5 Mbit/s');
  });
});
