import type { ScaleLinear } from 'd3-scale';
import type { Layer } from './painter.ts';

/** What a time chart last painted on its canvas: enough to draw the same marks again as SVG. */
export interface ChartPicture {
  layers: Layer[];
  x: ScaleLinear<number, number>;
  y: ScaleLinear<number, number>;
  innerH: number;
}

const pictures = new WeakMap<Element, ChartPicture>();

/** Records the picture a chart's figure shows (the figure leaving the page drops it). */
export const recordPicture = (figure: Element, picture: ChartPicture) => void pictures.set(figure, picture);

export const pictureOf = (figure: Element): ChartPicture | undefined => pictures.get(figure);
