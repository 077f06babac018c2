import { describe, expect, it } from 'vitest';
import { type EchoConnection, fitConnection, sameSizeRoundTrips } from '../../shared/relay/echo.ts';

const sample = (size: number, atMs: number, roundTripMs: number | null) => ({ size, atMs, roundTripMs });
const connection = (samples: EchoConnection['samples']): EchoConnection => ({ id: 1, remote: '127.0.0.1:5000', openedAt: '2026-01-01T00:00:00.000Z', open: false, messages: samples.length, samples });

describe('round trips of a recorded ping-pong connection', () => {
  it('keeps only a message that follows one of its own size: the first, and each change of size, are left out', () => {
    const samples = [sample(100, 1, null), sample(100, 3, 2), sample(1000, 5, 4.5), sample(1000, 8, 3), sample(100, 9, 1), sample(100, 12, 2.5)];
    expect(sameSizeRoundTrips(samples)).toEqual([
      { size: 100, rttMs: 2 },
      { size: 1000, rttMs: 3 },
      { size: 100, rttMs: 2.5 },
    ]);
  });

  it('fits the line through each size’s fastest round trip: 100 B in 2 ms and 1000 B in 3 ms give 1/900 ms a byte', () => {
    const r = fitConnection(connection([sample(100, 1, null), sample(100, 3, 2), sample(100, 6, 2.5), sample(1000, 8, 9), sample(1000, 11, 3)]));
    if ('error' in r) throw new Error(r.error);
    expect(r.samples).toEqual([
      { size: 100, rttMs: 2 },
      { size: 100, rttMs: 2.5 },
      { size: 1000, rttMs: 3 },
    ]);
    expect(r.fit.slope).toBeCloseTo(1 / 900, 12);
    expect(r.fit.intercept).toBeCloseTo(2 - 100 / 900, 12);
    // 16 bits per byte of round trip (there and back), so 900 B a ms each way is 14.4 Mbit/s; half the intercept each way
    expect(r.fit.mbps).toBeCloseTo(14.4, 9);
    expect(r.fit.delayMs).toBeCloseTo((2 - 100 / 900) / 2, 12);
  });

  it('says why there is no line when fewer than two sizes were sent twice in a row', () => {
    expect(fitConnection(connection([sample(100, 1, null), sample(100, 3, 2), sample(1000, 5, 4)]))).toEqual({
      error: '127.0.0.1:5000 has round trips of 1 message size (each size must be sent at least twice in a row): a line needs two',
    });
    expect(fitConnection(connection([sample(100, 1, null)]))).toEqual({
      error: '127.0.0.1:5000 has round trips of 0 message sizes (each size must be sent at least twice in a row): a line needs two',
    });
  });
});
