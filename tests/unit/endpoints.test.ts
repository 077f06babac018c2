import { describe, expect, it } from 'vitest';
import { createController } from '../../shared/scenarios/run.ts';
import { BaseController } from '../../shared/controllers/types.ts';
import { ContestSender, GapDetector } from '../../shared/endpoints/contest.ts';
import { ReliableReceiver, ReliableSender } from '../../shared/endpoints/reliable.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { DROP, K } from '../../shared/log/kinds.ts';
import type { Packet, PacketSink } from '../../shared/net/packet.ts';
import { generateFile } from '../../shared/offset/file.ts';
import { Scheduler } from '../../shared/sim/scheduler.ts';
import { Capture } from '../helpers/capture.ts';
import { NO_IMPAIRMENTS } from '../../shared/link/impairments.ts';
import { flow, rateLink } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';

const noTraces = () => {
  throw new Error('no traces here');
};

const rows = (run: ReturnType<typeof runScenario>, kind: number) => {
  const c = run.log.columns;
  const out: { t: number; seq: number; value: number; window: number }[] = [];
  for (let i = 0; i < run.log.length; i++) if (c.kind[i] === kind) out.push({ t: c.t[i], seq: c.seq[i], value: c.value[i], window: c.window[i] });
  return out;
};

describe('contest sender and receiver', () => {
  // 12 Mbit/s: a 1500-byte packet takes 1 ms, an 80-byte ACK 80/1500 ms; 10 ms each way.
  const spec = (scheme: string, params = {}, durationMs = 30): ScenarioSpec => ({
    workload: 'contest',
    link: rateLink(12, 10),
    flows: [flow(scheme, params)],
    seed: 1,
    durationMs,
    offset: null,
  });

  it('a 3-packet flight: sends, bottleneck departures, deliveries and ACKs at hand-computed times', () => {
    const run = runScenario(spec('fixed', { w: 3 }), noTraces);
    expect(
      rows(run, K.send)
        .slice(0, 4)
        .map((r) => r.t),
    ).toEqual([0, 0, 0, 21 + 80 / 1500]);
    expect(
      rows(run, K.depart)
        .slice(0, 3)
        .map((r) => [r.t, r.value]),
    ).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(
      rows(run, K.deliver)
        .slice(0, 3)
        .map((r) => r.t),
    ).toEqual([11, 12, 13]);
    const acks = rows(run, K.ack).slice(0, 3);
    expect(acks.map((r) => r.seq)).toEqual([0, 1, 2]);
    expect(acks[0].t).toBeCloseTo(21 + 80 / 1500, 9);
    expect(acks[0].value).toBeCloseTo(21 + 80 / 1500, 4); // RTT, stored as float32
    expect(acks[2].t).toBeCloseTo(23 + 80 / 1500, 9);
  });

  it('keeps seq − next ACK expected below the window', () => {
    const run = runScenario(spec('fixed', { w: 5 }, 2000), noTraces);
    const inFlight = rows(run, K.send).map((r) => r.value); // in flight once the packet is out
    expect(Math.max(...inFlight)).toBe(5);
  });

  it('sends one packet per timeout when no ACK comes back', () => {
    const s = spec('fixed', { w: 2 }, 3500);
    s.link.forward = { ...NO_IMPAIRMENTS, loss: 1 };
    const run = runScenario(s, noTraces);
    expect(rows(run, K.send).map((r) => r.t)).toEqual([0, 0, 1000, 2000, 3000]);
    expect(rows(run, K.timeout).map((r) => r.t)).toEqual([1000, 2000, 3000]);
  });
});

