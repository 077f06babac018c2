import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import type { Layer } from '../../../web/charts/painter.ts';
import { marksSvg } from '../../../web/export/marks.ts';

// 10 s over 100 px; y from 0 to 10 over 100 px down to 0
const x = scaleLinear().domain([0, 10_000]).range([0, 100]);
const y = scaleLinear().domain([0, 10]).range([100, 0]);
const picture = (layers: Layer[]) => ({ layers, x, y, innerH: 100 });
const pairs = (n: number, f: (i: number) => [number, number]) => Float64Array.from({ length: 2 * n }, (_, k) => f(k >> 1)[k & 1]);
const pathOf = (svg: string, label: string) => new RegExp(`data-layer="${label}" d="([^"]*)"`).exec(svg)?.[1] ?? '';

describe('chart marks as SVG paths', () => {
  it('a flat line of thousands of points is one segment', () => {
    const line: Layer = { kind: 'line', data: pairs(5000, (i) => [2 * i, 5]), color: '#1d2430', label: 'pipe', size: 1.2, dash: [5, 4] };
    const svg = marksSvg(picture([line]));
    expect(pathOf(svg, 'pipe')).toBe('M0,50L99.98,50');
    expect(svg).toContain('fill="none" stroke="#1d2430" stroke-width="1.2" stroke-dasharray="5 4"');
  });

  it('a window stepping at every event keeps, per half-pixel column, its lowest and highest points', () => {
    // 10,000 steps alternating 0 and 10 packets: 200 columns, each spanning both extremes
    const step: Layer = { kind: 'step', data: pairs(10_000, (i) => [i, i % 2 ? 10 : 0]), color: '#0072B2', label: 'window' };
    const d = pathOf(marksSvg(picture([step])), 'window');
    const points = d.split(/[ML]/).filter(Boolean);
    expect(points.length).toBeLessThanOrEqual(4 * 200 + 1);
    expect(points.length).toBeGreaterThan(200);
    expect(d).toContain(',0L');
    expect(d).toContain(',100L');
  });

  it('dots on the same pixel are written once; nothing outside the time domain', () => {
    const dots: Layer = { kind: 'dots', data: pairs(1000, (i) => [5000 + i / 1000, 5]), color: '#E69F00', label: 'ack', size: 2 };
    expect(pathOf(marksSvg(picture([dots])), 'ack')).toBe('M50,49h2v2h-2Z');
    const later: Layer = { ...dots, data: pairs(10, (i) => [12_000 + i, 5]) };
    expect(marksSvg(picture([later]))).toBe('');
  });

  it('stacks as the canvas does: areas under dots, dots under lines; translucent colours keep their opacity', () => {
    const area: Layer = { kind: 'area', data: pairs(3, (i) => [i * 1000, 4]), color: 'rgba(230,159,0,0.35)', label: 'queue' };
    const dots: Layer = { kind: 'dots', data: pairs(1, () => [100, 1]), color: '#1d2430', label: 'drop' };
    const line: Layer = { kind: 'step', data: pairs(2, (i) => [i * 1000, 2]), color: '#0072B2', label: 'window' };
    const svg = marksSvg(picture([line, dots, area]));
    expect([...svg.matchAll(/data-layer="([^"]+)"/g)].map((m) => m[1])).toEqual(['queue', 'drop', 'window']);
    expect(svg).toContain('fill="rgb(230,159,0)" fill-opacity="0.35"');
  });
});
