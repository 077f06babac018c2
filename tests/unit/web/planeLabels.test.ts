import { describe, expect, it } from 'vitest';
import { placeLabels } from '../../../web/charts/PlaneChart.tsx';

describe('labels on the throughput–delay plane', () => {
  it('labels of points close together move apart by whole lines; distant ones stay on their points', () => {
    // "A AIMD" is 9 + 6 × 6 = 45 px wide from its point: the second label overlaps it, then the third both
    const places = placeLabels(
      [
        { cx: 20, cy: 50, text: 'A AIMD' },
        { cx: 24, cy: 52, text: 'B TCP Reno' },
        { cx: 22, cy: 48, text: 'C Cubic' },
        { cx: 200, cy: 50, text: 'far away' },
      ],
      318,
    );
    expect(places.map((p) => p.shift)).toEqual([0, 12, -12, 0]);
  });

  it('a label keeps off the other points’ markers, the omniscient star among them', () => {
    // "B Rate-based" (9 + 6 × 12 = 81 px) from x 100 would print over the star at x 150 on its line: it moves a line
    // away from the star (up when the star sits below the line, down when above), clearing its 7 px and half a line
    const labels = [{ cx: 100, cy: 50, text: 'B Rate-based' }];
    expect(placeLabels(labels, 318, [...labels, { cx: 150, cy: 55 }])).toEqual([{ left: false, shift: -12 }]);
    expect(placeLabels(labels, 318, [...labels, { cx: 150, cy: 45 }])).toEqual([{ left: false, shift: 12 }]);
    expect(placeLabels(labels, 318, [...labels, { cx: 250, cy: 50 }])).toEqual([{ left: false, shift: 0 }]);
  });

  it('a label that would run off the right edge goes to the left of its point', () => {
    expect(placeLabels([{ cx: 300, cy: 10, text: 'omniscient' }], 318)).toEqual([{ left: true, shift: 0 }]);
    expect(placeLabels([{ cx: 100, cy: 10, text: 'omniscient' }], 318)).toEqual([{ left: false, shift: 0 }]);
  });
});
