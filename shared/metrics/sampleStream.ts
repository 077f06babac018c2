import { K } from '../log/kinds.ts';
import type { RowStream } from '../log/eventLog.ts';

/** What a flow's figures (or all flows' together) are made of: the bottleneck's departures and the deliveries. */
export interface Samples {
  arrivals: Float64Array;
  departures: Float64Array;
  queueDelays: Float64Array;
  /** Sum of the queue delays, added in log order (what `mean` would add). */
  queueDelaySum: number;
  oneWay: Float64Array;
  bits: number;
  drops: number;
}

/** One flow's samples (or all flows'), taken as the rows come, in columns that double when full. */
class Gathered {
  private arrivals = new Float64Array(1024);
  private departures = new Float64Array(1024);
  private queueDelays = new Float64Array(1024);
  private oneWay = new Float64Array(1024);
  private departs = 0;
  private delivers = 0;
  private sum = 0;
  private bits = 0;
  drops = 0;

  depart(t: number, q: number, bytes: number): void {
    const j = this.departs++;
    if (j === this.departures.length) this.growDepartures();
    this.departures[j] = t;
    this.arrivals[j] = t - q;
    this.queueDelays[j] = q;
    this.sum += q;
    this.bits += bytes * 8;
  }

  deliver(oneWay: number): void {
    const j = this.delivers++;
    if (j === this.oneWay.length) this.oneWay = doubled(this.oneWay);
    this.oneWay[j] = oneWay;
  }

  clear(): void {
    this.departs = this.delivers = this.sum = this.bits = this.drops = 0;
  }

  samples(): Samples {
    const n = this.departs;
    return {
      arrivals: this.arrivals.subarray(0, n),
      departures: this.departures.subarray(0, n),
      queueDelays: this.queueDelays.subarray(0, n),
      queueDelaySum: this.sum,
      oneWay: this.oneWay.subarray(0, this.delivers),
      bits: this.bits,
      drops: this.drops,
    };
  }

  private growDepartures(): void {
    this.arrivals = doubled(this.arrivals);
    this.departures = doubled(this.departures);
    this.queueDelays = doubled(this.queueDelays);
  }
}

function doubled(a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const next = new Float64Array(a.length * 2);
  next.set(a);
  return next;
}

/** The columns of the last stream released, for the next: runs one after another grow them once. */
let spareAll: Gathered | null = null;

/**
 * The samples of a run that keeps no log, each row taken as it happens, for all flows together and, when
 * there are several, for each: the same samples a pass over the stored log collects.
 */
export class SampleStream implements RowStream {
  private readonly all: Gathered;
  private readonly each: Gathered[] | null;

  constructor(flows: number) {
    this.all = spareAll ?? new Gathered();
    spareAll = null;
    this.each = flows > 1 ? Array.from({ length: flows }, () => new Gathered()) : null;
  }

  /** Once nothing reads the samples any more: the next stream takes over their columns. */
  release(): void {
    this.all.clear();
    spareAll = this.all;
  }

  row(t: number, kind: number, flow: number, bytes: number, value: number): void {
    if (kind === K.depart) {
      this.all.depart(t, value, bytes);
      this.each?.[flow].depart(t, value, bytes);
    } else if (kind === K.deliver) {
      this.all.deliver(value);
      this.each?.[flow].deliver(value);
    } else if (kind === K.drop) {
      this.all.drops++;
      if (this.each) this.each[flow].drops++;
    }
  }

  /** A flow's samples, or all flows' when `flow` is negative (a lone flow's are all flows'). */
  samples(flow: number): Samples {
    return (flow < 0 || !this.each ? this.all : this.each[flow]).samples();
  }
}
