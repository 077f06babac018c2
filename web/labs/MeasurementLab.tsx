import { useEffect, useRef, useState } from 'react';
import { MEASUREMENT_SIZES, type MeasurementResult } from '../../shared/scenarios/measurement.ts';
import { measurementSpec } from '../../shared/scenarios/measurementLink.ts';

import type { RelayInfo } from '../../shared/relay/info.ts';
import { Fit, LiveFit } from './measurement/Fit.tsx';
import { Estimates, type Guess, NO_GUESS, YourEstimate } from './measurement/Estimates.tsx';
import { LinkControls } from './measurement/LinkControls.tsx';
import { RecordedConnections } from './measurement/RecordedConnections.tsx';
import { useLabLink } from './measurement/useLabLink.ts';
import { WorkerPool } from '../worker/pool.ts';
import { Notices } from '../components/Notices.tsx';
import { useNotices } from '../components/useNotices.ts';
import { Guide } from '../teach/Guide.tsx';

/** Bandwidth and delay from ping-pong latencies of several message sizes, simulated or live. */
export function MeasurementLab() {
  const { values, truth, jitterMs, hidden, setParam, hide, drawAnother, problems } = useLabLink();
  // The student's estimates belong to the link they were made for: a new unknown link clears them.
  const [guess, setGuess] = useState<Guess>(NO_GUESS);
  const another = () => {
    setGuess(NO_GUESS);
    drawAnother();
  };
  const hideTruth = (on: boolean) => {
    if (on) setGuess(NO_GUESS);
    hide(on);
  };
  const { mbps, delayMs } = truth;
  const { notices, dismiss } = useNotices(problems);
  const [sim, setSim] = useState<MeasurementResult | null>(null);
  const [live, setLive] = useState<MeasurementResult | null>(null);
  const [liveState, setLiveState] = useState<string>('');
  const pool = useRef<WorkerPool | null>(null);
  pool.current ??= new WorkerPool();

  useEffect(() => {
    const t = setTimeout(() => {
      void pool.current!.request('a', { kind: 'measure', spec: measurementSpec({ mbps, delayMs, jitterMs }) }).then((r) => r.kind === 'measured' && setSim(r.result));
    }, 100);
    return () => clearTimeout(t);
  }, [mbps, delayMs, jitterMs]);

  const measureLive = async () => {
    setLiveState('measuring…');
    let info: RelayInfo;
    try {
      const r = await fetch('/api/relay');
      if (!r.ok) throw new Error(String(r.status));
      info = await r.json();
    } catch {
      setLiveState('The relay (npm start) cannot be reached from this page, so there is no echo server to measure.');
      return;
    }
    const r = await pool.current!.request('b', { kind: 'measure-live', relay: window.location.origin, target: info.echo, sizes: MEASUREMENT_SIZES.map((s) => Math.max(18, s)), repeats: 20 });
    if (r.kind === 'measured') {
      setLive(r.result);
      setLiveState('');
    } else if (r.kind === 'error') setLiveState(r.message);
  };

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <Guide view="measurement" />
      <LinkControls values={values} hidden={hidden} setParam={setParam} hide={hideTruth} drawAnother={another} />
      <div className="lab-body">
        {sim && <Fit result={sim} truth={hidden ? null : truth} fitted={!hidden} />}
        {sim && (hidden ? <YourEstimate guess={guess} setGuess={setGuess} /> : <Estimates result={sim} truth={truth} guess={guess} />)}
      </div>
      <section aria-label="Live measurement">
        <h2>Live: the relay's echo server</h2>
        <p className="hint">
          The page sends ping-pong messages (2-byte length, then the bytes) through the bridge; the relay forwards them over TCP and times each round trip on its own clock. The fit goes through each
          size's fastest round trip. On loopback the link is so fast that the size barely shows: that, too, is a measurement.
        </p>
        <button type="button" onClick={() => void measureLive()} data-action="measure-live">
          Measure the echo server
        </button>{' '}
        <span role="status">{liveState}</span>
        {live && <LiveFit result={live} testId="live-estimates" />}
      </section>
      <RecordedConnections />
    </div>
  );
}
