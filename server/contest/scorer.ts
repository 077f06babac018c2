import type { ContestTrace, TraceScore } from '../../shared/contest/api.ts';
import type { Omniscient } from './runProtocol.ts';
import type { Sandbox, SandboxLimits } from './sandbox.ts';
import { traceFiles } from './traces.ts';

/**
 * Scores submissions on every contest trace, each run in its own sandbox process, at most `slots` at
 * once (the relay keeps a core of its own); submissions first, then the built-in schemes the plane shows
 * for reference. A submission never waits for a reference: one under way is stopped to free its slot, and
 * starts again once no submission waits (runs are niced, so on a busy machine one can take a minute).
 * Submissions take turns by client address (round robin), so that one address's backlog delays another
 * address's submission by at most one of its submissions per slot (under way, or next in its turn).
 */

export interface Job {
  /** The controller's module, or null for a built-in scheme. */
  code: string | null;
  scheme: string;
  started(): void;
  /**
   * The scores on every trace, each with the trace's omniscient point; or the first run's error, and for a
   * held-out trace the sentence shown instead until the reveal (the error's text may tell the trace).
   */
  finished(outcome: { scores: (TraceScore & { omniscient: Omniscient | null })[] } | { error: string; hidden?: string }): void;
}

/** A failure on a held-out trace before the reveal: its kind, never the controller's text or what it saw. */
/**
 * What a held-out failure says until the reveal: neither what the controller said nor how it failed (an
 * exception, a time, CPU or memory limit), which a controller could choose by what it sees of the trace.
 */
const UNTOLD = 'on a held-out trace: your controller did not complete (how, and what it said, are shown once the held-out traces are revealed)';

export interface ScorerSettings {
  /** Each trace as shown, and where the sandbox reads it from (a bundled name or a path). */
  traces: readonly (ContestTrace & { source: string })[];
  link: Record<string, number | string>;
  limits: SandboxLimits;
  slots: number;
}

/** A submission waiting, its address, and its turn: an address's next submission waits one turn more than its last. */
interface Waiting {
  job: Job;
  address: string;
  turn: number;
}

export class Scorer {
  /** Waiting submissions by turn, then by arrival. */
  private readonly submissions: Waiting[] = [];
  private readonly references: Job[] = [];
  /** The turn of the submission started last. */
  private turn = 0;
  /** Each address's last turn taken, for the addresses whose last turn is not yet past. */
  private readonly lastTurn = new Map<string, number>();
  private busy = 0;
  private stopped = false;
  /** The reference runs under way, each with what stops it. */
  private readonly referencesRunning = new Map<Job, AbortController>();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly s: ScorerSettings,
  ) {}

  /** Submissions waiting for a scorer. */
  get waiting(): number {
    return this.submissions.length;
  }

  /** Submissions from `address` waiting for a scorer. */
  waitingFrom(address: string): number {
    return this.submissions.filter((w) => w.address === address).length;
  }

  /** Queues a submission from `address`, after those of earlier turns. */
  add(job: Job, address: string): void {
    const turn = Math.max(this.turn, (this.lastTurn.get(address) ?? Number.NEGATIVE_INFINITY) + 1);
    this.lastTurn.set(address, turn);
    const after = this.submissions.findLastIndex((w) => w.turn <= turn);
    this.submissions.splice(after + 1, 0, { job, address, turn });
    this.yieldReference();
    this.next();
  }

  /**
   * Stops a reference run under way when the submissions waiting outnumber the free slots: one per
   * submission added, so no more are stopped than submissions wait (one being stopped still holds its slot).
   */
  private yieldReference(): void {
    if (this.submissions.length <= this.s.slots - this.busy) return;
    for (const stop of this.referencesRunning.values()) if (!stop.signal.aborted) return stop.abort();
  }

  /** Queues a built-in scheme's reference runs, after every submission. */
  addReference(job: Job): void {
    this.references.push(job);
    this.next();
  }

  /** The next job: the submission of the earliest turn, else a reference. */
  private take(): { job: Job; reference: boolean } | undefined {
    const first = this.submissions.shift();
    if (!first) {
      const job = this.references.shift();
      return job && { job, reference: true };
    }
    this.turn = first.turn;
    for (const [address, turn] of this.lastTurn) if (turn < this.turn) this.lastTurn.delete(address);
    return { job: first.job, reference: false };
  }

  private next(): void {
    while (!this.stopped && this.busy < this.s.slots) {
      const taken = this.take();
      if (!taken) return;
      this.busy++;
      const stop = new AbortController();
      if (taken.reference) this.referencesRunning.set(taken.job, stop);
      void this.score(taken.job, stop.signal).finally(() => {
        this.referencesRunning.delete(taken.job);
        this.busy--;
        this.next();
      });
    }
  }

  /** Runs a job on every trace; a reference stopped for a submission goes back to the head of its queue. */
  private async score(job: Job, stop: AbortSignal): Promise<void> {
    job.started();
    const scores: (TraceScore & { omniscient: Omniscient | null })[] = [];
    for (const t of this.s.traces) {
      const out = await this.sandbox.run({ code: job.code, scheme: job.scheme, trace: t.source, link: this.s.link, files: traceFiles(t.source) }, this.s.limits, stop);
      if (this.stopped) return;
      if (stop.aborted) return void this.references.unshift(job);
      if (!out.ok) {
        job.finished(t.heldOut ? { error: `on a held-out trace: ${out.error}`, hidden: UNTOLD } : { error: `on ${t.trace}: ${out.error}` });
        return;
      }
      const { throughputMbps, delay95, power, score, omniscient } = out;
      scores.push({ trace: t.trace, throughputMbps, delay95, power, score, omniscient });
    }
    job.finished({ scores });
  }

  /** Starts nothing more; runs under way finish unreported. */
  stop(): void {
    this.stopped = true;
  }
}
