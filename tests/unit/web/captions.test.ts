import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../shared/log/eventLog.ts';
import { K } from '../../../shared/log/kinds.ts';
import { summarizeLog } from '../../../shared/metrics/logSummary.ts';
import { runSeries } from '../../../shared/metrics/series.ts';
import { summarize } from '../../../shared/metrics/summary.ts';
import { runScenario } from '../../../shared/scenarios/run.ts';
import { DEFAULT_EXPERIMENT } from '../../../web/state/experiment.ts';
import { specFor } from '../../../web/state/spec.ts';
import { bdpPackets, captions, degenerate, factsOf, linkDifferences, type RunFacts } from '../../../web/teach/captions.ts';

const aimd: RunFacts = {
  name: 'AIMD',
  throughputMbps: 4.8,
  delay95: 979.4,
  queueDelay95: 900,
  maxWindow: 120,
  timeouts: 3,
  losses: 0,
  drops: 0,
  sends: 1000,
  lastSendMs: 59_000,
  endMs: 60_000,
  capacityMbps: 6,
  omniscient: true,
  bdp: 40,
};
const bdp: RunFacts = { ...aimd, name: 'BDP estimator', throughputMbps: 3.936, delay95: 136, queueDelay95: 80, maxWindow: 44, timeouts: 1 };

describe('captions of a run imported from a file that holds one end of it', () => {
  const pcap: RunFacts = { ...aimd, name: 'pcap capture', throughputMbps: NaN, delay95: NaN, queueDelay95: NaN, maxWindow: NaN, drops: NaN };
  const linkLog: RunFacts = { ...aimd, name: 'Mahimahi link log', sends: 0, lastSendMs: 0, maxWindow: NaN, throughputMbps: 4.92, delay95: 1721 };

  it('says what the file does not hold instead of judging the run by it', () => {
    expect([degenerate(pcap), degenerate(linkLog)]).toEqual([null, null]);
    const said = captions(aimd, pcap);
    expect(said.plane).toContain('pcap capture: its file holds the sender alone, not the bottleneck, so it has no throughput, delay or score. Only AIMD has a score.');
    expect(said.window).toContain("pcap capture's file holds no window.");
    expect(said.sequence).toContain('Drops: AIMD 0; pcap capture not known.');
    expect(said.throughput).toBe('Throughput against what the link offered: AIMD uses 80%; pcap capture not known (its file holds the sender alone).');
    expect(captions(aimd, linkLog).window).toContain("Mahimahi link log's file holds no window.");
  });

  it('a capture read into a view holds no window, so none is said to be stuck', () => {
    const log = new EventLog(8);
    for (let k = 0; k < 40; k++) {
      log.push(10 * k, K.send, 0, k, 1500, NaN, NaN);
      log.push(10 * k + 50, K.ack, 0, k, 1500, 50, NaN);
    }
    const spec = specFor(DEFAULT_EXPERIMENT, 'b');
    const view = { spec, summary: summarizeLog(log, spec, 450, null), series: runSeries(log, 450, null), live: null, wallMs: 0, source: 'imported' as const, flows: null };
    const facts = factsOf(view, 'pcap capture', 40, 1500);
    expect([facts.maxWindow, facts.throughputMbps, degenerate(facts)]).toEqual([NaN, NaN, null]);
  });

  it('still says a simulated run that sent nothing did', () => {
    expect(degenerate({ ...aimd, sends: 0, lastSendMs: 0, throughputMbps: 0 })).toBe('AIMD sent nothing');
  });
});

