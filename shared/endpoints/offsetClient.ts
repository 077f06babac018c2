import type { Controller, SchemeMode } from '../controllers/types.ts';
import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { md5Hex } from '../offset/md5.ts';
import { encodeDataRequest, encodeSizeRequest, encodeSubmit, MAX_CHUNK, parseReply } from '../offset/protocol.ts';
import { Timer, type Clock } from '../sim/scheduler.ts';

export interface OffsetFetchResult {
  size: number;
  md5: string;
  /** The server's verdict, or null if no Result came back. */
  result: boolean | null;
  /** The server's Time (ms) and Penalty. */
  serverTime: number;
  penalty: number;
  /** Client-side: first request to all chunks in, ms. */
  elapsed: number;
  requests: number;
  duplicates: number;
  squishedReplies: number;
  errors: string[];
}

export interface OffsetClientOptions {
  id: string;
  reset: boolean;
  /** How long to wait for a Size or Result answer before asking again. */
  retryMs: number;
}

export const DEFAULT_CLIENT: OffsetClientOptions = { id: 'pipefill@sim', reset: true, retryMs: 200 };

/**
 * Fetches the whole file from an offset server, transport-free: it is handed datagrams and a clock,
 * and hands back datagrams to send. In burst mode each round asks for `burstSize()` missing chunks, then
 * waits the controller's timeout before the next round, as the course's clients do; in window mode requests stay within the window, paced by
 * the controller, and each one not answered within the timeout is asked again.
 */
export class OffsetClient {
  private phase: 'idle' | 'size' | 'fetch' | 'submit' | 'done' = 'idle';
  private size = 0;
  private chunks = 0;
  private data = new Uint8Array(0);
  private have = new Uint8Array(0);
  private outstanding = new Uint8Array(0);
  private sentAt = new Float64Array(0);
  private received = 0;
  private inFlight = 0;
  private cursor = 0;
  private readonly retry: Timer;
  private readonly roundTimer: Timer;
  private readonly paceTimer: Timer;
  private nextSendAt = 0;
  private round: number[] = [];
  private roundStart = 0;
  private roundPending = 0;
  private readonly expiry: { chunk: number; at: number }[] = [];
  private expiryHead = 0;
  private startedAt = 0;
  private doneAt = -1;
  private submitAttempts = 0;
  readonly stats: OffsetFetchResult = {
    size: 0,
    md5: '',
    result: null,
    serverTime: NaN,
    penalty: NaN,
    elapsed: NaN,
    requests: 0,
    duplicates: 0,
    squishedReplies: 0,
    errors: [],
  };

  constructor(
    clock: Clock,
    private readonly log: EventLog,
    private readonly flow: number,
    readonly controller: Controller,
    private readonly mode: SchemeMode,
    private readonly send: (datagram: Uint8Array, now: number) => void,
    private readonly options: OffsetClientOptions = DEFAULT_CLIENT,
    private readonly onDone: (result: OffsetFetchResult) => void = () => {},
  ) {
    this.retry = new Timer(clock, (now) => this.onRetry(now));
    this.roundTimer = new Timer(clock, (now) => (this.mode === 'burst' ? this.endRound(now, this.roundPending === 0) : this.expire(now)));
    this.paceTimer = new Timer(clock, (now) => this.advance(now));
  }

  get finished(): boolean {
    return this.phase === 'done';
  }

  /** The file as far as it has arrived. */
  get file(): Uint8Array {
    return this.data;
  }

  start(now: number): void {
    this.startedAt = now;
    this.phase = 'size';
    this.send(encodeSizeRequest(this.options.reset), now);
    this.retry.set(now + this.options.retryMs);
  }

  /** Gives up: stops every timer (for a live run the user cancels). */
  stop(): void {
    this.phase = 'done';
    this.retry.cancel();
    this.roundTimer.cancel();
    this.paceTimer.cancel();
  }

