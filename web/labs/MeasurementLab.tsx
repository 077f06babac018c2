import { useEffect, useRef, useState } from 'react';
import { DEFAULT_MEASUREMENT, MEASUREMENT_SIZES, type MeasurementResult } from '../../shared/scenarios/measurement.ts';

import type { RelayInfo } from '../../shared/relay/info.ts';
import { fixed } from '../charts/format.ts';
import { Fit, LiveFit } from './measurement/Fit.tsx';
import { RecordedConnections } from './measurement/RecordedConnections.tsx';
import { WorkerPool } from '../worker/pool.ts';
import type { NumberParam } from '../../shared/controllers/types.ts';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { MEASUREMENT_LAB } from '../state/labs.ts';
import { Notices } from '../components/Notices.tsx';
import { useNotices } from '../components/useNotices.ts';

const err = (est: number, truth: number) => `${fixed((100 * (est - truth)) / truth, 1)}%`;

/** Bandwidth and delay from ping-pong latencies of several message sizes, simulated or live. */
export function MeasurementLab() {
  const initial = useInitialState(MEASUREMENT_LAB);
  const { notices, dismiss } = useNotices(initial);
  const [mbps, setMbps] = useState(initial.value.bw as number);
  const [delayMs, setDelay] = useState(initial.value.delay as number);
  const [jitterMs, setJitter] = useState(initial.value.jitter as number);
  const [hidden, setHidden] = useState(initial.value.hide === '1');
  const [sim, setSim] = useState<MeasurementResult | null>(null);
  const [live, setLive] = useState<MeasurementResult | null>(null);
  const [liveState, setLiveState] = useState<string>('');
  const pool = useRef<WorkerPool | null>(null);
  pool.current ??= new WorkerPool();
  useUrlState('measurement', MEASUREMENT_LAB, { bw: mbps, delay: delayMs, jitter: jitterMs, hide: hidden ? '1' : '0' });

  useEffect(() => {
    const t = setTimeout(() => {
      void pool.current!.request('a', { kind: 'measure', spec: { ...DEFAULT_MEASUREMENT, mbps, delayMs, jitterMs } }).then((r) => r.kind === 'measured' && setSim(r.result));
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

  const slider = (index: number, value: number, set: (v: number) => void) => {
    const spec = MEASUREMENT_LAB[index] as NumberParam;
    return (
      <label className="param">
        {spec.doc} <output>{hidden ? '?' : value}</output> {spec.unit}
        <input type="range" min={spec.min} max={spec.max} step={spec.step} value={value} onChange={(e) => set(Number(e.target.value))} data-param={spec.name} />
      </label>
    );
  };

  return (
    <div className="lab">
      <Notices notices={notices} dismiss={dismiss} />
      <section className="lab-controls" aria-label="The link to measure">
        {slider(0, mbps, setMbps)}
        {slider(1, delayMs, setDelay)}
        {slider(2, jitterMs, setJitter)}
        <label>
          <input type="checkbox" checked={hidden} onChange={(e) => setHidden(e.target.checked)} /> hide the truth
        </label>
      </section>
      <div className="lab-body">
        {sim && <Fit result={sim} truth={hidden ? null : { mbps, delayMs }} />}
        {sim && (
          <dl className="estimates" data-testid="estimates">
            <dt>bandwidth (from the slope, 2·8 bits per byte per round trip)</dt>
            <dd data-estimate="mbps">
              {fixed(sim.fit.mbps, 3)} Mbit/s{' '}
              {!hidden && (
                <small>
                  truth {mbps} · error {err(sim.fit.mbps, mbps)}
                </small>
              )}
            </dd>
            <dt>size-independent one-way delay (half the intercept)</dt>
            <dd data-estimate="delay">
              {fixed(sim.fit.delayMs, 3)} ms{' '}
              {!hidden && (
                <small>
                  truth {delayMs} · error {err(sim.fit.delayMs, delayMs)}
                </small>
              )}
            </dd>
          </dl>
        )}
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
