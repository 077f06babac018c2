import { pathRound } from 'd3-path';
import { dotsBetween, isFilled, type PathSink, traceLayer } from '../charts/geometry.ts';
import type { ChartPicture } from '../charts/picture.ts';
import { ColumnThinner } from '../charts/thinning.ts';

/**
 * Dense dots land on the same pixels again and again; a vector figure needs each square once. Keeps the
 * first rectangle at each position and size and passes everything else through.
 */
class OncePerPixel implements PathSink {
  private readonly seen = new Set<string>();
  constructor(private readonly out: PathSink) {}
  moveTo(x: number, y: number): void {
    this.out.moveTo(x, y);
  }
  lineTo(x: number, y: number): void {
    this.out.lineTo(x, y);
  }
  closePath(): void {
    this.out.closePath();
  }
  rect(x: number, y: number, w: number, h: number): void {
    const key = `${x},${y},${w},${h}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.out.rect(x, y, w, h);
  }
}

/** The colour of a CSS colour string as an SVG fill or stroke, with its opacity apart (rgba is not SVG 1.1). */
function paint(color: string, attr: 'fill' | 'stroke'): string {
  const m = /^rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)$/.exec(color);
  return m ? `${attr}="rgb(${m[1]},${m[2]},${m[3]})" ${attr}-opacity="${m[4]}"` : `${attr}="${color}"`;
}

/**
 * A chart's marks as SVG paths, the same geometry its canvas holds inside the time domain, in the order
 * the canvas stacks them: bands and areas under everything, then dots, then lines and event ticks. The
 * whole run, wherever the playhead is: a figure shows the run its cards and captions describe.
 */
export function marksSvg(p: ChartPicture): string {
  const [t0, until] = p.x.domain();
  const order = (k: string) => (k === 'bands' || k === 'area' ? 0 : k === 'dots' ? 1 : 2);
  const layers = p.layers.map((l, i) => ({ l, i })).sort((a, b) => order(a.l.kind) - order(b.l.kind) || a.i - b.i);
  const out: string[] = [];
  for (const { l } of layers) {
    if (l.kind === 'dots' && dotsBetween(l, t0, until)[1] === 0) continue;
    const d = pathRound(2);
    const sink = l.kind === 'dots' ? new OncePerPixel(d) : new ColumnThinner(d);
    const traced = traceLayer(sink, l, p.x, p.y, p.innerH, t0, until);
    if (sink instanceof ColumnThinner) sink.flush();
    if (!traced) continue;
    const data = d.toString();
    if (!data) continue;
    const style = isFilled(l) ? paint(l.color, 'fill') : `fill="none" ${paint(l.color, 'stroke')} stroke-width="${l.size ?? 1.5}"${l.dash ? ` stroke-dasharray="${l.dash.join(' ')}"` : ''}`;
    out.push(`<path data-layer="${l.label.replace(/[<>&"]/g, '')}" d="${data}" ${style}/>`);
  }
  return out.join('');
}