describe('reliable transfer', () => {
  const spec = (bytes: number, loss: number, seed = 1): ScenarioSpec => ({
    workload: 'reliable',
    link: rateLink(1, 10, { ...NO_IMPAIRMENTS, loss }),
    flows: [flow('reno', {}, 0, bytes)],
    seed,
    durationMs: 600_000,
    offset: null,
  });

  it('delivers every byte over a clean link with no retransmission', () => {
    const run = runScenario(spec(10_000, 0), noTraces);
    expect(run.flows[0].exact).toBe(true);
    expect(run.flows[0].retransmissions).toBe(0);
    expect(run.flows[0].bytesOnWire).toBe(10_000 + 7 * 52);
  });

  it('repairs losses with fast retransmit and timeouts, and still delivers exactly', () => {
    const run = runScenario(spec(200_000, 0.05), noTraces);
    expect(run.flows[0].exact).toBe(true);
    expect(rows(run, K.retransmit).length).toBe(run.flows[0].retransmissions);
    // every segment the link dropped was sent again; go-back-N after a timeout may resend more
    const dropped = new Set(
      rows(run, K.drop)
        .filter((d) => d.value === DROP.loss)
        .map((d) => d.seq),
    );
    expect(dropped.size).toBeGreaterThan(0);
    const resent = new Set(rows(run, K.retransmit).map((r) => r.seq));
    for (const seq of dropped) expect(resent.has(seq)).toBe(true);
  });

  it('cumulative ACKs: duplicates repeat the next byte expected while a hole is open', () => {
    const run = runScenario(spec(100_000, 0.05, 3), noTraces);
    const acks = rows(run, K.ack).map((a) => a.seq);
    let dups = 0;
    for (let i = 1; i < acks.length; i++) {
      expect(acks[i]).toBeGreaterThanOrEqual(acks[i - 1] - 0); // never goes back except reordered ACKs
      if (acks[i] === acks[i - 1]) dups++;
    }
    expect(dups).toBeGreaterThan(0);
  });
});

/**
 * A path that serves one packet per `serviceMs`, then delays it `delay` ms; it drops the first copy of
 * the listed sequence numbers.
 */
class ScriptedPath implements PacketSink {
  next: PacketSink | null = null;
  readonly dropped: number[] = [];
  private free = 0;
  constructor(
    private readonly scheduler: Scheduler,
    private readonly delay: number,
    private readonly drop: Set<number> = new Set(),
    private readonly serviceMs = 0,
  ) {}
  receive(packet: Packet, now: number): void {
    if (this.drop.delete(packet.seq)) {
      this.dropped.push(packet.seq);
      return;
    }
    this.free = Math.max(now, this.free) + this.serviceMs;
    this.scheduler.at(this.free + this.delay, (t) => this.next!.receive(packet, t));
  }
}

describe('the skeleton sender', () => {
  class Constant extends BaseController {
    losses: number[] = [];
    constructor(private readonly w: number) {
      super();
    }
    windowSize(): number {
      return this.w;
    }
    onLoss(_now: number, seq: number): void {
      this.losses.push(seq);
    }
  }

  const flight = (w: number) => {
    const scheduler = new Scheduler();
    const out = new Capture();
    const sender = new ContestSender({ scheduler, log: new EventLog(), flow: 0, out }, new Constant(w), 1504);
    sender.start(0);
    scheduler.run(10);
    return out.got.length;
  };

  it('uses the controller window truncated to whole packets, at least one', () => {
    expect(flight(2.9)).toBe(2);
    expect(flight(3)).toBe(3);
    expect(flight(0.4)).toBe(1);
  });

  it('tells the controller of a packet once three later packets are ACKed', () => {
    const scheduler = new Scheduler();
    const log = new EventLog();
    const controller = new Constant(6);
    const there = new ScriptedPath(scheduler, 10, new Set([1, 2, 7]));
    const back = new ScriptedPath(scheduler, 10);
    const sender = new ContestSender({ scheduler, log, flow: 0, out: there }, controller, 1504, 12);
    there.next = { receive: (p, now) => back.receive({ ...p, receivedAt: now }, now) };
    back.next = sender;
    sender.start(0);
    scheduler.run(5000);
    expect(there.dropped).toEqual([1, 2, 7]);
    expect(controller.losses).toEqual([1, 2, 7]);
    // and records each, so the charts can tick it: packet 1 is declared once packet 4's ACK is back
    // (sends at 0, 20 ms round trip, the window of 6 refilled at each ACK: 4 goes out at 0)
    const c = log.columns;
    const losses = Array.from({ length: log.length }, (_, i) => i).filter((i) => c.kind[i] === K.loss);
    expect(losses.map((i) => c.seq[i])).toEqual([1, 2, 7]);
    expect(c.t[losses[0]]).toBe(20);
    expect(c.t[losses[1]]).toBe(20);
  });
});

describe('gap detector', () => {
  it('declares a packet lost when three later ones are ACKed, in order, once', () => {
    const g = new GapDetector();
    expect([g.acked(0), g.acked(2), g.acked(3)]).toEqual([-1, -1, -1]);
    expect(g.acked(4)).toBe(1);
    expect(g.nextLoss()).toBe(-1);
    expect(g.acked(4)).toBe(-1); // a duplicate ACK counts once
    expect([g.acked(7), g.acked(8)]).toEqual([-1, -1]);
    expect(g.acked(9)).toBe(5);
    expect(g.nextLoss()).toBe(6);
    expect(g.nextLoss()).toBe(-1);
    expect(g.acked(1)).toBe(-1); // late: already counted as lost
    expect(g.acked(5000)).toBe(-1); // far ahead: grows
  });
});

