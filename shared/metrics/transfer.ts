import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';

/** What a reliable transfer's log says of its timer and its retransmissions: the matrix's captions read these. */
export interface TransferFacts {
  /** Times the sender's timer fired. */
  timeouts: number;
  /** The timer the sender set after its first timeout, and the longest it set after one, ms (0 without a timeout): RFC 6298's backoff doubles it. */
  firstTimerMs: number;
  longestTimerMs: number;
  /** The longest round trip an ACK measured, ms. */
  maxRttMs: number;
  /** Segments that reached the receiver again, beyond those the link duplicated: retransmitted for nothing. */
  spurious: number;
}

/** One pass over the flow's rows of the log. */
export function transferFacts(log: EventLog, flow: number): TransferFacts {
  const c = log.columns;
  const delivered = new Set<number>();
  let timeouts = 0;
  let firstTimerMs = 0;
  let longestTimerMs = 0;
  let maxRttMs = 0;
  let again = 0;
  let duplicatedByLink = 0;
  for (let i = 0; i < c.kind.length; i++) {
    if (c.flow[i] !== flow) continue;
    const v = c.value[i];
    switch (c.kind[i]) {
      case K.timeout:
        if (timeouts++ === 0) firstTimerMs = v;
        if (v > longestTimerMs) longestTimerMs = v;
        break;
      case K.ack:
        if (v > maxRttMs) maxRttMs = v;
        break;
      case K.deliver:
        if (delivered.has(c.seq[i])) again++;
        else delivered.add(c.seq[i]);
        break;
      case K.duplicate:
        if (v === 0) duplicatedByLink++; // the data direction's (1 is the ACK direction's)
        break;
    }
  }
  return { timeouts, firstTimerMs, longestTimerMs, maxRttMs, spurious: Math.max(0, again - duplicatedByLink) };
}
