import { K } from '../log/kinds.ts';
import { dataPacket, intoAck, type Packet, type PacketSink } from '../net/packet.ts';
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

  constructor(ep: Endpoint, controller: Controller, private readonly packetBytes: number, private readonly limit = Infinity) {
    super(ep, controller);
  }

  protected hasData(): boolean {
    return this.seq < this.limit;
  }

  protected inFlight(): number {
    return this.seq - this.nextAck;
  }

  protected sendNext(now: number): void {
    const packet = dataPacket(this.ep.flow, this.seq++, now, this.packetBytes);
    this.controller.onSend(packet.seq, now);
    this.logSend(packet, now);
    this.ep.out.receive(packet, now);
  }

  receive(ack: Packet, now: number): void {
    if (this.nextAck <= ack.seq) this.nextAck = ack.seq + 1;
    this.acked(ack, now, this.nextAck);
    this.logAck(K.ack, ack.seq, now - ack.sentAt, ack.bytes, now);
    if (this.nextAck >= this.limit) return this.finish(now);
    this.timer.set(now + this.controller.timeoutMs());
    this.pump(now);
  }

  protected onTimer(now: number): void {
    this.controller.onTimeout(now);
    this.logTimeout(now);
    if (this.hasData()) this.sendNext(now);
    this.timer.set(now + this.controller.timeoutMs());
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
