/** Okabe–Ito: distinguishable with every common colour-vision deficiency. */
export const COLORS = {
  blue: '#0072B2',
  orange: '#E69F00',
  sky: '#56B4E9',
  green: '#009E73',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  yellow: '#F0E442',
  grey: '#999999',
  ink: '#1d2430',
};

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
