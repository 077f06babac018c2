import type { SessionSummary } from '../../shared/relay/sessions.ts';

interface Props {
  sessions: SessionSummary[];
  selected: string | null;
  select(id: string): void;
}

/** The recorded sessions, newest first; choosing one opens its charts. */
export function SessionTable({ sessions, selected, select }: Props) {
  const newest = [...sessions].sort((a, b) => b.started.localeCompare(a.started));
  return (
    <table className="results" data-testid="sessions">
      <thead>
        <tr>
          <th>Client</th>
          <th>Server</th>
          <th>Started</th>
          <th>Requests</th>
          <th>Replies</th>
          <th>Penalty</th>
          <th>Squishes</th>
          <th>Result</th>
          <th>Time (ms)</th>
        </tr>
      </thead>
      <tbody>
        {newest.map((s) => (
          // The whole row opens the session to a pointer; its first cell's button, to a keyboard.
          <tr key={s.id} data-session={s.id} className={s.id === selected ? 'best session-row' : 'session-row'} onClick={() => select(s.id)}>
            <td>
              <button type="button" onClick={() => select(s.id)} aria-pressed={s.id === selected}>
                {s.key}
              </button>
            </td>
            <td>{s.server}</td>
            <td>{new Date(s.started).toLocaleTimeString()}</td>
            <td className="num">{s.requests}</td>
            <td className="num">{s.replies}</td>
            <td className="num">{s.penalty}</td>
            <td className="num">{s.squishes}</td>
            <td>{s.result === null ? '—' : String(s.result)}</td>
            <td className="num">{s.time ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
