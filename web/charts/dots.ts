import type { Affine } from './geometry.ts';
import type { Layer } from './painter.ts';

/** A dot's side in device pixels. */
export const dotSide = (l: Layer, dpr: number) => Math.max(1, Math.round((l.size ?? 2) * dpr));

/**
 * Which device pixels already hold a dot of one layer, by the dot's top-left corner. A run's dense dots
 * land on the same few thousand spots again and again; each spot is filled once.
 */
export class Occupancy {
  /** One byte a pixel: whether a dot of the layer has its corner there. */
  readonly taken: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.taken = new Uint8Array(width * height);
  }
}

/**
 * The top-left device-pixel corners of a dots layer's pairs from `start` to `end` not drawn before, as
 * (left, top) pairs in `out` (grown when short); returns how many. Coordinates are the scales' own
 * (the inline form of `at`), so the pixels are those d3 would give.
 */
export function newDotCorners(l: Layer, x: Affine, y: Affine, dpr: number, start: number, end: number, taken: Occupancy, out: { buf: Int32Array }): number {
  if (out.buf.length < 2 * (end - start)) out.buf = new Int32Array(2 * (end - start));
  const buf = out.buf;
  const side = dotSide(l, dpr);
  const half = side >> 1;
  const d = l.data;
  const { width, height, taken: spots } = taken;
  let n = 0;
  for (let i = start; i < end; i++) {
    const ux = (d[2 * i] - x.d0) / x.span;
    const uy = (d[2 * i + 1] - y.d0) / y.span;
    const left = Math.round((x.r0 * (1 - ux) + x.r1 * ux) * dpr);
    const top = Math.round((y.r0 * (1 - uy) + y.r1 * uy) * dpr) - half;
    // Off the canvas (or not a number): nothing to fill.
    if (!(left > -side && top > -side && left < width && top < height)) continue;
    // Corners above or left of the canvas are rare and not remembered: those dots are filled every time.
    if (left >= 0 && top >= 0) {
      if (spots[top * width + left]) continue;
      spots[top * width + left] = 1;
    }
    buf[2 * n] = left;
    buf[2 * n + 1] = top;
    n++;
  }
  return n;
}
