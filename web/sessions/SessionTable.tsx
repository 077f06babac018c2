import type { RelaySession } from '../../shared/bridge/protocol.ts';
import type { SessionSummary } from '../../shared/relay/sessions.ts';
import { isOwnSession } from '../live/ownSessions.ts';
import { clientName } from './clientName.ts';

interface Props {
  sessions: SessionSummary[];
  /** This tab's own live fetches' sessions: their rows say "this page". */
  own: readonly RelaySession[];
  selected: string | null;
  select(id: string): void;
}

/** The recorded sessions, newest first, this page's own marked; choosing one opens its charts. */
export function SessionTable({ sessions, own, selected, select }: Props) {
  const newest = [...sessions].sort((a, b) => b.started.localeCompare(a.started));
  return (
    <table className="results" data-testid="sessions">
      <thead>
        <tr>
          <th>Client</th>
          <th>Submitted as</th>
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
        {newest.map((s) => {
          const mine = isOwnSession(s, own);
          const client = clientName(s, s.key);
          return (
            // The whole row opens the session to a pointer; its first cell's button, to a keyboard.
            <tr key={s.id} data-session={s.id} data-own={mine || undefined} className={s.id === selected ? 'best session-row' : 'session-row'} onClick={() => select(s.id)}>
              <td>
                <button type="button" onClick={() => select(s.id)} aria-pressed={s.id === selected} title={client.title}>
                  {client.text}
                </button>
                {mine && (
                  <>
                    {' '}
                    <span className="own-session">this page</span>
                  </>
                )}
              </td>
              <td>{s.submittedAs ?? '—'}</td>
              <td>{s.server}</td>
              <td>{new Date(s.started).toLocaleTimeString()}</td>
              <td className="num">{s.requests}</td>
              <td className="num">{s.replies}</td>
              <td className="num">{s.penalty}</td>
              <td className="num">{s.squishes}</td>
              <td>{s.result === null ? '—' : String(s.result)}</td>
              <td className="num">{s.time ?? '—'}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
