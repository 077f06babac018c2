import type { EventLog } from '../../shared/log/eventLog.ts';
import { runSeries } from '../../shared/metrics/series.ts';
import { chartsOf } from '../app/layers.ts';
import { TraceCharts } from './TraceCharts.tsx';
import { usePolledTrace } from './usePolledTrace.ts';
import { watchUrl } from './watchUrl.ts';

/** The playground's charts of what crossed the link; it has no controller, so charts with nothing to draw (the window) are left out. */
function linkView(log: EventLog) {
  const endMs = log.length ? log.columns.t[log.length - 1] : 0;
  return { endMs, charts: chartsOf(runSeries(log, endMs, null), false).filter((c) => c.layers.some((l) => l.data.length > 0)) };
}

/** An emulated link (`npm run link -- --watch …`) drawn as it runs. */
export function LinkWatch({ address }: { address: string }) {
  const target = watchUrl(address);
  const trace = usePolledTrace('url' in target ? target.url : null, linkView);
  if ('error' in target) return <p className="error">{target.error}</p>;
  if (trace.state === 'failed')
    return (
      <p className="error">
        The link at {address}: {trace.message}
      </p>
    );
  if (trace.state === 'waiting') return <p role="status">Asking the link at {address}…</p>;
  return (
    <TraceCharts name="pipefill-link" label={`Emulated link ${address}`} csv={trace.csv} charts={trace.view.charts} span={[0, trace.view.endMs]}>
      <strong>Emulated link at {address}</strong>
    </TraceCharts>
  );
}
