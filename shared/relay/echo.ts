import { type Fit, fitLatency } from '../scenarios/measurement.ts';

/** One message a ping-pong client sent, as the echo server saw it. */
export interface EchoSample {
  size: number;
  /** When its last byte arrived, ms since the connection opened. */
  atMs: number;
  /**
   * From writing the previous echo to this message's last byte arriving: for a client that sends each ping
   * once the previous pong is back, its round trip as the server sees it. Null for a connection's first.
   */
  roundTripMs: number | null;
}

export interface EchoConnection {
  id: number;
  remote: string;
  /** For a connection a page made through the relay's bridge (`remote` is the relay's own socket): the page's address. */
  browser?: string;
  openedAt: string;
  open: boolean;
  messages: number;
  samples: EchoSample[];
}

/**
 * The round trips of one message size, for the fit: the server times a message from writing the previous
 * echo, so only a message that follows one of its own size measures a round trip of that size (the
 * echo going back and the next message coming in). A client's first message, and each change of size,
 * are left out.
 */
export function sameSizeRoundTrips(samples: readonly EchoSample[]): { size: number; rttMs: number }[] {
  const out: { size: number; rttMs: number }[] = [];
  for (let i = 1; i < samples.length; i++) {
    const s = samples[i];
    if (s.roundTripMs !== null && samples[i - 1].size === s.size) out.push({ size: s.size, rttMs: s.roundTripMs });
  }
  return out;
}

/** The lab's fit through a recorded connection, or why there is none: a line needs two sizes. */
export function fitConnection(c: EchoConnection): { samples: { size: number; rttMs: number }[]; fit: Fit } | { error: string } {
  const samples = sameSizeRoundTrips(c.samples);
  const sizes = new Set(samples.map((s) => s.size)).size;
  if (sizes < 2) return { error: `${c.remote} has round trips of ${sizes} message size${sizes === 1 ? '' : 's'} (each size must be sent at least twice in a row): a line needs two` };
  return { samples, fit: fitLatency(samples) };
}
