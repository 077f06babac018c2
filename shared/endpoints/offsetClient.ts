import type { RelaySession } from '../bridge/protocol.ts';
import type { Controller, SchemeMode } from '../controllers/types.ts';
import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { md5Hex } from '../offset/md5.ts';
import { encodeDataRequest, encodeSizeRequest, encodeSubmit, MAX_CHUNK, parseReply } from '../offset/protocol.ts';
import { Timer, type Clock } from '../sim/scheduler.ts';
import { ChunkLedger } from './chunkLedger.ts';
import { BurstFetcher, type Fetcher, WindowFetcher } from './fetchers.ts';

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
  /** A fetch through the relay's bridge: the session the relay's servers recorded it as. */
  session?: RelaySession;
}

export interface OffsetClientOptions {
  id: string;
  reset: boolean;
  /** How long to wait for a Size or Result answer before asking again. */
  retryMs: number;
}

/**
 * The largest file a client fetches. The whole file is held in memory and the server's Size is trusted for
 * it: a size beyond what a typed array (or the machine) can hold must end the fetch, not crash it. The
 * course's files are a few megabytes, so 1 GiB leaves room without inviting an allocation that fails.
 */
export const MAX_FETCH_BYTES = 2 ** 30;

/** Submits sent (one each retry) before the client waits no more for a Result. */
const MAX_SUBMITS = 50;

export const DEFAULT_CLIENT: OffsetClientOptions = { id: 'pipefill@sim', reset: true, retryMs: 200 };

/**
 * Fetches the whole file from an offset server, transport-free: it is handed datagrams and a clock,
 * and hands back datagrams to send. It runs the session (Size, the chunks, Submit, Result); a burst or
 * a window fetcher asks for the chunks, both keeping their books in one chunk ledger.
 */
export class OffsetClient {
  private phase: 'idle' | 'size' | 'fetch' | 'submit' | 'done' = 'idle';
  private ledger = new ChunkLedger(0);
  private fetcher: Fetcher | null = null;
  private readonly retry: Timer;
  private startedAt = 0;
  private doneAt = -1;
  private submitAttempts = 0;
  /** Why the fetch cannot go on (a reply it will not act on), or null; the caller ends the fetch with it. */
  failure: string | null = null;
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
    private readonly clock: Clock,
    private readonly log: EventLog,
    private readonly flow: number,
    readonly controller: Controller,
    private readonly mode: SchemeMode,
    private readonly send: (datagram: Uint8Array, now: number) => void,
    private readonly options: OffsetClientOptions = DEFAULT_CLIENT,
    private readonly onDone: (result: OffsetFetchResult) => void = () => {},
  ) {
    this.retry = new Timer(clock, (now) => this.onRetry(now));
  }

  get finished(): boolean {
    return this.phase === 'done';
  }

  /** The file as far as it has arrived. */
  get file(): Uint8Array {
    return this.ledger.data;
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
    this.fetcher?.stop();
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
        // the answer to its last Submit, and no Result: the fetch ends saying why (a relay whose disk is full)
        if (reply.kind === 'error' && this.phase === 'submit' && this.submitAttempts >= MAX_SUBMITS) {
          this.failure = `the server answered each of ${MAX_SUBMITS} Submits with an error, the last: ${reply.message}`;
          this.stop();
        }
        return;
    }
  }

  private beginFetch(size: number, now: number): void {
    if (size > MAX_FETCH_BYTES) {
      this.failure = `the server announced a size of ${size} bytes, more than the ${MAX_FETCH_BYTES} this client holds`;
      return this.stop();
    }
    this.stats.size = size;
    this.ledger = new ChunkLedger(size);
    this.phase = 'fetch';
    if (this.ledger.chunks === 0) return this.submit(now);
    const context = { clock: this.clock, log: this.log, flow: this.flow, controller: this.controller, ledger: this.ledger, request: (c: number, t: number) => this.request(c, t) };
    this.fetcher = this.mode === 'burst' ? new BurstFetcher(context) : new WindowFetcher(context);
    // The server's bucket starts empty when the session does: pace the first request from then too.
    const rate = this.controller.pacingRate();
    this.fetcher.start(now, rate === Infinity ? now : this.startedAt + 1000 / rate);
  }

  private request(chunk: number, now: number): void {
    const offset = chunk * MAX_CHUNK;
    const datagram = encodeDataRequest(offset, Math.min(MAX_CHUNK, this.ledger.size - offset));
    this.ledger.requested(chunk, now);
    this.stats.requests++;
    this.controller.onSend(chunk, now);
    this.log.push(now, K.send, this.flow, offset, datagram.length, this.ledger.inFlight, this.controller.windowSize());
    this.send(datagram, now);
  }

  private onData(offset: number, body: Uint8Array, squished: boolean, now: number): void {
    if (this.phase !== 'fetch' && this.phase !== 'submit' && this.phase !== 'done') return;
    const ledger = this.ledger;
    const chunk = Math.floor(offset / MAX_CHUNK);
    if (offset % MAX_CHUNK !== 0 || chunk >= ledger.chunks || offset + body.length > ledger.size) {
      this.stats.errors.push(`reply for an offset never asked: ${offset}`);
      return;
    }
    if (squished) this.stats.squishedReplies++;
    const rtt = now - ledger.sentTime(chunk);
    if (!ledger.store(chunk, body)) {
      this.stats.duplicates++;
      return;
    }
    const awaited = ledger.release(chunk);
    if (awaited) {
      this.controller.onAck({ seq: chunk, sentAt: ledger.sentTime(chunk), receivedAt: now, now, cumulative: ledger.received, inFlight: ledger.inFlight });
    }
    this.log.push(now, K.reply, this.flow, offset, body.length, rtt, this.controller.windowSize());
    if (ledger.complete) {
      this.fetcher?.stop();
      return this.submit(now);
    }
    if (awaited) this.fetcher?.answered(chunk, now);
  }

  private submit(now: number): void {
    this.doneAt = now;
    this.stats.elapsed = now - this.startedAt;
    this.stats.md5 = md5Hex(this.ledger.data);
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
    } else if (this.phase === 'submit' && this.submitAttempts < MAX_SUBMITS) {
      this.sendSubmit(now);
    }
  }

  get completedAt(): number {
    return this.doneAt;
  }
}
