import { Fragment, useState } from 'react';
import type { Board, BoardRow, ContestTrace, Reference } from '../../shared/contest/api.ts';
import { findScheme } from '../../shared/controllers/registry.ts';
import { fixed } from '../../shared/text/figures.ts';
import { PlaneChart, type PlanePoint } from '../charts/PlaneChart.tsx';
import { COLORS, HUES } from '../charts/palette.ts';
import { useContest } from './contestApi.ts';
import { RevealHeldOut } from './RevealHeldOut.tsx';
import { FailedWhy } from './FailedWhy.tsx';
import { NotSubmitted } from './NotSubmitted.tsx';
import { byId } from './byId.ts';
import './contest.css';

/**
 * ?view=contest: the class's throughput–delay plane per shown trace (every scored submission a point, each
 * student's best ringed and named, the omniscient point and the built-in schemes for reference) and the
 * ranking, sized for a projector at 1280×720.
 */

/** Students take colours apart from the omniscient star's ink and the built-ins' grey squares. */
const STUDENT_COLORS = HUES;

/** How many students are ranked, waiting, and only failed, in words. */
export function standing(board: Board): string {
  const students = (n: number) => `${n} student${n === 1 ? '' : 's'}`;
  const waiting = board.pending.length > 0 ? `, ${board.pending.length} waiting for a score` : '';
  const failed = board.failed.length > 0 ? `, ${students(board.failed.length)} whose every submission failed` : '';
  return `${students(board.rows.length)} ranked${waiting}${failed}`;
}

/**
 * The points of one trace: the reference first (drawn under), each built-in named on the plane by its short
 * id and in its tooltip by its name; then every student's attempts, the best ringed.
 */
function pointsOf(trace: string, board: Board, reference: Reference | null): PlanePoint[] {
  const ref = reference?.traces.find((t) => t.trace === trace);
  const points: PlanePoint[] = (ref?.schemes ?? []).map((s) => ({
    label: s.scheme,
    title: `${findScheme(s.scheme)?.title ?? s.scheme} (built in, at its defaults)`,
    throughputMbps: s.throughputMbps,
    delay95: s.delay95,
    color: COLORS.grey,
    marker: 'square',
  }));
  if (ref?.omniscient) points.push({ label: 'omniscient', ...ref.omniscient, color: COLORS.ink, marker: 'star' });
  board.rows.forEach((row, i) => {
    const color = STUDENT_COLORS[i % STUDENT_COLORS.length];
    for (const a of row.attempts) {
      const t = a.traces.find((x) => x.trace === trace);
      if (!t || a.status !== 'scored') continue;
      const best = a.submission === row.submission;
      points.push({ label: row.id, throughputMbps: t.throughputMbps, delay95: t.delay95, color, marker: best ? 'circle' : 'dot', ring: best, labelled: best });
    }
  });
  return points;
}

function Row({ row, traces }: { row: BoardRow; traces: ContestTrace[] }) {
  const byTrace = new Map(row.traces.map((t) => [t.trace, t]));
  return (
    <tr data-id={row.id}>
      <td>{row.rank}</td>
      <th scope="row">{row.id}</th>
      <td>{fixed(row.overall, 3)}</td>
      {traces.map(({ trace }) => {
        const t = byTrace.get(trace);
        return <td key={trace}>{t ? `${fixed(t.throughputMbps)} Mbit/s · ${fixed(t.delay95, 0)} ms · ${fixed(t.score, 3)}` : '—'}</td>;
      })}
      <td>{row.attempts.length}</td>
    </tr>
  );
}

