import { type Ack, type Controller, wholePackets } from '../controllers/types.ts';
import { ESTIMATE, ESTIMATES, K } from '../log/kinds.ts';
import { ECN, type Packet, type PacketSink } from '../net/packet.ts';
import { Timer } from '../sim/scheduler.ts';
import type { Endpoint } from './context.ts';
import { Pacer } from './pacer.ts';

/** The codepoint a controller's data carry: its ECN capability on a link with ECN on, else Not-ECT. */
export function ectFor(controller: Controller, linkEcn: boolean | undefined): number {
  if (!linkEcn || controller.ecn === undefined) return ECN.notEct;
  return controller.ecn === 'ect1' ? ECN.ect1 : ECN.ect0;
}

/**
 * What every window-driven sender shares: it sends while the controller's window is open, spaced by
 * the controller's pacing rate, keeps one timer, and records sends, ACKs and the controller's estimates.
 */
export abstract class WindowedSender implements PacketSink {
  protected readonly timer: Timer;
  private readonly pacer: Pacer;
  private readonly lastEstimates = new Float64Array(ESTIMATES.length).fill(NaN);
  private noEstimates: object | null = null;
  protected startedAt = -1;
  finishedAt = -1;
  private readonly ack: Ack = { seq: 0, sentAt: 0, receivedAt: 0, now: 0, cumulative: 0, inFlight: 0, ce: false };
  /** The ECN codepoint its data carry (see ectFor): Not-ECT unless the link has ECN on and the controller asks. */
  ect: number = ECN.notEct;

  constructor(
    protected readonly ep: Endpoint,
    readonly controller: Controller,
  ) {
    this.timer = new Timer(ep.scheduler, (now) => this.onTimer(now));
    this.pacer = new Pacer(new Timer(ep.scheduler, (now) => this.pump(now)));
  }

  start(at: number): void {
    this.ep.scheduler.at(at, (now) => {
      this.startedAt = now;
      this.begin(now);
    });
  }

  protected begin(now: number): void {
    this.pump(now);
    this.timer.set(now + this.controller.timeoutMs());
  }

  abstract receive(packet: Packet, now: number): void;
  protected abstract hasData(): boolean;
  protected abstract inFlight(): number;
  protected abstract sendNext(now: number): void;
  protected abstract onTimer(now: number): void;

  /** The skeleton's window: the controller's, truncated to whole packets, at least one. */
  protected window(): number {
    return wholePackets(this.controller.windowSize());
  }

  /** Sends while the window is open, respecting the pacing rate. */
  protected pump(now: number): void {
    const c = this.controller;
    while (this.hasData() && this.inFlight() < this.window()) {
      if (this.pacer.hold(now, c.pacingRate())) return;
      this.sendNext(now);
    }
  }

  /** Tells the controller about an ACK. */
  protected acked(packet: Packet, now: number, cumulative: number): void {
    const a = this.ack;
    a.seq = packet.seq;
    a.sentAt = packet.sentAt;
    a.receivedAt = packet.receivedAt;
    a.now = now;
    a.cumulative = cumulative;
    a.inFlight = this.inFlight();
    a.ce = packet.ecn === ECN.ce;
    this.controller.onAck(a);
  }

  /** Tells the controller of a loss inferred from ACKs, and records it so the charts can mark it. */
  protected lossDetected(now: number, seq: number): void {
    this.controller.onLoss(now, seq);
    this.ep.log.push(now, K.loss, this.ep.flow, seq, 0, this.inFlight(), this.controller.windowSize());
  }

  protected logSend(packet: Packet, now: number): void {
    this.ep.log.push(now, packet.retransmit ? K.retransmit : K.send, this.ep.flow, packet.seq, packet.bytes, this.inFlight(), this.controller.windowSize());
  }

  protected logAck(kind: number, seq: number, rtt: number, bytes: number, now: number): void {
    this.ep.log.push(now, kind, this.ep.flow, seq, bytes, rtt, this.controller.windowSize());
    const e = this.controller.estimates();
    // a scheme with nothing to draw is passed by here, every ACK: the rest stays out of line
    if (e !== this.noEstimates) this.logEstimates(e, now);
  }

  protected logTimeout(now: number): void {
    this.ep.log.push(now, K.timeout, this.ep.flow, -1, 0, this.controller.timeoutMs(), this.controller.windowSize());
  }

  /** Records an estimate when it moved by more than 1%, so charts get lines without a row per ACK. */
  private logEstimates(e: ReturnType<Controller['estimates']>, now: number): void {
    let any = false;
    for (const name in e) {
      any = true;
      const v = e[name as keyof typeof e]!;
      const id = ESTIMATE[name as keyof typeof ESTIMATE];
      const prev = this.lastEstimates[id];
      if (Number.isFinite(v) && !(Math.abs(v - prev) <= Math.abs(prev) * 0.01)) {
        this.lastEstimates[id] = v;
        this.ep.log.push(now, K.estimate, this.ep.flow, id, 0, v, this.controller.windowSize());
      }
    }
    // A scheme with nothing to draw hands back the same frozen empty object: skip it from then on.
    if (!any && Object.isFrozen(e)) this.noEstimates = e;
  }

  protected finish(now: number): void {
    this.finishedAt = now;
    this.timer.cancel();
    this.ep.log.push(now, K.done, this.ep.flow, -1, 0, now - this.startedAt, this.controller.windowSize());
  }
}
