const STYLE = `text{font:11px system-ui,sans-serif;fill:#333}.grid{stroke:#e3e6ea}.axis{stroke:#888}.tick line{stroke:#bbb}
.playhead,.brush{display:none}.title{font-weight:600;font-size:12px}`;

const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page's charts as one SVG document: each chart's canvas embedded as an image under its own axes
 * (the SVG the page already draws), with its title, laid out where they stand on the page.
 */
export function chartsSvg(root: HTMLElement): { svg: string; width: number; height: number } {
  const origin = root.getBoundingClientRect();
  const parts: string[] = [];
  let width = 0;
  let height = 0;
  for (const fig of root.querySelectorAll<HTMLElement>('figure.chart, figure.plane')) {
    const r = fig.getBoundingClientRect();
    const x = r.left - origin.left;
    const y = r.top - origin.top;
    width = Math.max(width, x + r.width);
    height = Math.max(height, y + r.height);
    const caption = fig.querySelector('figcaption')?.firstChild?.textContent ?? fig.querySelector('figcaption')?.textContent ?? '';
    parts.push(`<text class="title" x="${x}" y="${y + 12}">${escapeXml(caption)}</text>`);
    const canvas = fig.querySelector('canvas');
    const svg = fig.querySelector('svg');
    if (!svg) continue;
    const sr = svg.getBoundingClientRect();
    if (canvas) {
      const cr = canvas.getBoundingClientRect();
      parts.push(`<image x="${cr.left - origin.left}" y="${cr.top - origin.top}" width="${cr.width}" height="${cr.height}" href="${canvas.toDataURL('image/png')}"/>`);
    }
    parts.push(`<svg x="${sr.left - origin.left}" y="${sr.top - origin.top}" width="${sr.width}" height="${sr.height}">${svg.innerHTML}</svg>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width)}" height="${Math.ceil(height)}"><style>${STYLE}</style><rect width="100%" height="100%" fill="#fff"/>${parts.join('')}</svg>`;
  return { svg, width: Math.ceil(width), height: Math.ceil(height) };
}

/** Rasterizes an SVG document to a PNG blob at the device's pixel ratio. */
export function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    img.onload = () => {
      const scale = window.devicePixelRatio || 1;
      const c = document.createElement('canvas');
      c.width = width * scale;
      c.height = height * scale;
      const ctx = c.getContext('2d')!;
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0);
      URL.revokeObjectURL(url);
      c.toBlob((b) => (b ? resolve(b) : reject(new Error('the image could not be made'))), 'image/png');
    };
    img.onerror = () => reject(new Error('the charts could not be drawn as an image'));
    img.src = url;
  });
}
