import type { EchoConnection, EchoSample } from '../shared/relay/echo.ts';

export type { EchoConnection, EchoSample };

/** Samples kept per connection (the newest), and connections kept (closed ones forgotten first). */
export const MAX_SAMPLES = 2000;
export const MAX_CONNECTIONS = 64;

/** The echo server's record of each connection's message sizes and round trips, bounded. */
export class EchoRecords {
  private readonly connections = new Map<number, EchoConnection & { origin: number; lastEchoAt: number }>();
  private nextId = 1;

  /** A new connection's recorder: `message` once each whole message is in (before its echo is written). */
  open(remote: string): { message(size: number): void; close(): void } {
    const c = { id: this.nextId++, remote, openedAt: new Date().toISOString(), open: true, messages: 0, samples: [] as EchoSample[], origin: performance.now(), lastEchoAt: -1 };
    this.connections.set(c.id, c);
    this.evict();
    return {
      message: (size) => {
        const at = performance.now() - c.origin;
        c.messages++;
        c.samples.push({ size, atMs: round(at), roundTripMs: c.lastEchoAt < 0 ? null : round(at - c.lastEchoAt) });
        if (c.samples.length >= 2 * MAX_SAMPLES) c.samples.splice(0, MAX_SAMPLES); // amortized: one splice per MAX_SAMPLES messages
        c.lastEchoAt = at;
      },
      close: () => (c.open = false),
    };
  }

  get all(): EchoConnection[] {
    return [...this.connections.values()].map(({ origin: _o, lastEchoAt: _l, samples, ...c }) => ({ ...c, samples: samples.slice(-MAX_SAMPLES) }));
  }

  private evict(): void {
    if (this.connections.size <= MAX_CONNECTIONS) return;
    const victim = [...this.connections.values()].find((c) => !c.open) ?? this.connections.values().next().value!;
    this.connections.delete(victim.id);
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
