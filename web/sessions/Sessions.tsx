import type { EventLog } from '../../shared/log/eventLog.ts';
import { sessionSeries } from '../../shared/metrics/sessionSeries.ts';
import { LinkWatch } from './LinkWatch.tsx';
import { sessionCharts } from './sessionCharts.ts';
import { TraceCharts } from './TraceCharts.tsx';
import { usePolledTrace } from './usePolledTrace.ts';
import type { SessionSummary } from '../../shared/relay/sessions.ts';
import { SessionTable } from './SessionTable.tsx';
import { Guide } from '../teach/Guide.tsx';
import { okText, useClientRecords } from './usePoll.ts';
import { Notices } from '../components/Notices.tsx';
import { useSessionsUrl } from './useSessionsUrl.ts';
import { relayInfo, useRelay } from '../app/useRelay.ts';
import { ownSessions } from '../live/ownSessions.ts';

async function readSessions(r: Response): Promise<SessionSummary[]> {
  const text = await okText(r);
  if (!(r.headers.get('content-type') ?? '').includes('json')) throw new Error('No relay serves this page: start one with `npm start`.');
  return JSON.parse(text) as SessionSummary[];
}

const fileName = (id: string) => `pipefill-session-${id.replace(/[^\w.-]+/g, '_')}`;

function sessionView(log: EventLog) {
  const series = sessionSeries(log);
  return { series, charts: sessionCharts(series) };
}

/** One recorded session drawn as it happens: the charts follow the relay's record every poll. */
/** One session's charts, named by the id its Submit gave when it has one (the student), and its own id. */
function SessionCharts({ id, submittedAs }: { id: string; submittedAs: string | null }) {
  const trace = usePolledTrace(`/api/sessions/${encodeURIComponent(id)}/csv`, sessionView);
  if (trace.state === 'failed')
    return (
      <p className="error">
        {id}: {trace.message}
      </p>
    );
  if (trace.state === 'waiting') return <p role="status">Loading {id}…</p>;
  const { series, charts } = trace.view;
  return (
    <TraceCharts name={fileName(id)} label={`Session ${id}`} csv={trace.csv} charts={charts} span={[series.startMs, series.endMs]}>
      <strong>{submittedAs ? `${submittedAs} · ${id}` : id}</strong>
    </TraceCharts>
  );
}

/** Every offset-server session the relay records, from any client, listed and drawn live. */
export function Sessions() {
  const relay = useRelay();
  const info = relayInfo(relay);
  const servers = info ? `UDP, ${info.offsetConstant} at a constant rate and ${info.offsetVariable} at a variable one` : 'UDP';
  const polled = useClientRecords(relay, '/api/sessions', readSessions);
  const { selected, select, watched, watch, notices } = useSessionsUrl();
  const sessions = polled.state === 'ok' ? polled.value : [];
  return (
    <div className="lab">
      <Guide view="sessions" />
      <Notices notices={notices.notices} dismiss={notices.dismiss} />
      <section className="lab-controls" aria-label="Sessions">
        <h2>Sessions</h2>
        <p role="status">
          {polled.state === 'waiting' && 'Asking the relay…'}
          {polled.state === 'failed' && polled.message}
          {polled.state === 'ok' && `Live: every session of the relay's offset servers, from any client (${servers}). ${sessions.length} recorded.`}
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            watch(String(new FormData(e.currentTarget).get('watch') ?? '').trim() || null);
          }}
        >
          <label>
            Watch an emulated link (<code>npm run link -- … --watch 127.0.0.1:PORT</code>) <input name="watch" defaultValue={watched ?? ''} placeholder="http://127.0.0.1:PORT" size={26} />
          </label>{' '}
          <button type="submit">Watch</button>
        </form>
      </section>
      {watched && <LinkWatch key={watched} address={watched} />}
      <div className="lab-body">
        <SessionTable sessions={sessions} own={ownSessions()} selected={selected} select={select} />
        {selected && <SessionCharts key={selected} id={selected} submittedAs={sessions.find((s) => s.id === selected)?.submittedAs ?? null} />}
      </div>
    </div>
  );
}
