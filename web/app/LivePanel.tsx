import { useEffect, useRef } from 'react';
import { findScheme } from '../../shared/controllers/registry.ts';
import { holdLeaving } from './leaving.ts';
import type { Experiment, Side } from '../state/experiment.ts';
import type { Runs } from './useRuns.ts';
import { relayInfo, type RelayState } from './useRelay.ts';
import { StudentId } from '../live/StudentId.tsx';
import { useStudentId } from '../live/studentId.ts';
import { ANONYMOUS_ID } from '../../shared/relay/studentId.ts';
import { pageSchemes } from '../editor/userCode.ts';

/**
 * A's settings as the live fetch under way started with them (the sidebar may have moved on since), and a
 * word before another view stops it.
 */
function useLiveStart(fetching: boolean) {
  const started = useRef<Side | null>(null);
  useEffect(() => {
    holdLeaving(fetching ? 'A live fetch is under way: opening another view stops it.' : null);
    return () => holdLeaving(null);
  }, [fetching]);
  return started;
}

/** The live fetch of controller A through the relay's bridge: where it goes, and start or stop. */
export function LivePanel({ e, runs, target, relay }: { e: Experiment; runs: Runs; target: string | null; relay: RelayState }) {
  const info = relayInfo(relay);
  const id = useStudentId();
  const started = useLiveStart(e.live && runs.busy.a === true);
  if (e.scenario !== 'offset') return null;
  if (!e.live) return relay === 'absent' ? <p className="hint">Live mode is off: the relay that serves it is not reachable from this page.</p> : null;
  // While the relay is being asked, the panel keeps its place (the charts below stay put), its button off.
  const at = target ?? (relay === 'unknown' ? '…' : null);
  return (
    <div className="live" role="status">
      {at ? (
        <>
          {runs.busy.a ? (
            <button type="button" onClick={runs.stopLive}>
              Stop
            </button>
          ) : (
            <button
              type="button"
              disabled={!target}
              onClick={() => {
                if (!target) return;
                started.current = e.a;
                runs.startLive(window.location.origin, target, e.variable, id ?? ANONYMOUS_ID);
              }}
              data-action="start-live"
            >
              Start live fetch
            </button>
          )}{' '}
          {/* Buttons that submit under the student's id (the class contest's) go here, beside it. */}
          <StudentId anonymous /> Controller A fetches the file from the relay’s {e.variable ? 'variable' : 'constant'}-rate server at {at} through the bridge.
          {runs.busy.a && started.current && JSON.stringify(started.current) !== JSON.stringify(e.a) && (
            <strong className="live-note" data-hint="live-settings">
              {' '}
              This fetch goes on with {findScheme(started.current.scheme, pageSchemes())?.title ?? started.current.scheme} as it started; A’s new settings apply from the next <em>Start live fetch</em>
              .
            </strong>
          )}
          <small data-hint="simulated-path">
            B’s simulated server sits on the loopback path (1 Gbit/s, 0.05 ms each way
            {info?.loopbackRttMs === undefined ? '' : `; this relay’s own UDP round trip is ${info.loopbackRttMs.toFixed(2)} ms`}), without the load-dependent delays of the real one.
          </small>
        </>
      ) : (
        'Live mode needs the relay (npm start), and it cannot be reached from this page. Simulated mode keeps working.'
      )}
    </div>
  );
}
