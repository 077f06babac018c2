import { describe, expect, it } from 'vitest';
import { needsLeader, placeLabels } from '../../../web/charts/PlaneChart.tsx';

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
    expect(places.map((p) => p?.shift)).toEqual([0, 12, -12, 0]);
  });

  it('a label keeps off the other points’ markers, the omniscient star among them', () => {
    // "B Rate-based" (9 + 6 × 12 = 81 px) from x 100 would print over the star at x 150 on its line: it moves a line
    // away from the star (up when the star sits below the line, down when above), clearing its 7 px and half a line
    const labels = [{ cx: 100, cy: 50, text: 'B Rate-based' }];
    expect(placeLabels(labels, 318, [...labels, { cx: 150, cy: 55 }])).toEqual([{ left: false, shift: -12 }]);
    expect(placeLabels(labels, 318, [...labels, { cx: 150, cy: 45 }])).toEqual([{ left: false, shift: 12 }]);
    expect(placeLabels(labels, 318, [...labels, { cx: 250, cy: 50 }])).toEqual([{ left: false, shift: 0 }]);
  });

  it('a label never prints over the star: where every line near its point runs over some marker, it takes the fewest without the star', () => {
    // "bob@blue" (9 + 6 × 8 = 57 px) from x 30 fits on the right only; a column of markers at x 70, a line apart
    // from y 14 to y 86, runs under every line near its own: three markers each within 24 px of y 50, two on
    // y 86 and on y 14. Plain, the first of those (y 86) is taken; with the star at y 86, y 14 is.
    const bob = { cx: 30, cy: 50, text: 'bob@blue' };
    const column = [-3, -2, -1, 0, 1, 2].map((k) => ({ cx: 70, cy: 50 + 12 * k }));
    expect(placeLabels([bob], 318, [bob, ...column, { cx: 70, cy: 86 }])).toEqual([{ left: false, shift: 36 }]);
    expect(placeLabels([bob], 318, [bob, ...column, { cx: 70, cy: 86, clear: true }])).toEqual([{ left: false, shift: -36 }]);
  });

  it('a label keeps off the star even when its point is bunched with it: the best students are the nearest', () => {
    // "ann" (9 + 6 × 3 = 27 px) from x 90 would print over the star 10 px to its right, within two lines of it
    const ann = { cx: 90, cy: 50, text: 'ann' };
    expect(placeLabels([ann], 318, [ann, { cx: 100, cy: 50 }])).toEqual([{ left: false, shift: 0 }]);
    expect(placeLabels([ann], 318, [ann, { cx: 100, cy: 50, clear: true }])).toEqual([{ left: false, shift: 24 }]);
  });

  it('a label that would run off the right edge goes to the left of its point', () => {
    expect(placeLabels([{ cx: 300, cy: 10, text: 'omniscient' }], 318)).toEqual([{ left: true, shift: 0 }]);
    expect(placeLabels([{ cx: 100, cy: 10, text: 'omniscient' }], 318)).toEqual([{ left: false, shift: 0 }]);
  });
  it('a label with no clear line on its side goes to the other side, if it fits there; else where it overlaps least', () => {
    // "TCP Vegas" is 9 + 6 × 9 = 63 px wide; a column of markers 30 px to its right blocks every line within three
    const column = [-3, -2, -1, 0, 1, 2, 3].map((k) => ({ cx: 180, cy: 50 + 12 * k }));
    const vegas = { cx: 150, cy: 50, text: 'TCP Vegas' };
    expect(placeLabels([vegas], 318, [vegas, ...column])).toEqual([{ left: true, shift: 0 }]);
    // At x 40 it cannot go left (from x −23); one marker less above the line makes the fewest overlaps there
    const near = { cx: 40, cy: 50, text: 'TCP Vegas' };
    const columnNear = column.filter((m) => m.cy !== 14).map((m) => ({ ...m, cx: 70 }));
    expect(placeLabels([near], 318, [near, ...columnNear])).toEqual([{ left: false, shift: -36 }]);
  });
  it('keeps a label inside the plot’s height: a point on the axis is labelled a line above it, one at the top a line below', () => {
    // a 200 px tall plot: a 12 px line's middle stays from 6 to 194
    expect(placeLabels([{ cx: 100, cy: 198, text: 'flow 1' }], 318, undefined, 200)).toEqual([{ left: false, shift: -12 }]);
    expect(placeLabels([{ cx: 100, cy: 3, text: 'flow 1' }], 318, undefined, 200)).toEqual([{ left: false, shift: 12 }]);
    expect(placeLabels([{ cx: 100, cy: 100, text: 'flow 1' }], 318, undefined, 200)).toEqual([{ left: false, shift: 0 }]);
  });

  it('a label never prints over another while a line up to six away is clear of labels (three flows near zero on 90’s Internet)', () => {
    // The plot is 200 px high and the points sit on its axis, so only the lines above are open; within three
    // lines flow 3 would print over flow 2's label (7.4 px apart): it goes four lines up
    const labels = [
      { cx: 123.2, cy: 194.5, text: 'flow 1 TCP Reno (0.03 Mbit/s, 2832 ms)' },
      { cx: 71.0, cy: 198.2, text: 'flow 2 TCP Reno (0.01 Mbit/s, 12808 ms)' },
      { cx: 85.9, cy: 193.6, text: 'flow 3 TCP Reno (0.04 Mbit/s, 8344 ms)' },
    ];
    const places = placeLabels(labels, 398, labels, 200);
    expect(places).toEqual([
      { left: false, shift: -12 },
      { left: false, shift: -36 },
      { left: false, shift: -48 },
    ]);
    const ys = places.map((p, i) => labels[i].cy + p!.shift);
    for (let i = 0; i < ys.length; i++) for (let k = i + 1; k < ys.length; k++) expect(Math.abs(ys[i] - ys[k]), `${i} and ${k}`).toBeGreaterThanOrEqual(12);
  });

  it('a label with no line clear of other labels is not drawn: text on text cannot be read', () => {
    // 11 students on one spot of a 60 px tall plot: five lines (shifts −24…24) on each of two sides hold ten
    const spot = Array.from({ length: 11 }, (_, i) => ({ cx: 100, cy: 30, text: `s${i}` }));
    const places = placeLabels(spot, 318, spot, 60);
    expect(places.slice(0, 10)).toEqual([0, 12, -12, 24, -24].flatMap((shift) => [{ left: false, shift }]).concat([0, 12, -12, 24, -24].map((shift) => ({ left: true, shift }))));
    expect(places[10]).toBeNull();
  });

  it('keeps labels apart by their drawn sizes: a wide font’s text and a line taller than 12 px', () => {
    // 8 px a character and 13 px a line: "ann@red" is 9 + 56 = 65 px from its point, so a label 60 px to
    // the right would print over it on its line; a label on its spot goes a whole 13 px away (markers aside)
    const drawn = { width: (text: string) => 8 * text.length, line: 13 };
    const labels = [
      { cx: 100, cy: 50, text: 'ann@red' },
      { cx: 100, cy: 50, text: 'bob@red' },
      { cx: 160, cy: 50, text: 'cy@red' },
    ];
    expect(placeLabels(labels, 400, [], 200, drawn)).toEqual([
      { left: false, shift: 0 },
      { left: false, shift: 13 },
      { left: false, shift: -13 },
    ]);
    // by the estimate (6 px a character, 12 px a line) the same labels fit on fewer lines
    expect(placeLabels(labels, 400, [], 200)).toEqual([
      { left: false, shift: 0 },
      { left: false, shift: 12 },
      { left: false, shift: 0 },
    ]);
  });

  it('a label moved off its line is tied to its point when another marker is as near to it, or when it moved over three lines', () => {
    // "ann@red" (6 × 7 = 42 px) two lines below its point at (100, 50): its box runs x 109–151, y 68–80, and
    // its own point is hypot(9, 18) ≈ 20 px from it
    const ann = { cx: 100, cy: 50, text: 'ann@red' };
    const twoDown = { left: false, shift: 24 };
    // a square right above the label's text (0 px from its box) would be read as ann's
    expect(needsLeader(ann, twoDown, [ann, { cx: 130, cy: 70 }])).toBe(true);
    // one 49 px to the side of the box is further than ann's own point; ann's own attempts bunched with it do not count
    expect(needsLeader(ann, twoDown, [ann, { cx: 200, cy: 74 }])).toBe(false);
    expect(needsLeader(ann, twoDown, [ann, { cx: 105, cy: 60 }])).toBe(false);
    // on its own line it is never tied; four lines off, always
    expect(needsLeader(ann, { left: false, shift: 0 }, [ann, { cx: 130, cy: 50 }])).toBe(false);
    expect(needsLeader(ann, { left: true, shift: 48 }, [ann])).toBe(true);
  });
});
