import { describe, expect, it } from 'vitest';
import { scoreboardEntries } from '../../../shared/scenarios/sweep.ts';
import { pointStyle, SWEEP_COLORS } from '../../../web/labs/contest/pointStyle.ts';
import type { SweepResult } from '../../../web/labs/contest/useSweepRunner.ts';

const point = (sweep: number) => ({ sweep }) as SweepResult;

describe('the contest lab’s point styles', () => {
  it('gives every scheme on the scoreboard a colour and marker of its own', () => {
    const entries = scoreboardEntries();
    expect(entries.length).toBe(12);
    const looks = entries.map((_, i) => pointStyle(point(i), true));
    expect(new Set(looks.map((l) => `${l.color} ${l.marker}`)).size).toBe(entries.length);
    expect(looks.slice(0, 2)).toEqual([
      { color: '#0072B2', marker: 'circle' },
      { color: '#D55E00', marker: 'circle' },
    ]);
    expect(looks[6]).toEqual({ color: '#0072B2', marker: 'square' });
  });

  it('draws a sweep’s points as dots in its sweep’s colour', () => {
    expect(pointStyle(point(2), false)).toEqual({ color: SWEEP_COLORS[2], marker: 'dot' });
  });
});
