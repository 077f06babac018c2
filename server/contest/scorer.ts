import type { ContestTrace, TraceScore } from '../../shared/contest/api.ts';
import type { Omniscient } from './runProtocol.ts';
import type { Sandbox, SandboxLimits } from './sandbox.ts';
import { traceFiles } from './traces.ts';

/**
 * Scores submissions on every contest trace, each run in its own sandbox process, at most `slots` at
 * once (the relay keeps a core of its own); submissions first, in the order they came, then the
 * built-in schemes the plane shows for reference.
 */

export interface Job {
  /** The controller's module, or null for a built-in scheme. */
  code: string | null;
  scheme: string;
  started(): void;
  /** The scores on every trace, each with the trace's omniscient point; or the first run's error. */
  finished(outcome: { scores: (TraceScore & { omniscient: Omniscient | null })[] } | { error: string }): void;
}

export interface ScorerSettings {
  /** Each trace as shown, and where the sandbox reads it from (a bundled name or a path). */
  traces: readonly (ContestTrace & { source: string })[];
  link: Record<string, number | string>;
  limits: SandboxLimits;
  slots: number;
}

export class Scorer {
  private readonly submissions: Job[] = [];
  private readonly references: Job[] = [];
  private busy = 0;
  private stopped = false;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly s: ScorerSettings,
  ) {}

  /** Submissions waiting for a scorer. */
  get waiting(): number {
    return this.submissions.length;
  }

  add(job: Job, reference = false): void {
    (reference ? this.references : this.submissions).push(job);
    this.next();
  }

  private next(): void {
    while (!this.stopped && this.busy < this.s.slots) {
      const job = this.submissions.shift() ?? this.references.shift();
      if (!job) return;
      this.busy++;
      void this.score(job).finally(() => {
        this.busy--;
        this.next();
      });
    }
  }

  private async score(job: Job): Promise<void> {
    job.started();
    const scores: (TraceScore & { omniscient: Omniscient | null })[] = [];
    for (const t of this.s.traces) {
      const out = await this.sandbox.run({ code: job.code, scheme: job.scheme, trace: t.source, link: this.s.link, files: traceFiles(t.source) }, this.s.limits);
      if (this.stopped) return;
      if (!out.ok) {
        job.finished({ error: `on ${t.heldOut ? 'a held-out trace' : t.trace}: ${out.error}` });
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
