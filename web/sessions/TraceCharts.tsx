import { type ReactNode, useRef, useState } from 'react';
import type { ChartDef } from '../app/layers.ts';
import { RunCharts } from '../charts/RunCharts.tsx';
import { download } from '../export/download.ts';
import { chartsSvg, svgToPng } from '../export/image.ts';

interface Props {
  /** File name of the exports, without the extension. */
  name: string;
  label: string;
  csv: string;
  charts: ChartDef[];
  /** The whole run, ms: the charts show it unless zoomed. */
  span: [number, number];
  children: ReactNode;
}

/** A watched run's charts on one time axis, with its trace CSV and the charts as PNG or SVG to save. */
export function TraceCharts({ name, label, csv, charts, span, children }: Props) {
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const exportImage = async (kind: 'svg' | 'png') => {
    const { svg, width, height } = chartsSvg(root.current!);
    if (kind === 'svg') download(`${name}.svg`, svg, 'image/svg+xml');
    else download(`${name}.png`, await svgToPng(svg, width, height));
  };
  return (
    <section className="lab-charts" aria-label={label} data-testid="watched-charts">
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
      <div ref={root}>
        <RunCharts charts={charts} domain={zoom ?? [span[0], Math.max(span[1], span[0] + 1)]} tNow={span[1]} onZoom={setZoom} />
      </div>
    </section>
  );
}
