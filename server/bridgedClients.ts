/**
 * Which page each of the bridge's sockets spoke for. A bridged session reaches the offset and echo servers
 * from the relay's own socket (`host:port`), so their records name the relay's address; the class's
 * records are each student's by the address their page came from. Bounded: the oldest openings are
 * forgotten first, well after the servers have forgotten their sessions.
 */
export const MAX_OPENINGS = 4096;

/**
 * How much earlier than the socket's opening a recorded session may seem to start and still be its own:
 * the two are dated by different threads' clocks (web/live/ownSessions.ts allows the same).
 */
const CLOCK_SLACK_MS = 1000;

interface Opening {
  since: number;
  client: string;
}

export class BridgedClients {
  private readonly byKey = new Map<string, Opening[]>();
  /** Keys in the order their openings came, one per opening, for forgetting the oldest. */
  private readonly order: string[] = [];
  private head = 0;

  /** The bridge's socket `key` (host:port) opened at `since` (ms since the epoch) for a page from `client`. */
  opened(key: string, since: number, client: string): void {
    const list = this.byKey.get(key) ?? [];
    list.push({ since, client });
    this.byKey.set(key, list);
    this.order.push(key);
    if (this.order.length - this.head > MAX_OPENINGS) this.forgetOldest();
  }

  /** The page's address behind a record of socket `key` that started at `atMs`, if the bridge opened it. */
  clientOf(key: string, atMs: number): string | undefined {
    const list = this.byKey.get(key);
    if (!list) return undefined;
    // A port is reused only once its socket is closed: the latest opening before the record is its own.
    for (let i = list.length - 1; i >= 0; i--) if (list[i].since - CLOCK_SLACK_MS <= atMs) return list[i].client;
    return undefined;
  }

  private forgetOldest(): void {
    const key = this.order[this.head++];
    const list = this.byKey.get(key)!;
    list.shift();
    if (list.length === 0) this.byKey.delete(key);
    // Amortized: the forgotten half of the queue is dropped at once.
    if (this.head >= MAX_OPENINGS) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
  }
}