  receive(datagram: Uint8Array, now: number): void {
    const reply = parseReply(datagram);
    switch (reply.kind) {
      case 'size':
        if (this.phase !== 'size') return;
        this.retry.cancel();
        this.beginFetch(reply.size, now);
        return;
      case 'data':
        return this.onData(reply.offset, reply.body, reply.squished, now);
      case 'result':
        if (this.phase !== 'submit') return;
        this.stats.result = reply.result;
        this.stats.serverTime = reply.time;
        this.stats.penalty = reply.penalty;
        this.phase = 'done';
        this.retry.cancel();
        this.log.push(now, K.done, this.flow, reply.result ? 1 : 0, 0, reply.time, reply.penalty);
        this.onDone(this.stats);
        return;
      case 'error':
      case 'invalid':
        this.stats.errors.push(reply.kind === 'error' ? reply.message : `invalid reply: ${reply.why}`);
        return;
    }
  }

  private beginFetch(size: number, now: number): void {
    this.size = this.stats.size = size;
    this.chunks = Math.ceil(size / MAX_CHUNK);
    this.data = new Uint8Array(size);
    this.have = new Uint8Array(this.chunks);
    this.outstanding = new Uint8Array(this.chunks);
    this.sentAt = new Float64Array(this.chunks);
    this.phase = 'fetch';
    // The server's bucket starts empty when the session does: pace the first request from then too.
    const rate = this.controller.pacingRate();
    this.nextSendAt = rate === Infinity ? now : this.startedAt + 1000 / rate;
    if (this.chunks === 0) return this.submit(now);
    this.advance(now);
  }

  private advance(now: number): void {
    if (this.phase !== 'fetch') return;
    if (this.mode === 'burst') {
      if (this.roundPending === 0 && this.round.length === 0) this.startRound(now);
    } else this.pump(now);
  }

  private request(chunk: number, now: number): void {
    const offset = chunk * MAX_CHUNK;
    const datagram = encodeDataRequest(offset, Math.min(MAX_CHUNK, this.size - offset));
    this.outstanding[chunk] = 1;
    this.inFlight++;
    this.sentAt[chunk] = now;
    this.stats.requests++;
    this.controller.onSend(chunk, now);
    this.log.push(now, K.send, this.flow, offset, datagram.length, this.inFlight, this.controller.windowSize());
    this.send(datagram, now);
  }

  /** The next chunk neither received nor awaited, or -1. */
  private nextMissing(): number {
    for (let k = 0; k < this.chunks; k++) {
      const c = (this.cursor + k) % this.chunks;
      if (!this.have[c] && !this.outstanding[c]) {
        this.cursor = (c + 1) % this.chunks;
        return c;
      }
    }
    return -1;
  }

  private paced(now: number): boolean {
    const rate = this.controller.pacingRate();
    if (rate === Infinity) return false;
    if (now < this.nextSendAt) {
      this.paceTimer.set(this.nextSendAt);
      return true;
    }
    this.nextSendAt = Math.max(now, this.nextSendAt) + 1000 / rate;
    return false;
  }

  // --- burst mode ---

  private startRound(now: number): void {
    const n = this.controller.burstSize();
    this.round = [];
    for (let i = 0; i < n; i++) {
      const c = this.nextMissing();
      if (c < 0) break;
      this.round.push(c);
      this.request(c, now);
    }
    this.roundStart = now;
    this.roundPending = this.round.length;
    if (this.roundPending > 0) this.roundTimer.set(now + this.controller.timeoutMs());
  }

  private endRound(now: number, complete: boolean): void {
    if (!complete) this.controller.onLoss(now, this.round[0]);
    for (const c of this.round) {
      if (this.outstanding[c]) {
        this.outstanding[c] = 0;
        this.inFlight--;
      }
    }
    this.roundTimer.cancel();
    const size = this.round.length;
    this.round = [];
    this.roundPending = 0;
    const rate = this.controller.pacingRate();
    const next = rate === Infinity ? now : Math.max(now, this.roundStart + (size * 1000) / rate);
    if (next > now) this.paceTimer.set(next);
    else this.advance(now);
  }

