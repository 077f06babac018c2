import type { ReactNode, RefObject } from 'react';
import { download } from '../export/download.ts';
import { chartsSvg, svgToPng } from '../export/image.ts';

/** The trace CSV and the charts under `root` as PNG or SVG, each saved as `name`.csv/.png/.svg. */
export function ChartExports({ name, csv, root, children }: { name: string; csv: string; root: RefObject<HTMLDivElement | null>; children: ReactNode }) {
  const exportImage = async (kind: 'svg' | 'png') => {
    const { svg, width, height } = chartsSvg(root.current!);
    if (kind === 'svg') download(`${name}.svg`, svg, 'image/svg+xml');
    else download(`${name}.png`, await svgToPng(svg, width, height));
  };
  return (
    <p className="lab-controls">
      {children}
      <button type="button" data-export="session-csv" onClick={() => download(`${name}.csv`, csv)}>
        Trace CSV
      </button>
      <button type="button" data-export="session-png" onClick={() => void exportImage('png')}>
        Image (PNG)
      </button>
      <button type="button" data-export="session-svg" onClick={() => void exportImage('svg')}>
        Image (SVG)
      </button>
      <span className="hint">Drag across a chart to zoom, double-click to see it all. Times are from the start.</span>
    </p>
  );
}