describe('fast retransmit', () => {
  /** A 20-segment file with a window of 8; `drops` lose the first copy of those segments. */
  const transfer = (drops: number[]) => {
    const scheduler = new Scheduler();
    const log = new EventLog();
    const file = generateFile(20 * 1448, 7);
    const there = new ScriptedPath(scheduler, 10, new Set(drops), 1);
    const back = new ScriptedPath(scheduler, 10);
    const sender = new ReliableSender({ scheduler, log, flow: 0, out: there }, createController('fixed', { w: 8 }), file, 52);
    const receiver = new ReliableReceiver({ scheduler, log, flow: 0, out: back }, file);
    there.next = receiver;
    back.next = sender;
    sender.start(0);
    scheduler.run(60_000);
    const c = log.columns;
    const at = (kind: number) => Array.from({ length: log.length }, (_, i) => i).filter((i) => c.kind[i] === kind);
    return { sender, receiver, log, acks: at(K.ack).map((i) => ({ t: c.t[i], cumulative: c.seq[i] })), resends: at(K.retransmit).map((i) => ({ t: c.t[i], seq: c.seq[i] })) };
  };

  it('resends on the third duplicate ACK, not the fourth', () => {
    const r = transfer([2]);
    // segments 0–7 leave at 0, one per ms; 2 is lost, so the ACKs of 3, 4, 5 … repeat "2": the third
    // duplicate is the ACK of 5, served at 6 ms (2 took no time), back at 6 + 10 + 10
    const dupOf2 = r.acks.filter((a) => a.cumulative === 2);
    expect(dupOf2.map((a) => a.t).slice(0, 4)).toEqual([22, 23, 24, 25]);
    expect(r.resends).toEqual([{ t: 25, seq: 2 }]);
    const c = r.log.columns;
    const losses = Array.from({ length: r.log.length }, (_, i) => i).filter((i) => c.kind[i] === K.loss);
    expect(losses.map((i) => [c.t[i], c.seq[i]])).toEqual([[25, 2]]);
    expect(r.sender.retransmissions).toBe(1);
    expect(r.receiver.complete).toBe(true);
  });

  it('two holes, two fast retransmits: exactly two segments resent', () => {
    const r = transfer([2, 12]);
    expect(r.resends.map((x) => x.seq)).toEqual([2, 12]);
    expect(r.sender.retransmissions).toBe(2);
    expect(r.sender.bytesOnWire).toBe(20 * (1448 + 52) + 2 * (1448 + 52));
  });
});

describe('the reliable receiver', () => {
  /** Three segments of a 3,000-byte file (1448 + 1448 + 104 bytes), delivered in the order given. */
  const file = generateFile(3000, 3);
  const deliver = (segments: { seq: number; payload: Uint8Array }[]) => {
    const acks = new Capture();
    const receiver = new ReliableReceiver({ scheduler: new Scheduler(), log: new EventLog(), flow: 0, out: acks }, file);
    for (const { seq, payload } of segments) receiver.receive({ flow: 0, seq, bytes: payload.length + 52, isAck: false, sentAt: 0, receivedAt: 0, ack: 0, payload, retransmit: false, ecn: 0 }, 5);
    return { receiver, cumulative: acks.got.map((g) => g.packet.ack) };
  };
  const segment = (seq: number, bytes = file) => ({ seq, payload: bytes.subarray(seq * 1448, Math.min(3000, (seq + 1) * 1448)) });

  it('is exact once every segment came as the file has it, in any order, duplicates ignored', () => {
    const r = deliver([segment(2), segment(0), segment(0), segment(1)]);
    expect(r.cumulative).toEqual([0, 1, 1, 3]);
    expect([r.receiver.complete, r.receiver.exact, r.receiver.duplicates]).toEqual([true, true, 1]);
  });

  it('is complete but not exact when a segment’s bytes differ from the file’s, or it is cut short; a later good copy does not mend it', () => {
    const changed = file.slice();
    changed[1448 + 7] ^= 1;
    const r = deliver([segment(0), segment(1, changed), segment(1), segment(2)]);
    expect([r.receiver.complete, r.receiver.exact]).toEqual([true, false]);
    const short = deliver([segment(0), segment(1), { seq: 2, payload: file.subarray(2896, 2990) }]);
    expect([short.receiver.complete, short.receiver.exact]).toEqual([true, false]);
    expect(deliver([segment(0), segment(2)]).receiver.exact).toBe(false);
  });
});
