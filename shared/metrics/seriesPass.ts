import type { EventColumns } from '../log/eventLog.ts';
import { ESTIMATES, K } from '../log/kinds.ts';

/** Room for `n` interleaved (t, y) points. */
export function pairs(n: number): Float64Array {
  return new Float64Array(2 * n);
}

/** An interleaved (t, y) series filled in time order, its size known before the first point. */
class PairList {
  readonly data: Float64Array;
  private next = 0;

  constructor(n: number) {
    this.data = pairs(n);
  }

  add(t: number, y: number): void {
    this.data[this.next++] = t;
    this.data[this.next++] = y;
  }
}

/**
 * One pass over a run's log that fills every series the charts draw. Each series is sized from the log's
 * count of the kinds it holds, so the pass allocates nothing per row but the estimates and squishes.
 */
export class SeriesPass {
  /** Data sent (t, seq); retransmissions apart. */
  readonly sends: PairList;
  readonly retransmits: PairList;
  /** ACKs or offset replies reaching the sender (t, seq or offset). */
  readonly acks: PairList;
  readonly drops: PairList;
  /** The controller's window after each send, ACK, reply and timeout. */
  readonly window: PairList;
  readonly timeouts: PairList;
  readonly losses: PairList;
  readonly marks: PairList;
  /** Each packet through the bottleneck: (departure, queueing delay). */
  readonly queueDelay: PairList;
  /** The bottleneck's arrivals and departures, for the signal delay. */
  readonly arrivals: Float64Array;
  readonly departures: Float64Array;
  private passed = 0;
  /** Packets in the queue after each arrival and departure: times, counts and how many. */
  readonly queueT: Float64Array;
  readonly queueY: Float64Array;
  queuePoints = 0;
  private occupancy = 0;
  /** Bits through the bottleneck per bin of `binMs`. */
  readonly bits: Float64Array;
  /** Per estimate (by its index in ESTIMATES), interleaved (t, value). */
  readonly estimates: number[][] = ESTIMATES.map(() => []);
  /** Squished periods as [start, end] pairs. */
  readonly squished: number[] = [];
  private squishStart = -1;
  /**
   * A live fetch has no simulated bottleneck: its replies are what got through, their RTTs the delay. It
   * has no arrivals to tell a signal delay from.
   */
  private readonly fromReplies: boolean;

  constructor(
    count: Int32Array,
    private readonly binMs: number,
    bins: number,
  ) {
    this.sends = new PairList(count[K.send]);
    this.retransmits = new PairList(count[K.retransmit]);
    this.acks = new PairList(count[K.ack] + count[K.reply]);
    this.drops = new PairList(count[K.drop]);
    this.window = new PairList(count[K.ack] + count[K.reply] + count[K.timeout] + count[K.send]);
    this.timeouts = new PairList(count[K.timeout]);
    this.losses = new PairList(count[K.loss]);
    this.marks = new PairList(count[K.mark]);
    this.fromReplies = count[K.depart] === 0 && count[K.reply] > 0;
    this.queueDelay = new PairList(this.fromReplies ? count[K.reply] : count[K.depart]);
    this.arrivals = new Float64Array(this.fromReplies ? 0 : count[K.depart]);
    this.departures = new Float64Array(this.fromReplies ? 0 : count[K.depart]);
    this.queueT = new Float64Array(count[K.enqueue] + count[K.depart]);
    this.queueY = new Float64Array(count[K.enqueue] + count[K.depart]);
    this.bits = new Float64Array(bins);
  }

  /** Adds the log's first `n` rows to the series they belong to (the columns read into locals once). */
  rows(c: EventColumns, n: number): void {
    const { t: times, kind, seq, value, bytes, window } = c;
    for (let i = 0; i < n; i++) {
      const t = times[i];
      switch (kind[i]) {
        case K.send:
          this.sends.add(t, seq[i]);
          this.window.add(t, window[i]);
          break;
        case K.retransmit:
          this.retransmits.add(t, seq[i]);
          break;
        case K.ack:
          this.acks.add(t, seq[i]);
          this.window.add(t, window[i]);
          break;
        case K.reply:
          this.acks.add(t, seq[i]);
          this.window.add(t, window[i]);
          if (this.fromReplies) this.through(t, value[i], bytes[i]);
          break;
        case K.timeout:
          this.timeouts.add(t, window[i]);
          this.window.add(t, window[i]);
          break;
        case K.loss:
          this.losses.add(t, seq[i]);
          break;
        case K.mark:
          this.marks.add(t, seq[i]);
          break;
        case K.drop:
          this.drops.add(t, seq[i]);
          break;
        case K.depart:
          this.departed(t, value[i], bytes[i]);
          break;
        case K.enqueue:
          this.queued(t, value[i]);
          break;
        case K.estimate:
          this.estimates[seq[i]]?.push(t, value[i]);
          break;
        case K.squish:
          this.squish(t, value[i]);
          break;
      }
    }
  }

  /** Closes a squished period still open when the run ended. */
  end(endMs: number): void {
    if (this.squishStart >= 0) this.squished.push(this.squishStart, endMs);
    this.squishStart = -1;
  }

  /** A packet that got through at `t` after `delay` ms in the queue. */
  private through(t: number, delay: number, bytes: number): void {
    this.queueDelay.add(t, delay);
    this.bits[Math.min(this.bits.length - 1, Math.floor(t / this.binMs))] += bytes * 8;
  }

  private departed(t: number, delay: number, bytes: number): void {
    this.arrivals[this.passed] = t - delay;
    this.departures[this.passed++] = t;
    this.through(t, delay, bytes);
    this.queueAt(t, Math.max(0, this.occupancy - 1));
  }

  /** An arrival's row carries the queue's length with it. */
  private queued(t: number, occupancy: number): void {
    this.queueAt(t, occupancy);
  }

  private queueAt(t: number, occupancy: number): void {
    this.occupancy = occupancy;
    this.queueT[this.queuePoints] = t;
    this.queueY[this.queuePoints++] = occupancy;
  }

  /** A squish row says 1 when the server began squishing, 0 when it stopped. */
  private squish(t: number, state: number): void {
    if (state === 1 && this.squishStart < 0) this.squishStart = t;
    else if (state === 0 && this.squishStart >= 0) {
      this.squished.push(this.squishStart, t);
      this.squishStart = -1;
    }
  }
}