describe('captions from the runs', () => {
  it('the pipe: 12 Mbit/s × 40 ms in 1500-byte packets is 40 packets', () => {
    expect(bdpPackets(12, 40, 1500)).toBe(40);
  });

  it('says each run’s point, and which scores higher at what share of the other’s throughput', () => {
    expect(captions(aimd, bdp).plane).toBe(
      'AIMD: 4.80 Mbit/s (80% of the link) at delay95 979 ms. BDP estimator: 3.94 Mbit/s (66% of the link) at delay95 136 ms. ' +
        "BDP estimator scores higher: 136 ms at 82% of AIMD's throughput. Up and to the right is better (delay falls to the right); the star is the omniscient sender.",
    );
  });

  it('a run that wins on both axes, or on throughput alone, is said to, not given a share above 100%', () => {
    const slow = { ...aimd, name: 'Fixed window', throughputMbps: 0.0132, delay95: 9000 };
    // 4.8 ÷ 0.0132 = 363.6×; 979 ms against 9000 ms
    expect(captions(slow, aimd).plane).toContain("AIMD scores higher: less delay (979 ms against 9000 ms) and more throughput (364× Fixed window's).");
    // 4.8 Mbit/s at 6969 ms against 1.92 at 5000: 2.5× the throughput for 39% more delay
    expect(captions({ ...bdp, throughputMbps: 1.92, delay95: 5000 }, { ...aimd, delay95: 6969 }).plane).toContain("AIMD scores higher: 6969 ms, with more throughput (2.5× BDP estimator's).");
    expect(captions({ ...bdp, throughputMbps: 4.2, delay95: 200 }, { ...aimd, delay95: 150 }).plane).toContain(
      "AIMD scores higher: less delay (150 ms against 200 ms) and more throughput (14% above BDP estimator's).",
    );
  });

  it('says when A and B score the same, and tells two runs of one scheme apart by their side', () => {
    expect(captions(bdp, { ...bdp }).plane).toBe(
      'A · BDP estimator: 3.94 Mbit/s (66% of the link) at delay95 136 ms. B · BDP estimator: 3.94 Mbit/s (66% of the link) at delay95 136 ms. ' +
        'A · BDP estimator and B · BDP estimator score the same (throughput ÷ delay95). Up and to the right is better (delay falls to the right); the star is the omniscient sender.',
    );
    expect(captions(bdp, { ...bdp }).sequence).toBe('Sends climb at the sending rate and ACKs follow one RTT later; a flat stretch is a stall. Drops: A · BDP estimator 0; B · BDP estimator 0.');
  });

  it('figures that read alike are not said to be more or less: the caption says what differs', () => {
    const a = { ...aimd, throughputMbps: 4.92, delay95: 1721.2 };
    // 5.31 ÷ 4.92 = 1.079: 8% more throughput at delays that both read 1721 ms
    expect(captions(a, { ...a, throughputMbps: 5.31, delay95: 1720.9 }).plane).toContain("B · AIMD scores higher: more throughput (8% above A · AIMD's) at the same delay (1721 ms).");
    // 4.93 ÷ 4.92 = 1.002: more, by less than 1% (scores −5.857 and −5.855)
    expect(captions(a, { ...a, throughputMbps: 4.93 }).plane).toContain("B · AIMD scores higher: more throughput (less than 1% above A · AIMD's) at the same delay (1721 ms).");
    // 4.92 and 4.9249 both read 4.92 Mbit/s, 1721.2 and 1720.6 both 1721 ms; the scores −5.857 and −5.856 differ
    expect(captions(a, { ...a, throughputMbps: 4.9249, delay95: 1720.6 }).plane).toContain(
      'B · AIMD scores higher: the same delay (1721 ms) and throughput (4.92 Mbit/s) as shown, so the two are apart only in digits the figures round away.',
    );
    // 100.4 ms against 99.6: 0.8% less delay outweighs 0.2% less throughput (scores −3.016 and −3.010)
    const quick = { ...aimd, throughputMbps: 4.92, delay95: 100.4 };
    expect(captions(quick, { ...quick, throughputMbps: 4.91, delay95: 99.6 }).plane).toContain(
      "B · AIMD scores higher: a delay under a millisecond shorter (100 ms each, as shown) at 100% of A · AIMD's throughput.",
    );
    // throughputs that read alike, delays that do not
    expect(captions(quick, { ...quick, throughputMbps: 4.919, delay95: 90 }).plane).toContain('B · AIMD scores higher: less delay (90 ms against 100 ms) at the same throughput (4.92 Mbit/s).');
  });

  it('two runs whose cards show the same score are a tie, however their last digits differ', () => {
    expect(captions(bdp, { ...bdp, name: 'Other', throughputMbps: 3.936001 }).plane).toContain('BDP estimator and Other score the same (throughput ÷ delay95).');
  });

  it('names the omniscient star only where the link has one to draw', () => {
    expect(captions({ ...aimd, omniscient: false }, { ...bdp, omniscient: false }).plane).toMatch(
      /BDP estimator scores higher: 136 ms at 82% of AIMD's throughput\. Up and to the right is better \(delay falls to the right\)\.$/,
    );
  });

  it('measures the window against the pipe', () => {
    expect(captions(aimd, bdp).window).toBe(
      'The dashed line is the pipe, capacity × minimum RTT ≈ 40 packets; window above it waits in the queue as added delay, or is dropped once the queue is full. ' +
        'AIMD peaks at 120 packets (3.0× the pipe) with 3 timeouts. BDP estimator peaks at 44 packets (1.1× the pipe) with 1 timeout.',
    );
    expect(captions({ ...aimd, maxWindow: 1 }, null).window).toMatch(/AIMD peaks at 1 packet \(/);
    expect(captions({ ...aimd, losses: 12 }, { ...bdp, losses: 1 }).window).toMatch(/with 3 timeouts and 12 losses detected from ACKs\. .* with 1 timeout and 1 loss detected from ACKs\.$/);
    expect(captions(aimd, bdp).delay).toBe('Signal delay p95: AIMD 979 ms; BDP estimator 136 ms. Time packets waited in the queue, p95: AIMD 900 ms; BDP estimator 80 ms.');
  });

  it('a run that delivered nothing has no delay and no score: no NaN, and no side is said to score higher', () => {
    const lost = { ...aimd, throughputMbps: 0, delay95: Number.NaN, queueDelay95: Number.NaN };
    const said = captions(lost, { ...bdp, throughputMbps: 0, delay95: Number.NaN, queueDelay95: Number.NaN });
    expect(said.plane).toBe(
      'Look out: the link sits idle under AIMD: 0% of its capacity used; the link sits idle under BDP estimator: 0% of its capacity used. AIMD delivered no packet: it has no delay and no score. BDP estimator delivered no packet: it has no delay and no score.',
    );
    expect(said.delay).toBe('Signal delay p95: AIMD —; BDP estimator —. Time packets waited in the queue, p95: AIMD —; BDP estimator —.');
    expect(captions(lost, bdp).plane).toMatch(/AIMD delivered no packet: it has no delay and no score\. BDP estimator: .* Only BDP estimator has a score\. Up and to the right/);
    for (const text of Object.values(said)) expect(text).not.toContain('NaN');
  });

  it('a name ending in s takes a bare apostrophe', () => {
    expect(captions({ ...aimd, name: 'Watermarks' }, bdp).plane).toContain("of Watermarks' throughput");
    expect(degenerate({ ...aimd, name: 'Watermarks', maxWindow: 1 })).toBe("Watermarks' window is stuck at 1 packet: it sends one packet per round trip");
  });

  it('says when a run is degenerate, and puts it first', () => {
    expect(degenerate(aimd)).toBeNull();
    expect(degenerate({ ...aimd, maxWindow: 1 })).toBe("AIMD's window is stuck at 1 packet: it sends one packet per round trip");
    expect(degenerate({ ...aimd, lastSendMs: 30_000 })).toBe('AIMD stalled: it sent nothing in the last 30.0 s');
    expect(degenerate({ ...aimd, lastSendMs: 58_500 })).toBeNull();
    expect(degenerate({ ...aimd, throughputMbps: 0.12 })).toBe('the link sits idle under AIMD: 2% of its capacity used');
    expect(degenerate({ ...aimd, sends: 0, throughputMbps: 0 })).toBe('AIMD sent nothing');
    expect(captions({ ...aimd, maxWindow: 1 }, null).plane).toBe(
      "Look out: AIMD's window is stuck at 1 packet: it sends one packet per round trip. AIMD: 4.80 Mbit/s (80% of the link) at delay95 979 ms.",
    );
  });

  it('a constant-rate link’s capacity is its rate: 12 Mbit/s with 20 ms each way is a pipe of 40 packets, and no star', () => {
    const spec = specFor({ ...DEFAULT_EXPERIMENT, trace: 'rate' }, 'b');
    expect([spec.link.kind, spec.link.mbps, spec.link.delayMs]).toEqual(['rate', 12, 20]);
    const run = runScenario(spec, () => {
      throw new Error('no trace on a constant-rate link');
    });
    const view = { spec, summary: summarize(run), series: runSeries(run.log, run.endMs, null), live: null, wallMs: 0, source: 'simulated' as const, flows: null };
    const facts = factsOf(view, 'BDP estimator', 40, 1500, 12);
    expect([facts.capacityMbps, facts.bdp, facts.omniscient]).toEqual([12, 40, false]);
    expect(captions(facts, null).throughput).toMatch(/^Throughput against what the link offered: BDP estimator uses \d+%\.$/);
  });

  it('says how two runs’ links differ, and warns that runs on different links do not compare', () => {
    const link = specFor(DEFAULT_EXPERIMENT, 'a').link;
    expect(linkDifferences(link, { ...link })).toEqual([]);
    expect(linkDifferences({ ...link, delayMs: 50 }, link)).toEqual(['delay 50 ms against 20 ms']);
    expect(linkDifferences({ ...link, trace: 'TMobile-LTE-short.down', once: false }, { ...link, once: true })).toEqual([
      'the trace TMobile-LTE-short.down against the trace Verizon-LTE-short.down',
      'loop loop against once',
    ]);
    // a rate link's bandwidth is its bottleneck; looping means nothing there
    expect(linkDifferences({ ...link, kind: 'rate', mbps: 1, once: true }, link)).toEqual(['1 Mbit/s against the trace Verizon-LTE-short.down']);
    // a rate reads in its own unit, as the sidebar's does
    expect(linkDifferences({ ...link, kind: 'rate', mbps: 0.0566 }, { ...link, kind: 'rate', mbps: 1000 })).toEqual(['56.6 kbit/s against 1 Gbit/s']);
    // told apart by value, and named exactly where they would read alike
    expect(linkDifferences({ ...link, kind: 'rate', mbps: 1000.1 }, { ...link, kind: 'rate', mbps: 1000.4 })).toEqual(['1000.1 Mbit/s against 1000.4 Mbit/s']);
    expect(linkDifferences({ ...link, queue: { kind: 'packets', limit: 100 } }, link)).toEqual(['queue packets against infinite']);
    // a queue's limit counts what that side's queue holds
    expect(linkDifferences({ ...link, queue: { kind: 'packets', limit: 100 } }, { ...link, queue: { kind: 'bytes', limit: 15000 } })).toEqual([
      'queue packets against bytes',
      'queueLimit 100 packets against 15000 bytes',
    ]);
    expect(linkDifferences({ ...link, reverse: { ...link.reverse, loss: 0.01 } }, link)).toEqual(['ackLoss 1 % against 0 %']);
    // the same link written otherwise (keys in another order, a burst of none left out) is the same link
    const f = link.forward;
    const reordered = { ...link, forward: { jitter: f.jitter, reorder: f.reorder, duplicate: f.duplicate, loss: f.loss } as typeof f };
    expect(linkDifferences(reordered, link)).toEqual([]);
    // an imported run made at 50 ms beside B's at 20 ms
    const said = captions({ ...aimd, link: { ...link, delayMs: 50 } }, { ...bdp, link });
    expect(said.plane).toMatch(/^Look out: A and B ran on different links \(delay 50 ms against 20 ms\), so their figures do not compare like for like\. AIMD: /);
    expect(said.window).toMatch(/^Look out: A and B ran on different links/);
    // while a side's run for new settings is under way, the last run it shows is on the old link: no warning
    expect(captions({ ...aimd, link: { ...link, delayMs: 50 } }, { ...bdp, link }, true).plane).toMatch(/^AIMD: /);
    expect(captions({ ...aimd, link }, { ...bdp, link }).plane).toMatch(/^AIMD: /);
    expect(captions({ ...aimd, link: null }, { ...bdp, link }).plane).toMatch(/^AIMD: /);
  });

  it('with no run shown yet there is nothing to say', () => {
    expect(captions(null, null).plane).toBe('');
  });
});
