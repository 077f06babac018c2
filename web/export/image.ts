import { figureSvg } from './figure.ts';

/**
 * The charts under `root` as one vector SVG document, laid out as on the page, with the experiment's
 * settings on top when given.
 */
export const chartsSvg = (root: HTMLElement, settings?: string) => figureSvg(root, settings);

/** Rasterizes an SVG document to a PNG blob, at twice its size at least (sharp on a slide), more on a dense screen. */
export function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    img.onload = () => {
      const scale = Math.max(2, window.devicePixelRatio || 1);
      const c = document.createElement('canvas');
      c.width = width * scale;
      c.height = height * scale;
      const ctx = c.getContext('2d')!;
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      URL.revokeObjectURL(url);
      c.toBlob((b) => (b ? resolve(b) : reject(new Error('the image could not be made'))), 'image/png');
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the figure could not be drawn as an image'));
    };
    img.src = url;
  });
}
