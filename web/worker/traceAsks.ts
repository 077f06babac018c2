/** How long a trace that failed to load is answered with that failure before it is fetched again, ms. */
export const RETRY_FAILED_MS = 2000;

/**
 * Which of a worker's asks for a trace the page answers. The worker runs the user's code, which can ask
 * without end, and each answer costs the page a copy of the file (megabytes) and perhaps a request to its
 * server: so each trace is sent once (the worker keeps it), and one that failed to load is fetched again
 * at most every RETRY_FAILED_MS, the asks in between answered with the same failure.
 */
export class TraceAsks {
  private readonly sent = new Set<string>();
  private readonly failed = new Map<string, { at: number; error: string }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** What to do with an ask for `name`: fetch and send it, drop it (it was sent), or answer with its failure. */
  take(name: string): 'send' | 'drop' | { error: string } {
    if (this.sent.has(name)) return 'drop';
    const failure = this.failed.get(name);
    if (failure && this.now() - failure.at < RETRY_FAILED_MS) return { error: failure.error };
    this.failed.delete(name);
    this.sent.add(name);
    return 'send';
  }

  /** The trace could not be sent: asks for it get this until it may be fetched again. */
  failedWith(name: string, error: string): void {
    this.sent.delete(name);
    this.failed.set(name, { at: this.now(), error });
  }
}
