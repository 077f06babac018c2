/**
 * Okabe–Ito's hues, with its light ones (orange, sky blue, yellow, grey) darkened until every mark stands
 * at least 3:1 against the charts' white (WCAG's non-text contrast), each chosen so that the colours
 * that share a chart stay apart under deuteranopia too (tests/unit/web/palette.test.ts measures both).
 */
export const COLORS = {
  blue: '#0072B2',
  orange: '#aa823c',
  sky: '#007de6',
  green: '#009E73',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  olive: '#647d00',
  grey: '#6e6e73',
  ink: '#1d2430',
};

/**
 * Colours for many things on one chart (the shared lab's flows, a class's students, the scoreboard's
 * schemes), in the order they are handed out: no two of them alike (sky blue stays out, beside blue).
 * Grey and ink come last: they are the page's own reference marks' (the omniscient star, the built-in
 * schemes' squares), so a chart that draws those hands out only HUES.
 */
export const MANY_COLORS = [COLORS.blue, COLORS.vermillion, COLORS.green, COLORS.purple, COLORS.orange, COLORS.olive, COLORS.grey, COLORS.ink];
export const HUES = MANY_COLORS.slice(0, 6);

/** The two sides of a comparison: colour and marker shape both tell them apart. */
export const SIDE_STYLE = {
  a: { color: COLORS.blue, marker: 'circle' as const, name: 'A' },
  b: { color: COLORS.vermillion, marker: 'square' as const, name: 'B' },
};

/** A '#rrggbb' colour's red, green and blue, 0 to 255. */
export function channels(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16);
  return [v >> 16, (v >> 8) & 0xff, v & 0xff];
}

/** A '#rrggbb' colour, see-through: for areas and bands under the marks. */
export const translucent = (hex: string, alpha: number) => `rgba(${channels(hex).join(',')},${alpha})`;
