import { describe, expect, it } from 'vitest';
import { estimateError } from '../../../web/labs/measurement/estimateError.ts';
import { drawLink, openingLink, openLink, sealLink } from '../../../web/labs/measurement/hiddenLink.ts';
import { decode } from '../../../web/state/codec.ts';
import { MEASUREMENT_LAB } from '../../../web/state/labs.ts';

/** A random source that gives these numbers in turn. */
const scripted = (...values: number[]) => {
  let i = 0;
  return () => values[i++];
};

describe('the error of an estimate', () => {
  it('is given in the unit and as a share of the truth', () => {
    // 11.779 − 12 = −0.221 ms, −0.221 / 12 = −1.84%
    expect(estimateError(11.779, 12, 'ms', 3)).toBe('-0.221 ms (-1.8%)');
    // 8.2 − 8 = +0.2 Mbit/s, 0.2 / 8 = +2.5%
    expect(estimateError(8.2, 8, 'Mbit/s', 3)).toBe('+0.200 Mbit/s (+2.5%)');
  });

  it('has no sign when it rounds to 0', () => {
    expect(estimateError(8.0004, 8, 'Mbit/s', 3)).toBe('0.000 Mbit/s (0.0%)');
  });

  it('is only absolute when the truth is 0: a relative error of a delay of 0 is undefined', () => {
    expect(estimateError(0.001, 0, 'ms', 3)).toBe('+0.001 ms');
    expect(estimateError(-0.0123, 0, 'ms', 3)).toBe('-0.012 ms');
  });
});

describe('a hidden link in the URL', () => {
  it('is sealed as a code that opens back to it', () => {
    // index = (8 − 0.1) / 0.001 × 201 delays + 12 = 1,587,912; (1,587,912 × 20,737,779 + 13,898,700) mod 2^25 = 32,886,692
    expect(sealLink({ mbps: 8, delayMs: 12 })).toBe(32_886_692);
    expect(openLink(32_886_692)).toEqual({ mbps: 8, delayMs: 12 });
    for (const truth of [
      { mbps: 0.1, delayMs: 0 },
      { mbps: 100, delayMs: 200 },
      { mbps: 23.7, delayMs: 45 },
      { mbps: 8.123, delayMs: 1 },
    ])
      expect(openLink(sealLink(truth))).toEqual(truth);
  });

  it('keeps the bandwidth to the kbit/s', () => {
    expect(openLink(sealLink({ mbps: 8.1234, delayMs: 12 }))).toEqual({ mbps: 8.123, delayMs: 12 });
  });

  it('gives neighbouring links unrelated codes', () => {
    const code = sealLink({ mbps: 8, delayMs: 12 });
    for (const other of [sealLink({ mbps: 8, delayMs: 13 }), sealLink({ mbps: 8.1, delayMs: 12 })]) expect(Math.abs(other - code)).toBeGreaterThan(100_000);
  });

  it('opens no link from a code no link seals to, nor from 0 (the URL’s “none”)', () => {
    // the first index past the last link, 99,901 bandwidths × 201 delays, seals to (20,080,101 × 20,737,779 + 13,898,700) mod 2^25
    expect(openLink(2_044_459)).toBeNull();
    expect(openLink(0)).toBeNull();
  });
});

describe('the link the lab opens on', () => {
  const opening = (query: string, random = scripted(0.5, 0.5)) => {
    const q = new URLSearchParams(query);
    return openingLink(decode(MEASUREMENT_LAB, q).value, q, random);
  };

  it('is a new unknown link when hidden with none given: bandwidth log-uniform 0.5–50 Mbit/s, delay 1–100 ms', () => {
    expect(drawLink(scripted(0, 0))).toEqual({ mbps: 0.5, delayMs: 1 });
    // 0.5 × 100^0.5 = 5 Mbit/s; 1 + ⌊100 × 0.5⌋ = 51 ms
    expect(drawLink(scripted(0.5, 0.5))).toEqual({ mbps: 5, delayMs: 51 });
    expect(drawLink(scripted(0.999_999, 0.999_999))).toEqual({ mbps: 50, delayMs: 100 });
    expect(opening('hide=1')).toEqual({ truth: { mbps: 5, delayMs: 51 }, error: null });
  });

  it('is the secret’s when hidden, the bandwidth and delay a hand-written link gives, or the shown ones', () => {
    expect(opening('hide=1&secret=32886692&bw=50')).toEqual({ truth: { mbps: 8, delayMs: 12 }, error: null });
    expect(opening('hide=1&bw=20&delay=30')).toEqual({ truth: { mbps: 20, delayMs: 30 }, error: null });
    expect(opening('bw=20&secret=32886692')).toEqual({ truth: { mbps: 20, delayMs: 12 }, error: null });
  });

  it('says so when the secret opens no link, and draws one', () => {
    expect(opening('hide=1&secret=2044459')).toEqual({
      truth: { mbps: 5, delayMs: 51 },
      error: 'secret must be the code of a hidden link (got "2044459"); a hidden link’s default is a new unknown one',
    });
  });
});
