import { scaleLinear } from 'd3-scale';
import type { MeasurementResult } from '../../../shared/scenarios/measurement.ts';
import { Axes } from '../../charts/Axes.tsx';
import { bitrate, fixed } from '../../charts/format.ts';
import { COLORS } from '../../charts/palette.ts';

const W = 640;
const H = 360;
const M = { left: 56, right: 16, top: 12, bottom: 40 };

/**
 * Round trips against message size, the fitted line, and the truth when it is shown. While the truth is
 * hidden the lab's own fit is too (`fitted` false): it reads within a few percent of the answer.
 */
export function Fit({ result, truth, fitted = true }: { result: MeasurementResult; truth: { mbps: number; delayMs: number } | null; fitted?: boolean }) {
  const x = scaleLinear()
    .domain([0, 66_000])
    .range([0, W - M.left - M.right]);
  const maxY = Math.max(...result.samples.map((s) => s.rttMs), result.fit.intercept) * 1.1 || 1;
  const y = scaleLinear()
    .domain([0, maxY])
    .range([H - M.top - M.bottom, 0])
    .nice();
  const line = (slope: number, intercept: number) => ({ x1: x(0), y1: y(intercept), x2: x(66_000), y2: y(intercept + slope * 66_000) });
  const fitLine = line(result.fit.slope, result.fit.intercept);
  const truthLine = truth ? line(16 / (truth.mbps * 1000), 2 * truth.delayMs) : null;
  const innerH = H - M.top - M.bottom;
  return (
    <figure className="plane" aria-label="Latency against message size">
      <figcaption>Round-trip latency against message size</figcaption>
      <svg width={W} height={H}>
        <g transform={`translate(${M.left},${M.top})`}>
          <Axes x={x} y={y} xTicks={x.ticks(6)} yTicks={y.ticks(5)} innerW={W - M.left - M.right} innerH={innerH} xLabel="message size (bytes)" yLabel="round trip (ms)" />
          {truthLine && <line {...truthLine} stroke={COLORS.green} strokeWidth={2} strokeDasharray="6 4" />}
          {fitted && <line {...fitLine} stroke={COLORS.vermillion} strokeWidth={1.5} data-line="fit" />}
          {result.samples.map((s, i) => (
            <circle key={i} cx={x(s.size)} cy={y(s.rttMs)} r={3} fill={COLORS.blue} fillOpacity={0.7} />
          ))}
        </g>
      </svg>
      <p className="legend">
        <span className="key">
          <i style={{ background: COLORS.blue }} />
          ping-pong samples
        </span>
        {fitted && (
          <span className="key">
            <i style={{ background: COLORS.vermillion }} />
            least-squares fit
          </span>
        )}
        {truth && (
          <span className="key">
            <i style={{ background: COLORS.green }} />
            the truth
          </span>
        )}
      </p>
    </figure>
  );
}

/** A live series' fit and what it reads as: there is no truth to compare with. */
export function LiveFit({ result, testId }: { result: MeasurementResult; testId: string }) {
  return (
    <div className="lab-body">
      <Fit result={result} truth={null} />
      <dl className="estimates" data-testid={testId}>
        <dt>bandwidth</dt>
        <dd data-estimate="mbps">{result.fit.mbps > 0 ? bitrate(result.fit.mbps) : 'too fast to see: the size makes no difference above the noise'}</dd>
        <dt>size-independent one-way delay</dt>
        <dd data-estimate="delay">{fixed(result.fit.delayMs, 3)} ms</dd>
      </dl>
    </div>
  );
}
