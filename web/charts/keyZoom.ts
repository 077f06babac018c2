/** The keys a focused time chart answers, as its label tells them. */
export const ZOOM_KEYS = '+ - ArrowLeft ArrowRight 0';

/**
 * The time range a key asks of a chart showing `domain` (ms): + halves it about its middle, − doubles it
 * (never before 0), ← and → move it a quarter of its width (never before 0), 0 and Escape show the whole
 * run ('all'); any other key, nothing (null), so it does what it always does.
 */
export function zoomByKey(key: string, [t0, t1]: [number, number]): [number, number] | 'all' | null {
  const width = t1 - t0;
  const mid = (t0 + t1) / 2;
  const from = (start: number, w: number): [number, number] => [Math.max(0, start), Math.max(0, start) + w];
  switch (key) {
    case '+':
    case '=':
      return [mid - width / 4, mid + width / 4];
    case '-':
    case '_':
      return from(mid - width, 2 * width);
    case 'ArrowLeft':
      return from(t0 - width / 4, width);
    case 'ArrowRight':
      return [t0 + width / 4, t1 + width / 4];
    case '0':
    case 'Escape':
      return 'all';
    default:
      return null;
  }
}

/** A time range kept inside a run of `endMs` (its width kept where it fits); the whole run, or more, is no zoom (null). */
export function withinRun([t0, t1]: [number, number], endMs: number): [number, number] | null {
  const width = t1 - t0;
  if (width >= endMs) return null;
  const start = Math.min(Math.max(0, t0), endMs - width);
  return [start, start + width];
}
