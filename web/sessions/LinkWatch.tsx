import { useMemo, useRef, useState } from 'react';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { runSeries } from '../../shared/metrics/series.ts';
import { chartsOf } from '../app/layers.ts';
import { RunCharts } from '../charts/RunCharts.tsx';
import { ChartExports } from './ChartExports.tsx';
import { okText, usePoll } from './usePoll.ts';

/** The watch address as typed or given in the URL, or why it cannot be one. */
export function watchUrl(raw: string): { url: string } | { error: string } {
  try {
    const u = new URL(raw);
    if (u.protocol === 'http:' || u.protocol === 'https:') return { url: `${u.origin}/link.csv` };
  } catch {
    // answered below
  }
  return { error: `“${raw.slice(0, 100)}” is not an emulated link's watch address: start one with \`npm run link -- … --watch 127.0.0.1:PORT\` and give http://127.0.0.1:PORT` };
}

/** An emulated link (`npm run link -- --watch …`) drawn as it runs, with the playground's charts. */
export function LinkWatch({ address }: { address: string }) {
  const target = watchUrl(address);
  const polled = usePoll('url' in target ? target.url : null, okText);
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const text = polled.state === 'ok' ? polled.value : null;
  const view = useMemo(() => {
    if (text === null) return null;
    try {
      const { log } = parseTraceCsv(text);
      const endMs = log.length ? log.columns.t[log.length - 1] : 0;
      // The link has no controller: charts with nothing to draw (the window) are left out.
      return { endMs, charts: chartsOf(runSeries(log, endMs, null), false).filter((c) => c.layers.some((l) => l.data.length > 0)) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }, [text]);
  if ('error' in target) return <p className="error">{target.error}</p>;
  if (polled.state === 'failed') return <p className="error">The link at {address} did not answer: {polled.message}</p>;
  if (!view) return <p role="status">Asking the link at {address}…</p>;
  if ('error' in view) return <p className="error">The link's trace could not be read: {view.error}</p>;
  return (
    <section className="lab-charts" aria-label={`Emulated link ${address}`} data-testid="link-charts">
      <ChartExports name="pipefill-link" csv={text!} root={root}>
        <strong>Emulated link at {address}</strong>
      </ChartExports>
      <div ref={root}>
        <RunCharts charts={view.charts} domain={zoom ?? [0, Math.max(1, view.endMs)]} tNow={view.endMs} onZoom={setZoom} />
      </div>
    </section>
  );
}
