import type { Controller } from '../controllers/types.ts';
import { K } from '../log/kinds.ts';
import { ackFor, type Packet, type PacketSink } from '../net/packet.ts';
import type { Endpoint } from './context.ts';
import { WindowedSender } from './windowedSender.ts';

export const MSS = 1448;

/**
 * Reliable file transfer over the simulated link: segments of MSS bytes, cumulative ACKs, fast
 * retransmit on the third duplicate ACK, and on a retransmission timeout go-back-N from the first
 * unacknowledged segment.
 */
export class ReliableSender extends WindowedSender {
  private readonly segments: number;
  private una = 0;
  private next = 0;
  private highestSent = -1;
  private dupAcks = 0;
  retransmissions = 0;
  bytesOnWire = 0;

  constructor(
    ep: Endpoint,
    controller: Controller,
    private readonly file: Uint8Array,
    private readonly headerBytes: number,
  ) {
    super(ep, controller);
    this.segments = Math.ceil(file.length / MSS);
  }

  protected begin(now: number): void {
    if (this.segments === 0) return this.finish(now);
    super.begin(now);
  }

  protected hasData(): boolean {
    return this.next < this.segments;
  }

  protected inFlight(): number {
    return this.next - this.una;
  }

  protected sendNext(now: number): void {
    this.transmit(this.next++, now);
  }

  private transmit(segment: number, now: number): void {
    const payload = this.file.subarray(segment * MSS, Math.min(this.file.length, (segment + 1) * MSS));
    const packet: Packet = {
      flow: this.ep.flow,
      seq: segment,
      bytes: payload.length + this.headerBytes,
      isAck: false,
      sentAt: now,
      receivedAt: 0,
      ack: 0,
      payload,
      retransmit: segment <= this.highestSent,
      ecn: this.ect,
    };
    if (packet.retransmit) this.retransmissions++;
    else this.highestSent = segment;
    this.bytesOnWire += packet.bytes;
    this.controller.onSend(segment, now);
    this.logSend(packet, now);
    this.ep.out.receive(packet, now);
  }

  receive(ack: Packet, now: number): void {
    if (this.finishedAt >= 0) return;
    const cumulative = ack.ack;
    const progress = cumulative > this.una;
    if (progress) {
      this.una = cumulative;
      this.dupAcks = 0;
      if (this.next < this.una) this.next = this.una;
    } else if (cumulative === this.una && this.inFlight() > 0) {
      this.dupAcks++;
    }
    this.acked(ack, now, cumulative);
    this.logAck(K.ack, cumulative, now - ack.sentAt, ack.bytes, now);
    if (this.una >= this.segments) return this.finish(now);
    if (this.dupAcks === 3) {
      this.lossDetected(now, this.una);
      this.transmit(this.una, now);
    }
    if (progress || this.dupAcks === 3) this.timer.set(now + this.controller.timeoutMs());
    this.pump(now);
  }

  protected onTimer(now: number): void {
    this.controller.onTimeout(now);
    this.logTimeout(now);
    this.next = this.una;
    this.dupAcks = 0;
    this.sendNext(now);
    this.timer.set(now + this.controller.timeoutMs());
  }
}

/**
 * Takes the file's segments in any order, answering each with a cumulative ACK, and checks each segment
 * against the file the first time it comes: the file arrives exactly when every segment came and each
 * matched. It keeps no copy of what it received (255 flows of 10 MB files would hold gigabytes).
 */
export class ReliableReceiver implements PacketSink {
  private readonly have: Uint8Array;
  private expected = 0;
  private mismatched = false;
  duplicates = 0;

  constructor(
    private readonly ep: Endpoint,
    private readonly file: Uint8Array,
  ) {
    this.have = new Uint8Array(Math.ceil(file.length / MSS));
  }

  receive(packet: Packet, now: number): void {
    this.ep.log.push(now, K.deliver, this.ep.flow, packet.seq, packet.bytes, now - packet.sentAt, 0);
    const s = packet.seq;
    if (s < this.have.length && packet.payload) {
      if (this.have[s]) this.duplicates++;
      else {
        if (!sameBytes(packet.payload, this.file, s * MSS)) this.mismatched = true;
        this.have[s] = 1;
        while (this.expected < this.have.length && this.have[this.expected]) this.expected++;
      }
    }
    this.ep.out.receive(ackFor(packet, now, this.expected), now);
  }

  get complete(): boolean {
    return this.expected === this.have.length;
  }

  /** Every segment came, each as the file has it. */
  get exact(): boolean {
    return this.complete && !this.mismatched;
  }
}

/** Whether `segment` is the file's bytes from `offset`, to the file's end or the segment's. */
function sameBytes(segment: Uint8Array, file: Uint8Array, offset: number): boolean {
  if (segment.length !== Math.min(MSS, file.length - offset)) return false;
  for (let i = 0; i < segment.length; i++) if (segment[i] !== file[offset + i]) return false;
  return true;
}