  // --- window mode ---

  private pump(now: number): void {
    while (this.inFlight < this.controller.windowSize()) {
      if (this.paced(now)) return;
      const c = this.nextMissing();
      if (c < 0) return;
      this.request(c, now);
      this.expiry.push({ chunk: c, at: now });
      if (!this.roundTimer.armed) this.roundTimer.set(now + this.controller.timeoutMs());
    }
  }

  /** Requests unanswered for the controller's timeout are lost: free them to be asked again. */
  private expire(now: number): void {
    const timeout = this.controller.timeoutMs();
    let lost = false;
    while (this.expiryHead < this.expiry.length) {
      const e = this.expiry[this.expiryHead];
      if (e.at + timeout > now) break;
      this.expiryHead++;
      if (this.outstanding[e.chunk] && this.sentAt[e.chunk] === e.at) {
        this.outstanding[e.chunk] = 0;
        this.inFlight--;
        lost = true;
      }
    }
    if (this.expiryHead > 1024) {
      this.expiry.splice(0, this.expiryHead);
      this.expiryHead = 0;
    }
    if (lost) {
      this.controller.onLoss(now, -1);
      this.log.push(now, K.timeout, this.flow, -1, 0, timeout, this.controller.windowSize());
    }
    if (this.expiryHead < this.expiry.length) this.roundTimer.set(this.expiry[this.expiryHead].at + timeout);
    this.pump(now);
  }

  // --- both ---

  private onData(offset: number, body: Uint8Array, squished: boolean, now: number): void {
    if (this.phase !== 'fetch' && this.phase !== 'submit' && this.phase !== 'done') return;
    const chunk = Math.floor(offset / MAX_CHUNK);
    if (offset % MAX_CHUNK !== 0 || chunk >= this.chunks || offset + body.length > this.size) {
      this.stats.errors.push(`reply for an offset never asked: ${offset}`);
      return;
    }
    if (squished) this.stats.squishedReplies++;
    const rtt = now - this.sentAt[chunk];
    if (this.have[chunk]) {
      this.stats.duplicates++;
      return;
    }
    this.have[chunk] = 1;
    this.data.set(body, offset);
    this.received++;
    const awaited = this.outstanding[chunk] === 1;
    if (awaited) {
      this.outstanding[chunk] = 0;
      this.inFlight--;
      this.controller.onAck({ seq: chunk, sentAt: this.sentAt[chunk], receivedAt: now, now, cumulative: this.received, inFlight: this.inFlight });
    }
    this.log.push(now, K.reply, this.flow, offset, body.length, rtt, this.controller.windowSize());
    if (this.received === this.chunks) {
      this.roundTimer.cancel();
      this.paceTimer.cancel();
      this.round = [];
      this.roundPending = 0;
      return this.submit(now);
    }
    if (this.mode === 'burst') {
      // the course's clients wait out the round's timeout even when every reply is in
      if (awaited && this.round.includes(chunk)) this.roundPending--;
    } else this.pump(now);
  }

  private submit(now: number): void {
    this.doneAt = now;
    this.stats.elapsed = now - this.startedAt;
    this.stats.md5 = md5Hex(this.data);
    this.phase = 'submit';
    this.sendSubmit(now);
  }

  private sendSubmit(now: number): void {
    this.submitAttempts++;
    this.send(encodeSubmit(this.options.id, this.stats.md5), now);
    this.retry.set(now + this.options.retryMs);
  }

  private onRetry(now: number): void {
    if (this.phase === 'size') {
      this.send(encodeSizeRequest(this.options.reset), now);
      this.retry.set(now + this.options.retryMs);
    } else if (this.phase === 'submit' && this.submitAttempts < 50) {
      this.sendSubmit(now);
    }
  }

  get completedAt(): number {
    return this.doneAt;
  }
}
