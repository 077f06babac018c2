import type { ParamValues, Scheme } from '../shared/controllers/types.ts';
import { EventLog } from '../shared/log/eventLog.ts';
import { K } from '../shared/log/kinds.ts';
import { MAX_CHUNK, parseReply } from '../shared/offset/protocol.ts';
import type { Clock } from '../shared/sim/scheduler.ts';
import { DEFAULT_CLIENT, OffsetClient, type OffsetFetchResult } from '../shared/endpoints/offsetClient.ts';

/** A way to reach a real offset server: a UDP socket, or a session through the relay's bridge. */
export interface DatagramTransport {
  /** Sends a datagram the controller sent at `at` on the fetch's clock (a relay keeps that time). */
  send(datagram: Uint8Array, at: number): void;
  /**
   * Registers the receiver of datagrams and of fatal failures. A datagram may come with its arrival time on
   * the fetch's clock (a relay's stamp); without one it arrived now.
   */
  listen(onDatagram: (d: Uint8Array, arrivedAt?: number) => void, onFailure: (message: string) => void): void;
  close(): void;
  /** Settles when the path is ready to carry the fetch (a bridge session waits for a quiet hop); fails with why not. */
  ready?: Promise<void>;
}

export interface LiveFetchOptions {
  scheme: Scheme;
  params: ParamValues;
  id: string;
  giveUpMs: number;
  /** The log to record into; the caller may read it while the fetch runs (live charts). */
  log?: EventLog;
}

export interface FetchOutcome {
  result: OffsetFetchResult;
  log: EventLog;
  chunks: number;
}

/** A fetch that ended without the server's Result: why, and what it had got by then. */
export class FetchStopped extends Error {
  constructor(
    message: string,
    readonly outcome: FetchOutcome,
  ) {
    super(message);
  }
}

/** Runs one fetch with a controller of the model over a real transport, on a real clock. */
export function liveFetch(transport: DatagramTransport, clock: Clock & { stop(): void }, o: LiveFetchOptions): { done: Promise<FetchOutcome>; cancel(): void } {
  const log = o.log ?? new EventLog();
  let cancel = () => {};
  const done = new Promise<FetchOutcome>((resolve, reject) => {
    let finished = false;
    const finish = (error?: string) => {
      if (finished) return;
      finished = true;
      clock.stop();
      client.stop();
      transport.close();
      const outcome = { result: client.stats, log, chunks: Math.ceil(client.stats.size / MAX_CHUNK) };
      if (error) reject(new FetchStopped(error, outcome));
      else resolve(outcome);
    };
    const client: OffsetClient = new OffsetClient(
      clock,
      log,
      0,
      o.scheme.create(o.params),
      o.scheme.mode,
      (d, now) => transport.send(d, now),
      { ...DEFAULT_CLIENT, id: o.id },
      () => finish(),
    );
    const squish = squishWatch(log);
    transport.listen(
      (d, arrivedAt) => {
        const at = arrivedAt ?? clock.now;
        squish(d, at);
        client.receive(d, at);
        if (client.failure) return finish(client.failure);
        if (client.finished && client.stats.result !== null) log.push(at, K.penalty, 0, -1, 0, client.stats.penalty, 0);
      },
      (message) => finish(message),
    );
    clock.at(clock.now + o.giveUpMs, () => finish(giveUpMessage(o.giveUpMs, client.stats.errors)));
    cancel = () => finish('cancelled');
    if (!transport.ready) return client.start(clock.now);
    transport.ready.then(
      () => finished || client.start(clock.now),
      (e: Error) => finish(e.message),
    );
  });
  return { done, cancel };
}

/** Why a fetch gave up; the server's last error says more (a Submit it refused) than the time alone. */
function giveUpMessage(giveUpMs: number, errors: readonly string[]): string {
  const last = errors.at(-1);
  return `gave up after ${giveUpMs} ms without the whole file${last === undefined ? '' : `; the server's last error: ${last}`}`;
}

/**
 * The squish as the client can see it: on with the first reply carrying `Squished`, off with the first
 * that does not — the rows a simulated run's server writes, read from the replies instead.
 */
function squishWatch(log: EventLog): (d: Uint8Array, at: number) => void {
  let squished = false;
  return (d, at) => {
    const reply = parseReply(d);
    if (reply.kind !== 'data' || reply.squished === squished) return;
    squished = reply.squished;
    log.push(at, K.squish, 0, reply.offset, 0, squished ? 1 : 0, 0);
  };
}
