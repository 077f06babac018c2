import { useState } from 'react';
import { leaderboardCsv, rankEntries, type LeaderboardEntry } from '../../shared/relay/leaderboard.ts';
import { Notices } from '../components/Notices.tsx';
import { useNotices } from '../components/useNotices.ts';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { download } from '../export/download.ts';
import { Guide } from '../teach/Guide.tsx';
import { useLeaderboard } from './useLeaderboard.ts';

type Order = 'ranked' | 'latest';

/** The leaderboard's URL names the view and nothing else. */
const NO_FIELDS = [] as const;

const STATUS = {
  connecting: 'Connecting to the relay…',
  live: 'Live: every Submit to the relay’s offset servers appears here as it is graded.',
  'no relay': 'No relay serves this page: start one with `npm start` to keep a class leaderboard.',
};

function Row({ e, rank }: { e: LeaderboardEntry; rank: number }) {
  return (
    <tr data-result={String(e.result)}>
      <td>{rank}</td>
      <td>{e.id}</td>
      <td>{e.server}</td>
      <td>{e.result ? 'true' : 'false'}</td>
      <td className="num">{e.time}</td>
      <td className="num">{e.penalty}</td>
      <td>{new Date(e.at).toLocaleTimeString()}</td>
    </tr>
  );
}

/** The class leaderboard the relay keeps: every Submit with its grade, best or latest first, as CSV too. */
export function Leaderboard() {
  const { entries, status } = useLeaderboard();
  const { notices, dismiss } = useNotices(useInitialState(NO_FIELDS));
  useUrlState('leaderboard', NO_FIELDS, {});
  const [order, setOrder] = useState<Order>('ranked');
  const shown = order === 'ranked' ? rankEntries(entries) : [...entries].reverse();
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
            <option value="ranked">Correct first, then fastest, then least penalty</option>
            <option value="latest">Latest first</option>
          </select>
        </label>
        <button type="button" data-export="leaderboard" onClick={() => download('leaderboard.csv', leaderboardCsv(entries))} disabled={entries.length === 0}>
          Export CSV
        </button>
      </section>
      <div className="lab-body">
        <table className="results" data-testid="leaderboard">
          <thead>
            <tr>
              <th>#</th>
              <th>Id</th>
              <th>Server</th>
              <th>Result</th>
              <th>Time (ms)</th>
              <th>Penalty</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e, i) => (
              <Row key={`${e.at}-${e.id}-${i}`} e={e} rank={i + 1} />
            ))}
          </tbody>
        </table>
        {entries.length === 0 && status === 'live' && <p>No Submit yet.</p>}
      </div>
    </div>
  );
}
