/** How wide a label's text is drawn and how tall its line, px: what the plane's label placement keeps apart. */
export interface LabelMetrics {
  width(text: string): number;
  line: number;
}

/** The labels' size on the charts (`svg text` in the page's styles). */
const LABEL_PX = 11;

/** An 11 px label's size where nothing can measure it: about 6 px a character, 12 px a line. */
export const ESTIMATED_METRICS: LabelMetrics = { width: (text) => 6 * text.length, line: 12 };

let measured: LabelMetrics | null = null;

/**
 * The page's own measure of its labels, in whole pixels rounded up: an estimate per character runs short
 * of a wide font's "@" and "m", and a line's box (its font's ascent and descent) is taller than the font's
 * size, so labels placed by the estimate print over each other.
 */
export function labelMetrics(): LabelMetrics {
  if (measured) return measured;
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return ESTIMATED_METRICS;
  context.font = `${LABEL_PX}px ${getComputedStyle(document.body).fontFamily}`;
  const box = context.measureText('Mg');
  measured = { width: (text) => Math.ceil(context.measureText(text).width), line: Math.ceil(box.fontBoundingBoxAscent + box.fontBoundingBoxDescent) };
  return measured;
}
