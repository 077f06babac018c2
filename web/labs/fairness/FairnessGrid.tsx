import { fixed } from '../../charts/format.ts';
import { pageCatalogue } from '../../app/catalogue.ts';
import { schemesFor } from '../../state/experiment.ts';
import { GRID_LINKS } from '../../state/fairnessLinks.ts';
import { type GridSquare, gridSquares, HEADER_HEIGHT, LABEL_WIDTH } from './gridGeometry.ts';
import { type GridState, useFairnessGrid } from './useFairnessGrid.ts';
import { FAIRNESS_SECONDS } from '../../../shared/scenarios/bulk.ts';
import { USER_SCHEME_ID } from '../../../shared/controllers/userInstalled.ts';

export interface GridSettings {
  schemes: string[];
  link: string;
}

const CELL = 92;

function Square({ s }: { s: GridSquare }) {
  const text = s.shares ? `${fixed(s.shares[0], 2)} / ${fixed(s.shares[1], 2)}` : '…';
  const cx = s.x + s.size / 2;
  return (
    <g data-cell={`${s.row}:${s.col}`}>
      <title>{s.shares ? `${s.row}: ${fixed(s.shares[0], 2)} of its fair share; ${s.col}: ${fixed(s.shares[1], 2)}` : `${s.row} against ${s.col}: running`}</title>
      <rect x={s.x} y={s.y} width={s.size} height={s.size} fill={s.fill} />
      <text x={cx} y={s.y + s.size / 2} textAnchor="middle" dominantBaseline="middle" fontSize={13} fill="#1d2430">
        {text}
      </text>
    </g>
  );
}

/** The grid drawn: each row scheme's flow against each column scheme's, the row's share first. */
function GridChart({ state }: { state: GridState }) {
  const n = state.schemes.length;
  const squares = gridSquares(state.schemes, state.cells, CELL);
  const width = LABEL_WIDTH + n * CELL;
  return (
    <svg className="fairness-grid" width={width} height={HEADER_HEIGHT + n * CELL} role="img" aria-label="Each pair's shares of the max-min fair rate: the row scheme's flow, then the column scheme's">
      {state.schemes.map((s, i) => (
        <g key={s}>
          <text x={LABEL_WIDTH + (i + 0.5) * CELL} y={HEADER_HEIGHT - 8} textAnchor="middle" fontSize={13} fill="#1d2430">
            {s}
          </text>
          <text x={LABEL_WIDTH - 8} y={HEADER_HEIGHT + (i + 0.5) * CELL} textAnchor="end" dominantBaseline="middle" fontSize={13} fill="#1d2430">
            {s}
          </text>
        </g>
      ))}
      {squares.map((s) => (
        <Square key={`${s.row}:${s.col}`} s={s} />
      ))}
    </svg>
  );
}

/** What the grid is doing: how many cells are done, or how long they took. */
function gridStatus(state: GridState): string {
  const done = state.cells.filter(Boolean).length;
  if (state.running) return `running ${state.cells.length} pairs, ${FAIRNESS_SECONDS} s of simulated time each: ${done} done…`;
  if (state.cells.length === 0) return '';
  return `${done} of ${state.cells.length} pairs simulated in ${(state.wallMs / 1000).toFixed(1)} s`;
}

/**
 * Every pair of the chosen schemes, one flow each, on one bottleneck: each flow's share of the max-min fair
 * rate, as `npm run sim -- --scenario fairness` prints it.
 */
export function FairnessGrid({ settings, set }: { settings: GridSettings; set(s: GridSettings): void }) {
  const { state, start, cancel } = useFairnessGrid();
  const toggle = (id: string, on: boolean) => set({ ...settings, schemes: on ? [...settings.schemes, id] : settings.schemes.filter((s) => s !== id) });
  return (
    <section className="fairness" aria-labelledby="fairness-title">
      <h2 id="fairness-title">Fairness grid: schemes that fight</h2>
      <fieldset className="grid-schemes">
        <legend>schemes</legend>
        {schemesFor('contest', pageCatalogue()).map((s) => (
          <label key={s.id} title={s.title}>
            <input type="checkbox" checked={settings.schemes.includes(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} data-scheme={s.id} /> {s.id}
          </label>
        ))}
      </fieldset>
      <label className="param">
        link
        <select value={settings.link} onChange={(e) => set({ ...settings, link: e.target.value })} data-param="grid-link">
          {GRID_LINKS.map((l) => (
            <option key={l.id} value={l.id}>
              {l.title}
            </option>
          ))}
        </select>
      </label>
      {state.running ? (
        <button type="button" onClick={cancel}>
          Stop
        </button>
      ) : (
        <button type="button" onClick={() => void start(settings.schemes, settings.link)} disabled={settings.schemes.length === 0} data-action="run-grid">
          Run the grid
        </button>
      )}
      <p className="caption">
        One flow of the row’s scheme against one of the column’s, both from the start, {FAIRNESS_SECONDS} s on 50 Mbit/s, 25 ms each way; each square reads the row flow’s throughput then the column
        flow’s, as shares of the max-min fair rate (half the link each): 1 is fair, 2 the whole link. Warm squares: the row flow got less than its share; cool: more.
      </p>
      <p className="lab-status" role="status" data-testid="grid-status">
        {gridStatus(state)}
      </p>
      {state.errors.map((e) => (
        <p key={e} className="error" role="alert">
          {e}
        </p>
      ))}
      {state.schemes.length > 0 && <GridChart state={state} />}
      {state.schemes.includes(USER_SCHEME_ID) && (
        <p className="hint" data-testid="grid-user-note">
          A square of {USER_SCHEME_ID} runs both its flows in the worker that runs that code, so the other scheme's share there is only as sound as the code: code from a shared link can skew it.
          Squares of built-ins alone run apart from it.
        </p>
      )}
    </section>
  );
}
