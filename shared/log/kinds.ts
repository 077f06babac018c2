/**
 * The kinds of event a run records. The numeric codes are the log's storage; the names are what the CSV
 * and the UI show. Append new kinds at the end: the codes are part of the CSV schema's version.
 */
export const KINDS = [
  'send', // sender emits a packet: value = packets in flight with it, window
  'retransmit', // sender emits a sequence number again
  'enqueue', // packet joins the bottleneck queue: value = queue length in packets after it joined
  'depart', // packet leaves the bottleneck: value = queueing delay (ms)
  'deliver', // packet reaches the receiver: value = one-way delay (ms)
  'ack', // ACK reaches the sender: value = RTT sample (ms), window after the controller saw it
  'drop', // packet lost: value = DropReason
  'timeout', // sender's timer fired: window after the controller saw it
  'estimate', // controller estimate: seq = EstimateId, value
  'reply', // offset server's reply reaches the client: seq = offset, value = RTT
  'squish', // offset server squished the client (value 1) or released it (value 0)
  'penalty', // offset request found no token: value = total penalty
  'duplicate', // link duplicated a packet
  'done', // flow finished its transfer: value = elapsed ms
  'loss', // sender inferred a loss without its timer (three later packets ACKed, three duplicate ACKs): seq = the packet
  'mark', // an AQM with ECN on marked the packet CE instead of dropping it: value = queue length in packets then
] as const;

export type Kind = (typeof KINDS)[number];
/** Kind name → code. Spelled out (not derived) so that lookups in hot loops stay constant-time. */
export const K = {
  send: 0,
  retransmit: 1,
  enqueue: 2,
  depart: 3,
  deliver: 4,
  ack: 5,
  drop: 6,
  timeout: 7,
  estimate: 8,
  reply: 9,
  squish: 10,
  penalty: 11,
  duplicate: 12,
  done: 13,
  loss: 14,
  mark: 15,
} as const satisfies { [key in Kind]: number };

export const DROP_REASONS = ['queue', 'loss', 'burst-loss', 'no-token', 'server-loss', 'ack-queue', 'ack-loss', 'aqm'] as const;
export type DropReason = (typeof DROP_REASONS)[number];
export const DROP = Object.fromEntries(DROP_REASONS.map((k, i) => [k, i])) as { [key in DropReason]: number };

export const ESTIMATES = ['ssthresh', 'rttMin', 'bandwidth', 'pacingRate', 'srtt', 'rto', 'threshold', 'tokenRate'] as const;
export type EstimateName = (typeof ESTIMATES)[number];
export const ESTIMATE = Object.fromEntries(ESTIMATES.map((k, i) => [k, i])) as { [key in EstimateName]: number };
