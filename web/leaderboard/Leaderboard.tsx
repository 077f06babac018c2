import { Fragment, useState } from 'react';
import { bestPerId, type BestOfId, type LeaderboardEntry, ranksByServer } from '../../shared/relay/leaderboard.ts';
import { Notices } from '../components/Notices.tsx';
import { useNotices } from '../components/useNotices.ts';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { download } from '../export/download.ts';
import { Guide } from '../teach/Guide.tsx';
import { useAttempts, useLeaderboard } from './useLeaderboard.ts';

type Order = 'ranked' | 'latest';

/** The leaderboard's URL names the view and nothing else. */
const NO_FIELDS = [] as const;
const COLUMNS = 8;

const STATUS = {
  connecting: 'Connecting to the relay…',
  live: 'Live: every Submit to the relay’s offset servers appears here as it is graded.',
  'no relay': 'No relay serves this page: start one with `npm start` to keep a class leaderboard.',
};

function Cells({ e }: { e: LeaderboardEntry }) {
  return (
    <>
      <td>{e.server}</td>
      <td>{e.result ? 'true' : 'false'}</td>
      <td className="num">{e.time}</td>
      <td className="num">{e.penalty}</td>
      <td>{new Date(e.at).toLocaleTimeString()}</td>
    </>
  );
}

/**
 * Every Submit the relay kept under one id to one server, oldest first: rows of the board's own table, so
 * their cells stand under its headings.
 */
function Attempts({ of, seen }: { of: LeaderboardEntry; seen: number }) {
  const attempts = useAttempts(of.id, seen);
  const shown = attempts?.filter((a) => a.server === of.server);
  if (shown === undefined)
    return (
      <tr className="attempts" data-attempts={of.id}>
        <td colSpan={COLUMNS}>Loading every attempt…</td>
      </tr>
    );
  return shown.map((a, i) => (
    <tr key={`${a.at}-${i}`} className="attempts" data-attempts={of.id} data-result={String(a.result)}>
      <td className="num">↳ {i + 1}</td>
      <td />
      <Cells e={a} />
      <td />
    </tr>
  ));
}

function Row({ row, rank, open, toggle }: { row: BestOfId; rank: number; open: boolean; toggle: () => void }) {
  const e = row.best;
  return (
    <tr data-result={String(e.result)}>
      <td>{rank}</td>
      <td>{e.id}</td>
      <Cells e={e} />
      <td>
        <button type="button" className="link" aria-expanded={open} onClick={toggle} data-action="attempts">
          {open ? 'hide' : `show ${row.count}`}
        </button>
      </td>
    </tr>
  );
}

/** The class leaderboard the relay keeps: each id's best Submit per server, every attempt a click away, every Submit as CSV. */
export function Leaderboard() {
  const { entries, status } = useLeaderboard();
  const { notices, dismiss } = useNotices(useInitialState(NO_FIELDS));
  useUrlState('leaderboard', NO_FIELDS, {});
  const [order, setOrder] = useState<Order>('ranked');
  const [open, setOpen] = useState<string | null>(null);
  const rows = bestPerId(entries);
  const ranks = ranksByServer(rows);
  // ranked: each server's board in turn (constant, then variable); latest: every Submit by time
  const byServer = (a: BestOfId, b: BestOfId) => (a.best.server === b.best.server ? 0 : a.best.server === 'constant' ? -1 : 1);
  const shown = order === 'ranked' ? [...rows].sort(byServer) : [...rows].sort((a, b) => (a.latestAt < b.latestAt ? 1 : a.latestAt > b.latestAt ? -1 : 0));
  const exportCsv = async () => download('leaderboard.csv', await (await fetch('/api/leaderboard.csv')).text());
  return (
    <div className="lab">
      <Guide view="leaderboard" />
      <Notices notices={notices} dismiss={dismiss} />
      <section className="lab-controls" aria-label="Leaderboard settings">
        <h2>Leaderboard</h2>
        <p role="status">{STATUS[status]}</p>
        <label>
          Order{' '}
          <select value={order} onChange={(e) => setOrder(e.target.value as Order)}>
            <option value="ranked">Each server: correct, fastest, least penalty</option>
            <option value="latest">Latest first</option>
          </select>
        </label>
        <button type="button" data-export="leaderboard" onClick={() => void exportCsv()} disabled={entries.length === 0}>
          Export CSV
        </button>
      </section>
      <div className="lab-body">
        <table className="results" data-testid="leaderboard">
          <thead>
            <tr>
              <th title="rank among the same server's">#</th>
              <th>Id</th>
              <th>Server</th>
              <th>Result</th>
              <th>Time (ms)</th>
              <th>Penalty</th>
              <th>When</th>
              <th>Attempts</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => {
              const key = `${row.best.server} ${row.best.id}`;
              return (
                <Fragment key={key}>
                  <Row row={row} rank={ranks.get(row)!} open={open === key} toggle={() => setOpen(open === key ? null : key)} />
                  {open === key && <Attempts of={row.best} seen={row.count} />}
                </Fragment>
              );
            })}
          </tbody>
        </table>
        {entries.length === 0 && status === 'live' && <p>No Submit yet.</p>}
      </div>
    </div>
  );
}
