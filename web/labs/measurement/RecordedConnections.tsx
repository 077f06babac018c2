import { useState } from 'react';
import { type EchoConnection, fitConnection } from '../../../shared/relay/echo.ts';
import { okText, useClientRecords } from '../../sessions/usePoll.ts';
import { LiveFit } from './Fit.tsx';
import { clientName } from '../../sessions/clientName.ts';
import { relayInfo, useRelay } from '../../app/useRelay.ts';

async function readConnections(r: Response): Promise<EchoConnection[]> {
  const text = await okText(r);
  if (!(r.headers.get('content-type') ?? '').includes('json')) throw new Error('No relay serves this page: start one with `npm start` to record ping-pong clients.');
  return JSON.parse(text) as EchoConnection[];
}

/** The fit through one recorded connection's round trips, or why there is none yet. */
function ConnectionFit({ connection }: { connection: EchoConnection }) {
  const fitted = fitConnection(connection);
  if ('error' in fitted) return <p className="hint">{fitted.error}.</p>;
  return <LiveFit result={fitted} testId="recorded-estimates" />;
}

/** Any ping-pong client's series, as the relay's echo server recorded it, fitted like the lab's own. */
export function RecordedConnections() {
  const relay = useRelay();
  const echo = relayInfo(relay)?.echo;
  const polled = useClientRecords(relay, '/api/echo', readConnections);
  const [chosen, choose] = useState<number | null>(null);
  const connections = polled.state === 'ok' ? [...polled.value].reverse() : [];
  const current = connections.find((c) => c.id === chosen);
  return (
    <section aria-label="Recorded ping-pong clients">
      <h2>Live: any ping-pong client</h2>
      <p className="hint">
        Run your own client against the relay's echo server (TCP{echo ? `, ${echo}` : ''}: each message starts with its total length as 2 bytes, big-endian). The server times each message from writing
        the previous echo, so send each size at least twice in a row: the fit goes through each size's fastest round trip.
      </p>
      {polled.state === 'failed' && <p role="status">{polled.message}</p>}
      {polled.state === 'ok' && connections.length === 0 && <p role="status">No connections recorded yet.</p>}
      {connections.length > 0 && (
        <table className="results" data-testid="echo-connections">
          <thead>
            <tr>
              <th>Client</th>
              <th>Opened</th>
              <th>Messages</th>
              <th>State</th>
            </tr>
          </thead>
          <tbody>
            {connections.map((c) => (
              <tr key={c.id} data-connection={c.remote} className={c.id === chosen ? 'best' : undefined}>
                <td>
                  <button type="button" onClick={() => choose(c.id)} aria-pressed={c.id === chosen} title={clientName(c, c.remote).title}>
                    {clientName(c, c.remote).text}
                  </button>
                </td>
                <td>{new Date(c.openedAt).toLocaleTimeString()}</td>
                <td className="num">{c.messages}</td>
                <td>{c.open ? 'open' : 'closed'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {current && <ConnectionFit connection={current} />}
    </section>
  );
}
