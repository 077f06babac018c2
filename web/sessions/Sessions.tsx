import { useEffect, useMemo, useRef, useState } from 'react';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { sessionSeries } from '../../shared/metrics/sessionSeries.ts';
import { RunCharts } from '../charts/RunCharts.tsx';
import { download } from '../export/download.ts';
import { chartsSvg, svgToPng } from '../export/image.ts';
import { sessionCharts } from './sessionCharts.ts';
import type { SessionSummary } from '../../shared/relay/sessions.ts';
import { SessionTable } from './SessionTable.tsx';
import { okText, usePoll } from './usePoll.ts';

async function readSessions(r: Response): Promise<SessionSummary[]> {
  const text = await okText(r);
  if (!(r.headers.get('content-type') ?? '').includes('json')) throw new Error('No relay serves this page: start one with `npm start`.');
  return JSON.parse(text) as SessionSummary[];
}

/** The session the URL names (?session=ID), kept there so that a link opens the same session. */
function useSelected(): [string | null, (id: string | null) => void] {
  const [id, setId] = useState(() => new URLSearchParams(window.location.search).get('session'));
  useEffect(() => {
    window.history.replaceState(null, '', `?view=sessions${id ? `&session=${encodeURIComponent(id)}` : ''}`);
  }, [id]);
  return [id, setId];
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
  const exportImage = async (kind: 'svg' | 'png') => {
    const { svg, width, height } = chartsSvg(root.current!);
    if (kind === 'svg') download(`${fileName(id)}.svg`, svg, 'image/svg+xml');
    else download(`${fileName(id)}.png`, await svgToPng(svg, width, height));
  };
  return (
    <section className="lab-charts" aria-label={`Session ${id}`} data-testid="session-charts">
      <p className="lab-controls">
        <strong>{id}</strong>
        <button type="button" data-export="session-csv" onClick={() => download(`${fileName(id)}.csv`, text!)}>
          Trace CSV
        </button>
        <button type="button" data-export="session-png" onClick={() => void exportImage('png')}>
          Image (PNG)
        </button>
        <button type="button" data-export="session-svg" onClick={() => void exportImage('svg')}>
          Image (SVG)
        </button>
        <span className="hint">Drag across a chart to zoom, double-click to see the whole session. Times are from the session's start.</span>
      </p>
      <div ref={root}>
        <RunCharts charts={charts} domain={zoom ?? [series.startMs, Math.max(series.endMs, series.startMs + 1)]} tNow={series.endMs} onZoom={setZoom} />
      </div>
    </section>
  );
}

/** Every offset-server session the relay records, from any client, listed and drawn live. */
export function Sessions() {
  const polled = usePoll('/api/sessions', readSessions);
  const [selected, select] = useSelected();
  const sessions = polled.state === 'ok' ? polled.value : [];
  return (
    <div className="lab">
      <section className="lab-controls" aria-label="Sessions">
        <h2>Sessions</h2>
        <p role="status">
          {polled.state === 'waiting' && 'Asking the relay…'}
          {polled.state === 'failed' && polled.message}
          {polled.state === 'ok' &&
            `Live: every session of the relay's offset servers, from any client (run yours against ${window.location.hostname}:9801 or :9802). ${sessions.length} recorded.`}
        </p>
      </section>
      <div className="lab-body">
        <SessionTable sessions={sessions} selected={selected} select={select} />
        {selected && <SessionCharts key={selected} id={selected} />}
      </div>
    </div>
  );
}
