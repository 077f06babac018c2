import type { ParamValues, Scheme } from '../shared/controllers/types.ts';
import { EventLog } from '../shared/log/eventLog.ts';
import { MAX_CHUNK } from '../shared/offset/protocol.ts';
import type { Clock } from '../shared/sim/scheduler.ts';
import { DEFAULT_CLIENT, OffsetClient, type OffsetFetchResult } from '../shared/endpoints/offsetClient.ts';

/** A way to reach a real offset server: a UDP socket, or a session through the relay's bridge. */
export interface DatagramTransport {
  send(datagram: Uint8Array): void;
  /** Registers the receiver of datagrams and of fatal failures. */
  listen(onDatagram: (d: Uint8Array) => void, onFailure: (message: string) => void): void;
  close(): void;
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
      if (error) reject(new Error(error));
      else resolve({ result: client.stats, log, chunks: Math.ceil(client.stats.size / MAX_CHUNK) });
    };
    const client: OffsetClient = new OffsetClient(
      clock,
      log,
      0,
      o.scheme.create(o.params),
      o.scheme.mode,
      (d) => transport.send(d),
      { ...DEFAULT_CLIENT, id: o.id },
      () => finish(),
    );
    transport.listen(
      (d) => client.receive(d, clock.now),
      (message) => finish(message),
    );
    clock.at(clock.now + o.giveUpMs, () => finish(`gave up after ${o.giveUpMs} ms without the whole file`));
    cancel = () => finish('cancelled');
    client.start(clock.now);
  });
  return { done, cancel };
}
