import { findScheme } from '../../../shared/controllers/registry.ts';
import { formatSweepCsv } from '../../../shared/csv/sweep.ts';
import type { Summary } from '../../../shared/metrics/summary.ts';
import { Explained } from '../../teach/Explained.tsx';
import { STAR_EXPLANATION } from '../../teach/explanations.ts';
import { bestBy, frontier } from '../../../shared/scenarios/sweep.ts';
import { fixed, significant } from '../../charts/format.ts';
import { PlaneChart, type PlaneLine, type PlanePoint } from '../../charts/PlaneChart.tsx';
import { COLORS } from '../../charts/palette.ts';
import { download } from '../../export/download.ts';
import { pointStyle, SWEEP_COLORS } from './pointStyle.ts';
import { type SweepResult, triedValue } from './useSweepRunner.ts';
import { pageSchemes } from '../../editor/userCode.ts';

/** Points in the order the table lists them: by sweep, then by the value tried (a choice's by its rank). */
const inOrder = (points: SweepResult[]) => [...points].sort((a, b) => a.sweep - b.sweep || a.value - b.value);

/** The sweep's points as a CSV file, as the table lists them, each marked whether it lies on its sweep's frontier. */
export function exportSweepCsv(trace: string, points: SweepResult[]): void {
  const onFrontier = (p: SweepResult) => frontier(points.filter((x) => x.sweep === p.sweep)).includes(p);
  download(`pipefill-sweep-${trace}.csv`, formatSweepCsv(trace, inOrder(points), onFrontier));
}

/** The throughput–delay plane with each sweep's frontier and the best points ringed, and the table of runs. */
export function SweepResults({ points, sweeps, omni }: { points: SweepResult[]; sweeps: number; omni: Summary['omniscient'] }) {
  const scoreboard = points.length > 0 && points.every((p) => p.param === '');
  const title = (p: SweepResult) => findScheme(p.scheme, pageSchemes())?.title ?? p.scheme;
  const bestPower = bestBy(points, 'power');
  const bestScore = bestBy(points, 'score');
  const planePoints: PlanePoint[] = points.map((p) => ({
    label: scoreboard ? title(p) : triedValue(p),
    throughputMbps: p.throughputMbps,
    delay95: p.delay95,
    ...pointStyle(p, scoreboard),
    // A choice's point is its name (a few of them); a number's, only where it is best.
    labelled: scoreboard || p.choice !== undefined || p === bestPower || p === bestScore,
    ring: p === bestPower || p === bestScore,
  }));
  if (omni) planePoints.push({ label: 'omniscient', ...omni, color: COLORS.ink, marker: 'star' });
  const lines: PlaneLine[] = scoreboard ? [] : Array.from({ length: sweeps }, (_, k) => ({ color: SWEEP_COLORS[k], points: frontier(points.filter((p) => p.sweep === k)) }));
  return (
    <div className="lab-body">
      <figure className="plane-with-key">
        {/* A dozen schemes crowd the plane: their names only there, their numbers in the table. */}
        <PlaneChart points={planePoints} lines={lines} width={640} height={380} short={scoreboard} />
        {!scoreboard && points.length > 0 && <figcaption className="hint">{STAR_EXPLANATION.frontier}.</figcaption>}
      </figure>
      <table className="results" data-testid="sweep-table">
        <thead>
          <tr>
            <th>run</th>
            <th>Mbit/s</th>
            <th>delay95 ms</th>
            <th>power</th>
            <th>score</th>
          </tr>
        </thead>
        <tbody>
          {inOrder(points).map((p) => (
            <tr key={`${p.sweep} ${triedValue(p)}`} className={p === bestPower || p === bestScore ? 'best' : ''}>
              <td>
                <Swatch {...pointStyle(p, scoreboard)} /> {scoreboard ? title(p) : triedValue(p)}
                {p === bestPower && (
                  <>
                    {' '}
                    <Explained text={STAR_EXPLANATION.power}>★ power</Explained>
                  </>
                )}
                {p === bestScore && (
                  <>
                    {' '}
                    <Explained text={STAR_EXPLANATION.score}>★ score</Explained>
                  </>
                )}
              </td>
              <td>{fixed(p.throughputMbps, 2)}</td>
              <td>{fixed(p.delay95, 0)}</td>
              <td>{significant(p.power)}</td>
              <td>{fixed(p.score, 3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The table's key to a point: its colour, round or square as its marker is. */
function Swatch({ color, marker }: { color: string; marker: string }) {
  return <i className={`swatch ${marker}`} style={{ background: color }} data-marker={marker} />;
}
