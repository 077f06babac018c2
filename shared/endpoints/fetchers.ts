import { type Controller, wholePackets } from '../controllers/types.ts';
import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { type Clock, Timer } from '../sim/scheduler.ts';
import type { ChunkLedger } from './chunkLedger.ts';
import { Pacer } from './pacer.ts';

/** How a fetcher reaches the network and the log. */
export interface FetchContext {
  clock: Clock;
  log: EventLog;
  flow: number;
  controller: Controller;
  ledger: ChunkLedger;
  /** Sends the request for one chunk (and counts and logs it). */
  request(chunk: number, now: number): void;
}

/** Asks for the chunks of a file under one of the course's two disciplines. */
export interface Fetcher {
  start(now: number, firstSendAt: number): void;
  /** A reply for an awaited chunk arrived (after the controller heard of it). */
  answered(chunk: number, now: number): void;
  stop(): void;
}

/**
 * The course's burst clients: each round asks for `burstSize()` missing chunks, then waits the
 * controller's timeout before the next round, even when every reply is in; the controller hears of a
 * round with a missing reply as a loss. Bursts and windows are whole packets, as the skeleton sends them.
 */
export class BurstFetcher implements Fetcher {
  private round: number[] = [];
  private roundStart = 0;
  private pending = 0;
  private readonly roundTimer: Timer;
  private readonly pacer: Pacer;

  constructor(private readonly x: FetchContext) {
    this.roundTimer = new Timer(x.clock, (now) => this.endRound(now));
    this.pacer = new Pacer(new Timer(x.clock, (now) => this.startRound(now)));
  }

  start(now: number, _firstSendAt: number): void {
    this.startRound(now);
  }

  private startRound(now: number): void {
    const n = wholePackets(this.x.controller.burstSize());
    this.round = [];
    for (let i = 0; i < n; i++) {
      const c = this.x.ledger.nextMissing();
      if (c < 0) break;
      this.round.push(c);
      this.x.request(c, now);
    }
    this.roundStart = now;
    this.pending = this.round.length;
    if (this.pending > 0) this.roundTimer.set(now + this.x.controller.timeoutMs());
  }

  answered(chunk: number, _now: number): void {
    if (this.round.includes(chunk)) this.pending--;
  }

  private endRound(now: number): void {
    if (this.pending > 0) this.x.controller.onLoss(now, this.round[0]);
    for (const c of this.round) this.x.ledger.release(c);
    const size = this.round.length;
    this.round = [];
    this.pending = 0;
    // a constant-rate client keeps its rounds a gap apart however fast the replies came
    if (!this.pacer.holdRound(now, this.roundStart, size, this.x.controller.pacingRate())) this.startRound(now);
  }

  stop(): void {
    this.roundTimer.cancel();
    this.pacer.cancel();
  }
}

/**
 * Requests within the controller's window, paced by it; each one unanswered for the controller's
 * timeout counts as lost and is asked again.
 */
export class WindowFetcher implements Fetcher {
  private readonly expiry: { chunk: number; at: number }[] = [];
  private expiryHead = 0;
  private readonly expiryTimer: Timer;
  private readonly pacer: Pacer;

  constructor(private readonly x: FetchContext) {
    this.expiryTimer = new Timer(x.clock, (now) => this.expire(now));
    this.pacer = new Pacer(new Timer(x.clock, (now) => this.pump(now)));
  }

  start(now: number, firstSendAt: number): void {
    this.pacer.startAt(firstSendAt);
    this.pump(now);
  }

  answered(_chunk: number, now: number): void {
    this.pump(now);
  }

  private pump(now: number): void {
    const { controller, ledger } = this.x;
    while (ledger.inFlight < wholePackets(controller.windowSize())) {
      if (this.pacer.hold(now, controller.pacingRate())) return;
      const c = ledger.nextMissing();
      if (c < 0) return;
      this.x.request(c, now);
      this.expiry.push({ chunk: c, at: now });
      if (!this.expiryTimer.armed) this.expiryTimer.set(now + controller.timeoutMs());
    }
  }

  /** Requests unanswered for the controller's timeout are lost: free them to be asked again. */
  private expire(now: number): void {
    const { controller, ledger } = this.x;
    const timeout = controller.timeoutMs();
    let lost = false;
    while (this.expiryHead < this.expiry.length) {
      const e = this.expiry[this.expiryHead];
      if (e.at + timeout > now) break;
      this.expiryHead++;
      if (ledger.awaited(e.chunk) && ledger.sentTime(e.chunk) === e.at) {
        ledger.release(e.chunk);
        lost = true;
      }
    }
    if (this.expiryHead > 1024) {
      this.expiry.splice(0, this.expiryHead);
      this.expiryHead = 0;
    }
    if (lost) {
      controller.onLoss(now, -1);
      this.x.log.push(now, K.timeout, this.x.flow, -1, 0, timeout, controller.windowSize());
    }
    if (this.expiryHead < this.expiry.length) this.expiryTimer.set(this.expiry[this.expiryHead].at + timeout);
    this.pump(now);
  }

  stop(): void {
    this.expiryTimer.cancel();
    this.pacer.cancel();
  }
}
