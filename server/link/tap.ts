import { EventLog } from '../../shared/log/eventLog.ts';
import { DROP, K } from '../../shared/log/kinds.ts';

/** What one direction of the proxy saw. Bytes are on the wire: payload plus IPv4 and UDP headers. */
export interface DirectionStats {
  datagrams: number;
  bytes: number;
  delivered: number;
  deliveredBytes: number;
  /** Refused by the drop-tail queue. */
  queueDrops: number;
  /** Lost by the i.i.d. or the burst-loss model. */
  lossDrops: number;
  duplicated: number;
  /** Refused because the proxy already held its limit of bytes. */
  overflow: number;
  firstDelivery: number;
  lastDelivery: number;
}

export const newStats = (): DirectionStats => ({
  datagrams: 0,
  bytes: 0,
  delivered: 0,
  deliveredBytes: 0,
  queueDrops: 0,
  lossDrops: 0,
  duplicated: 0,
  overflow: 0,
  firstDelivery: NaN,
  lastDelivery: NaN,
});

/** Throughput as the SPEC defines it: bits delivered ÷ (last − first delivery time), Mbit/s. */
export function deliveredMbps(s: DirectionStats): number {
  const span = s.lastDelivery - s.firstDelivery;
  return span > 0 ? (s.deliveredBytes * 8) / span / 1000 : NaN;
}

/**
 * The run's event log as the model writes it, read on the way in: drops and duplicates are counted per
 * direction and change what the proxy holds, and rows are kept only up to `limit` (0 keeps none), so a
 * proxy left running never grows without bound.
 */
export class CountingLog extends EventLog {
  readonly forward = newStats();
  readonly reverse = newStats();
  /** Wire bytes of the packets inside the link (queued, in service or propagating). */
  held = 0;
  /** Rows not kept because the limit was reached. */
  unrecorded = 0;
  private inPush = false;

  constructor(private readonly limit: number) {
    super(Math.min(limit, 4096));
  }

  override push(t: number, kind: number, flow: number, seq: number, bytes: number, value: number, window: number): void {
    // EventLog.push calls itself once after growing: that call only stores the row.
    if (this.inPush) return super.push(t, kind, flow, seq, bytes, value, window);
    this.observe(kind, bytes, value);
    if (this.length >= this.limit) {
      this.unrecorded++;
      return;
    }
    this.inPush = true;
    super.push(t, kind, flow, seq, bytes, value, window);
    this.inPush = false;
  }

  private observe(kind: number, bytes: number, value: number): void {
    if (kind === K.drop) {
      this.held -= bytes;
      if (value === DROP.queue) this.forward.queueDrops++;
      else if (value === DROP.loss || value === DROP['burst-loss']) this.forward.lossDrops++;
      else if (value === DROP['ack-queue']) this.reverse.queueDrops++;
      else if (value === DROP['ack-loss']) this.reverse.lossDrops++;
    } else if (kind === K.duplicate) {
      this.held += bytes;
      (value === 1 ? this.reverse : this.forward).duplicated++;
    }
  }
}
