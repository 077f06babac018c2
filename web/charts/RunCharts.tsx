import type { ChartDef } from '../app/layers.ts';
import { TimeChart } from './TimeChart.tsx';

/** A run's charts on one time axis: dragging across any zooms them all, a reset shows the whole run. */
export function RunCharts({ charts, domain, tNow, onZoom }: { charts: ChartDef[]; domain: [number, number]; tNow: number; onZoom(d: [number, number] | null): void }) {
  return (
    <>
      {charts.map((c) => (
        <TimeChart key={c.id} title={c.title} yLabel={c.yLabel} layers={c.layers} fitY={c.fitY} domain={domain} tNow={tNow} onBrush={onZoom} onReset={() => onZoom(null)} />
      ))}
    </>
  );
}
