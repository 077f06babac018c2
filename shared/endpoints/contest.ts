import { K } from '../log/kinds.ts';
import { intoAck, PacketRecycler, type Packet, type PacketSink } from '../net/packet.ts';
import type { Controller } from '../controllers/types.ts';
import type { Endpoint } from './context.ts';
import { WindowedSender } from './windowedSender.ts';

/**
 * The contest skeleton's sender: numbers packets, keeps `seq − next ACK expected < window`, and when no
 * ACK has come for the controller's timeout sends one packet to get things moving again.
 */
export class ContestSender extends WindowedSender {
  private seq = 0;
  private nextAck = 0;
  private readonly losses = new GapDetector();
  private readonly packets = new PacketRecycler();

  constructor(
    ep: Endpoint,
    controller: Controller,
    private readonly packetBytes: number,
    private readonly limit = Infinity,
  ) {
    super(ep, controller);
  }

  protected hasData(): boolean {
    return this.seq < this.limit;
  }

  protected inFlight(): number {
    return this.seq - this.nextAck;
  }

  protected sendNext(now: number): void {
    const packet = this.packets.data(this.ep.flow, this.seq++, now, this.packetBytes, this.ect);
    this.controller.onSend(packet.seq, now);
    this.logSend(packet, now);
    this.ep.out.receive(packet, now);
  }

  receive(ack: Packet, now: number): void {
    if (this.nextAck <= ack.seq) this.nextAck = ack.seq + 1;
    this.acked(ack, now, this.nextAck);
    const lost = this.losses.acked(ack.seq);
    if (lost >= 0) this.lostFrom(lost, now);
    this.logAck(K.ack, ack.seq, now - ack.sentAt, ack.bytes, now);
    this.packets.release(ack);
    if (this.nextAck >= this.limit) return this.finish(now);
    this.timer.set(now + this.controller.timeoutMs());
    this.pump(now);
  }

  /** The packets an ACK showed lost, `first` and any after it. */
  private lostFrom(first: number, now: number): void {
    for (let lost = first; lost >= 0; lost = this.losses.nextLoss()) this.lossDetected(now, lost);
  }

  protected onTimer(now: number): void {
    this.controller.onTimeout(now);
    this.logTimeout(now);
    if (this.hasData()) this.sendNext(now);
    this.timer.set(now + this.controller.timeoutMs());
  }
}

/**
 * Infers losses as a sender whose receiver ACKs every packet can: a packet is lost once three packets
 * sent after it have been ACKed. Keeps one flag per packet above the lowest unresolved one.
 */
export class GapDetector {
  /** Ring of ACK flags; slot `head` is the packet `low`. */
  private acks = new Uint8Array(1024);
  private head = 0;
  /** Lowest sequence number neither ACKed nor declared lost. */
  private low = 0;
  /** How many ACKed packets lie above `low`. */
  private above = 0;

  /** Records an ACK and returns the first packet it shows lost, or -1. */
  acked(seq: number): number {
    if (seq !== this.low || this.above !== 0) return this.outOfOrder(seq);
    // in order with nothing pending: the common case, one step
    this.head = (this.head + 1) & (this.acks.length - 1);
    this.low++;
    return -1;
  }

  private outOfOrder(seq: number): number {
    if (seq < this.low) return -1;
    const ahead = seq - this.low;
    if (ahead >= this.acks.length) this.grow(ahead);
    const i = (this.head + ahead) & (this.acks.length - 1);
    if (this.acks[i]) return -1;
    this.acks[i] = 1;
    this.above++;
    this.settle();
    return this.nextLoss();
  }

  /** The next packet already shown lost, or -1. */
  nextLoss(): number {
    if (this.above < 3) return -1;
    const lost = this.low;
    this.advance();
    this.settle();
    return lost;
  }

  /** Moves `low` past packets already ACKed. */
  private settle(): void {
    while (this.acks[this.head] === 1) {
      this.above--;
      this.advance();
    }
  }

  private advance(): void {
    this.acks[this.head] = 0;
    this.head = (this.head + 1) & (this.acks.length - 1);
    this.low++;
  }

  private grow(ahead: number): void {
    const n = this.acks.length;
    let size = n;
    while (size <= ahead) size *= 2;
    const next = new Uint8Array(size);
    for (let k = 0; k < n; k++) next[k] = this.acks[(this.head + k) & (n - 1)];
    this.acks = next;
    this.head = 0;
  }
}

/** The contest receiver: acknowledges every packet, echoing its send time with its own receive time. */
export class AckingReceiver implements PacketSink {
  constructor(private readonly ep: Endpoint) {}

  receive(packet: Packet, now: number): void {
    this.ep.log.push(now, K.deliver, this.ep.flow, packet.seq, packet.bytes, now - packet.sentAt, 0);
    this.ep.out.receive(intoAck(packet, now), now);
  }
}