function Ranking({ board }: { board: Board }) {
  return (
    <table className="contest-table">
      <caption>
        Each student's best submission by its mean score ln(Mbit/s ÷ delay95 ms) over the traces shown ·{' '}
        <a href="/api/contest/leaderboard.csv" download>
          CSV
        </a>
      </caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Id</th>
          <th scope="col">Score</th>
          {board.traces.map((t) => (
            <th scope="col" key={t.trace}>
              {t.trace}
              {t.heldOut ? ' (held out)' : ''}
            </th>
          ))}
          <th scope="col">Submissions</th>
        </tr>
      </thead>
      <tbody>
        {board.rows.map((r) => (
          <Row key={r.id} row={r} traces={board.traces} />
        ))}
      </tbody>
    </table>
  );
}

/** An id and, in brackets, how many of its submissions are as the list says. */
function IdList({ label, ids, testid }: { label: string; ids: { id: string; count: string }[]; testid: string }) {
  const sorted = [...ids].sort((a, b) => byId(a.id, b.id));
  return (
    <p data-testid={testid}>
      <strong>{label}:</strong>{' '}
      {sorted.map(({ id, count }, i) => (
        <Fragment key={id}>
          {i > 0 && ', '}
          <span data-id={id}>
            {id} <small>({count})</small>
          </span>
        </Fragment>
      ))}
    </p>
  );
}

/**
 * The students the ranking leaves out, by id, so that an instructor finds who is stuck: each one's error is
 * its submitter's own (read at the submission's URL), never the board's.
 */
function Unranked({ board }: { board: Board }) {
  const waiting = board.pending.map(({ id, attempts }) => ({ id, count: `${attempts.filter((a) => a.status === 'queued' || a.status === 'running').length} waiting` }));
  const failed = board.failed.map(({ id, attempts }) => ({ id, count: `${attempts.length} failed` }));
  return (
    <div className="contest-unranked">
      {waiting.length > 0 && <IdList label="Waiting for a score" ids={waiting} testid="contest-waiting" />}
      {failed.length > 0 && <IdList label="Every submission failed" ids={failed} testid="contest-failed" />}
    </div>
  );
}

export function ContestView() {
  // Each try asks the relay anew: it may have been restarted with --contest.
  const [tries, setTries] = useState(0);
  return <ContestBoard key={tries} retry={() => setTries((t) => t + 1)} />;
}

function ContestBoard({ retry }: { retry(): void }) {
  const { status, board, reference, operator } = useContest();
  if (status === 'loading')
    return (
      <section className="contest-view" aria-label="Class contest">
        <p role="status">Loading the class contest…</p>
      </section>
    );
  if (status === 'none' || !board)
    return (
      <section className="contest-view" aria-label="Class contest">
        <p role="status">
          This relay runs no class contest: the instructor starts it with <code>npm start -- --contest</code>.{' '}
          <button type="button" onClick={retry}>
            Check again
          </button>
        </p>
      </section>
    );
  const hidden = !board.revealed;
  // A class's thirty names need the room: the planes share the projector's width, one alone takes most of it.
  const width = Math.min(900, Math.floor(1200 / board.traces.length));
  return (
    <section className="contest-view" aria-label="Class contest">
      <p className="contest-head">
        Every scored submission is a dot, each student's best ringed and named where there is room (every dot names its student as the pointer rests on it); ★ the omniscient sender; grey squares the
        built-in schemes at their defaults, by their short names where there is room. {standing(board)}.{' '}
        {hidden ? 'Held-out traces are scored but not shown until the instructor reveals them.' : 'Held-out scores are revealed.'} {hidden && operator && <RevealHeldOut />}
      </p>
      <div className="contest-planes">
        {board.traces.map(({ trace, heldOut }) => (
          <div key={trace} data-trace={trace}>
            <h2>
              {trace}
              {heldOut ? ' (held out)' : ''}
            </h2>
            <PlaneChart points={pointsOf(trace, board, reference)} width={width} height={280} short />
          </div>
        ))}
      </div>
      <Ranking board={board} />
      <Unranked board={board} />
      {operator && <FailedWhy failed={board.failed} revealed={board.revealed} />}
      <NotSubmitted board={board} operator={operator} />
    </section>
  );
}
