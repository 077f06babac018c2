import { tickFormat } from './format.ts';

type Scale = (v: number) => number;

export interface AxesProps {
  x: Scale;
  y: Scale;
  xTicks: number[];
  yTicks: number[];
  innerW: number;
  innerH: number;
  formatX?: (v: number) => string;
  formatY?: (v: number) => string;
  /** Full-height grid lines at the x ticks, or only short tick marks. */
  xGrid?: boolean;
  xLabel?: string;
  yLabel?: string;
}

/** Ticks, grid and axis labels from d3 scales, rendered by React (d3 computes, React draws). */
export function Axes({ x, y, xTicks, yTicks, innerW, innerH, formatX = tickFormat(xTicks), formatY = tickFormat(yTicks), xGrid = false, xLabel, yLabel }: AxesProps) {
  return (
    <>
      {yTicks.map((t) => (
        <g key={`y${t}`} className="tick" transform={`translate(0,${y(t)})`}>
          <line x2={innerW} className="grid" />
          <text x={-6} dy="0.32em" textAnchor="end">
            {formatY(t)}
          </text>
        </g>
      ))}
      {xTicks.map((t) => (
        <g key={`x${t}`} className="tick" transform={`translate(${x(t)},${innerH})`}>
          {xGrid ? <line y1={-innerH} className="grid" /> : <line y2={4} />}
          {/* The last tick at the plot's right edge would run past it ("140 s" cut to "140"): it ends there. */}
          <text y={15} textAnchor={x(t) > innerW - 16 ? 'end' : 'middle'}>
            {formatX(t)}
          </text>
        </g>
      ))}
      <line x1={0} x2={innerW} y1={innerH} y2={innerH} className="axis" />
      {xLabel && (
        <text x={innerW / 2} y={innerH + 31} textAnchor="middle" className="ylabel">
          {xLabel}
        </text>
      )}
      {yLabel && (
        <text transform={`translate(-38,${innerH / 2}) rotate(-90)`} textAnchor="middle" className="ylabel">
          {yLabel}
        </text>
      )}
    </>
  );
}
