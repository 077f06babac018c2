import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../shared/log/eventLog.ts';
import { ESTIMATE, K } from '../../../shared/log/kinds.ts';
import { runSeries } from '../../../shared/metrics/series.ts';
import { chartsOf } from '../../../web/app/layers.ts';

/** A run whose controller reported each of `names` once. */
function withEstimates(names: (keyof typeof ESTIMATE)[]) {
  const log = new EventLog();
  log.push(0, K.send, 0, 0, 1500, 1, 4);
  log.push(40, K.ack, 0, 0, 80, 40, 4);
  for (const n of names) log.push(40, K.estimate, 0, ESTIMATE[n], 0, 40, 4);
  return runSeries(log, 1000, null);
}

describe('estimates in the legends', () => {
  it('are named in words, and two that share a chart are told apart by colour', () => {
    const charts = chartsOf(withEstimates(['rttMin', 'srtt', 'rto', 'bandwidth', 'pacingRate', 'ssthresh']), false);
    const legend = (id: string) => charts.find((c) => c.id === id)!.layers.filter((l) => l.kind === 'step' && l.size === 1.2);
    expect(legend('delay').map((l) => l.label)).toEqual(['min RTT', 'smoothed RTT', 'retransmission timeout']);
    expect(legend('rates').map((l) => l.label)).toEqual(['bandwidth estimate', 'pacing rate']);
    expect(legend('window').map((l) => l.label)).toEqual(['slow-start threshold']);
    for (const id of ['delay', 'rates']) expect(new Set(legend(id).map((l) => l.color)).size, id).toBe(legend(id).length);
  });

  it('hold each estimate’s last level while the controller runs: to its last event, not past a preview’s data', () => {
    const s = withEstimates(['ssthresh', 'srtt']);
    const held = (series: typeof s) => chartsOf(series, false).flatMap((c) => c.layers.filter((l) => l.size === 1.2 && l.kind === 'step').map((l) => l.holdTo));
    // the controller's last event is the ACK at 40 ms, in a run of 1000 ms
    expect(held(s)).toEqual([40, 40]);
    const longer = { ...s, window: Float64Array.from([...s.window, 900, 4]) };
    expect(held(longer)).toEqual([900, 900]);
  });

  it('a session the relay recorded draws its server’s token rate among the rates, in requests a second as a pacer’s', () => {
    const charts = chartsOf(withEstimates(['tokenRate', 'pacingRate']), true);
    const rates = charts.find((c) => c.id === 'rates')!;
    expect(rates.yLabel).toBe('packets/s');
    expect(rates.layers.filter((l) => l.kind === 'step').map((l) => l.label)).toEqual(['pacing rate', 'the server’s token rate']);
  });

  it('the offset server’s throughput chart claims no capacity: its limit is the token bucket', () => {
    const title = (offset: boolean) => chartsOf(withEstimates([]), offset).find((c) => c.id === 'throughput')!.title;
    expect([title(false), title(true)]).toEqual(['Throughput against capacity', 'Throughput of the replies']);
  });
});
