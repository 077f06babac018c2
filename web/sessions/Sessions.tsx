import { useEffect, useMemo, useRef, useState } from 'react';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { sessionSeries } from '../../shared/metrics/sessionSeries.ts';
import { RunCharts } from '../charts/RunCharts.tsx';
import { ChartExports } from './ChartExports.tsx';
import { LinkWatch } from './LinkWatch.tsx';
import { sessionCharts } from './sessionCharts.ts';
import type { SessionSummary } from '../../shared/relay/sessions.ts';
import { SessionTable } from './SessionTable.tsx';
import { okText, usePoll } from './usePoll.ts';

async function readSessions(r: Response): Promise<SessionSummary[]> {
  const text = await okText(r);
  if (!(r.headers.get('content-type') ?? '').includes('json')) throw new Error('No relay serves this page: start one with `npm start`.');
  return JSON.parse(text) as SessionSummary[];
}

/** One parameter of the page's URL (?view=sessions&session=ID or &watch=ADDRESS), so that a link opens the same view. */
function useParam(name: string): [string | null, (value: string | null) => void] {
  const [value, set] = useState(() => new URLSearchParams(window.location.search).get(name));
  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    if (value) q.set(name, value);
    else q.delete(name);
    window.history.replaceState(null, '', `?${q}`);
  }, [name, value]);
  return [value, set];
}

const fileName = (id: string) => `pipefill-session-${id.replace(/[^\w.-]+/g, '_')}`;

/** One recorded session drawn as it happens: the charts follow the relay's record every poll. */
function SessionCharts({ id }: { id: string }) {
  const polled = usePoll(`/api/sessions/${encodeURIComponent(id)}/csv`, okText);
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const text = polled.state === 'ok' ? polled.value : null;
  const view = useMemo(() => {
    if (text === null) return null;
    try {
      const series = sessionSeries(parseTraceCsv(text).log);
      return { series, charts: sessionCharts(series) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }, [text]);
  if (polled.state === 'failed') return <p className="error">{polled.message}</p>;
  if (!view) return <p role="status">Loading {id}…</p>;
  if ('error' in view) return <p className="error">The relay's record of {id} could not be read: {view.error}</p>;
  const { series, charts } = view;
  return (
    <section className="lab-charts" aria-label={`Session ${id}`} data-testid="session-charts">
      <ChartExports name={fileName(id)} csv={text!} root={root}>
        <strong>{id}</strong>
      </ChartExports>
      <div ref={root}>
        <RunCharts charts={charts} domain={zoom ?? [series.startMs, Math.max(series.endMs, series.startMs + 1)]} tNow={series.endMs} onZoom={setZoom} />
      </div>
    </section>
  );
}

/** Every offset-server session the relay records, from any client, listed and drawn live. */
export function Sessions() {
  const polled = usePoll('/api/sessions', readSessions);
  const [selected, select] = useParam('session');
  const [watched, watch] = useParam('watch');
  const sessions = polled.state === 'ok' ? polled.value : [];
  return (
    <div className="lab">
      <section className="lab-controls" aria-label="Sessions">
        <h2>Sessions</h2>
        <p role="status">
          {polled.state === 'waiting' && 'Asking the relay…'}
          {polled.state === 'failed' && polled.message}
          {polled.state === 'ok' &&
            `Live: every session of the relay's offset servers, from any client (UDP ports 9801 and 9802 unless the relay was told otherwise). ${sessions.length} recorded.`}
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            watch(String(new FormData(e.currentTarget).get('watch') ?? '').trim() || null);
          }}
        >
          <label>
            Watch an emulated link (<code>npm run link -- … --watch 127.0.0.1:PORT</code>){' '}
            <input name="watch" defaultValue={watched ?? ''} placeholder="http://127.0.0.1:PORT" size={26} />
          </label>{' '}
          <button type="submit">Watch</button>
        </form>
      </section>
      {watched && <LinkWatch key={watched} address={watched} />}
      <div className="lab-body">
        <SessionTable sessions={sessions} selected={selected} select={select} />
        {selected && <SessionCharts key={selected} id={selected} />}
      </div>
    </div>
  );
}
