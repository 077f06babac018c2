import type { IncomingMessage } from 'node:http';
import type { Accepted, ContestTrace, Reference, ReferencePoint, TokenProblem } from '../../shared/contest/api.ts';
import { scoreboardEntries } from '../../shared/scenarios/sweep.ts';
import type { Journal } from '../records/journal.ts';
import type { Operator } from '../operator.ts';
import { BodyBudget } from './body.ts';
import { ContestEvents } from './events.ts';
import type { Omniscient } from './runProtocol.ts';
import { Sandbox, type SandboxLimits } from './sandbox.ts';
import { Scorer } from './scorer.ts';
import { ContestStore, type Entry } from './store.ts';
import { filesContaining } from './heldOutCopies.ts';
import { issueRosterTokens } from './roster.ts';
import { traceFiles, traceLabel } from './traces.ts';
import { bundledTraceFiles } from '../../shared/scenarios/presets.ts';
import { TRACE_DIR } from '../traces.ts';

/**
 * The class contest the relay runs with --contest: submissions taken over HTTP (routes.ts), journaled,
 * scored in sandboxes on the public and held-out traces, and the board and the reference points the
 * page draws. Only what the instructor reveals of the held-out traces is ever shown.
 */

export interface ContestOptions {
  publicTraces: string[];
  heldOutTraces: string[];
  /** The contest link's settings over the preset's (delay, queue), as `npm run sim`'s link flags set them. */
  link: Record<string, number | string>;
  reveal: boolean;
  scorers: number;
  /** Least time between two submissions under one id, s. */
  gapSeconds: number;
  /** Submissions one client address may have waiting to be scored at once (--contest-waiting-per-client). */
  waitingPerClient?: number;
  /** Ids one client address may create, restarts included (--contest-ids-per-client). */
  idsPerClient?: number;
  limits: SandboxLimits;
  /** Pages one client address may watch the contest's live feed from (the relay's --max-feeds-per-client). */
  maxFeedsPerClient?: number;
  /** The class roster (--contest-roster): only its ids submit, with the tokens the relay issues them. */
  roster?: { path: string; ids: string[] };
}

/** Pages one address may watch the contest from, when the relay does not say (as its --max-feeds-per-client). */
const MAX_WATCHERS_PER_ADDRESS = 80;

/** Submissions waiting at most, over all ids. */
export const MAX_WAITING = 1000;
/**
 * Submissions one address may have waiting, unless the relay says: a lab room behind one NAT shares an
 * address, and fifty students each with one waiting fit; twenty addresses are needed to fill MAX_WAITING.
 */
export const WAITING_PER_ADDRESS = 50;
/**
 * Ids one address may create (restarts included: the records keep who created each), unless the relay says: each id is a name on the board
 * and a token kept for good, so ids are not free; a lab room behind one NAT, every student trying a few ids,
 * stays well under it.
 */
export const IDS_PER_ADDRESS = 200;

/**
 * A refusal's status, its sentence, for a submission the disk refused the submission and its id's token,
 * and for a refusal of the token what was wrong with it (so that a client asks for the token only then).
 */
export type Refusal = { status: number; error: string; headers?: Record<string, string>; held?: Accepted; tokenProblem?: TokenProblem };

/**
 * The served trace files that contain a held-out trace; a public trace among them is refused, as a trace
 * is either served or held out.
 */
function heldOutCopies(o: ContestOptions): { file: string; contains: string }[] {
  const heldOut = o.heldOutTraces.flatMap((t) => Object.entries(traceFiles(t)).map(([name, text]) => ({ name, text })));
  const copies = filesContaining(TRACE_DIR, heldOut);
  const publicFiles = new Set(o.publicTraces.flatMap(bundledTraceFiles));
  const clash = copies.find((c) => publicFiles.has(c.file));
  if (clash) throw new Error(`the public trace file ${clash.file} contains the held-out ${clash.contains}: a trace is either served or held out`);
  return copies;
}

export class Contest {
  readonly events: ContestEvents;
  readonly heldOutFiles: ReadonlySet<string>;
  /** What the relay says at start of the roster's tokens. */
  private rosterLine = '';
  /** Whether the submissions are kept in memory only (no --data): the relay says so at start. */
  private inMemory = false;
  /** The submission bodies being read now (routes.ts): bounded per address and in bytes. */
  readonly bodies = new BodyBudget();
  private readonly scorer: Scorer;
  private readonly references = new Map<string, { omniscient: Omniscient | null; schemes: ReferencePoint[] }>();

  private constructor(
    private readonly o: ContestOptions,
    private readonly sandbox: Sandbox,
    readonly store: ContestStore,
    private readonly operator: Operator,
    /** Served trace files that contain a held-out one: not served either. */
    private readonly copies: { file: string; contains: string }[],
  ) {
    this.events = new ContestEvents(o.maxFeedsPerClient ?? MAX_WATCHERS_PER_ADDRESS);
    this.heldOutFiles = new Set([...o.heldOutTraces.flatMap(bundledTraceFiles), ...copies.map((c) => c.file)]);
    const traces = [...o.publicTraces.map((t) => ({ t, heldOut: false })), ...o.heldOutTraces.map((t) => ({ t, heldOut: true }))];
    this.scorer = new Scorer(sandbox, { traces: traces.map(({ t, heldOut }) => ({ trace: traceLabel(t), source: t, heldOut })), link: o.link, limits: o.limits, slots: o.scorers });
    for (const e of store.replay()) this.queue(e);
    for (const { scheme } of scoreboardEntries()) this.addReference(scheme);
  }

  /** The contest, its submissions kept in the relay's records journal (in memory only when it keeps none). */
  static async start(o: ContestOptions, operator: Operator, journal: Journal | null): Promise<Contest> {
    const traces: ContestTrace[] = [...o.publicTraces.map((t) => ({ trace: traceLabel(t), heldOut: false })), ...o.heldOutTraces.map((t) => ({ trace: traceLabel(t), heldOut: true }))];
    const copies = heldOutCopies(o);
    const store = new ContestStore(traces, o.reveal, journal);
    const contest = new Contest(o, await Sandbox.prepare(), store, operator, copies);
    if (o.roster) contest.rosterLine = await issueRosterTokens(o.roster.path, o.roster.ids, store);
    contest.inMemory = journal === null;
    return contest;
  }

  /** The address a request comes from, as the relay tells it (a trusted proxy's forwarded client). */
  clientAddress(req: IncomingMessage): string {
    return this.operator.clientAddress(req);
  }

  isOperator(req: IncomingMessage): boolean {
    return this.operator.isOperator(req);
  }

  /** The roster's ids (--contest-roster), or null when any id may submit. */
  get rosterIds(): string[] | null {
    return this.o.roster ? [...this.o.roster.ids] : null;
  }

  /** The contest as the relay at `url` prints it at start: the class view by its whole address, to open or hand out. */
  linesAt(url: string): string[] {
    const names = (ts: string[]) => ts.map(traceLabel).join(', ');
    return [
      `contest         public ${names(this.o.publicTraces)} · held out ${names(this.o.heldOutTraces)}${this.store.revealed ? ' (revealed)' : ''} · ${this.o.scorers} scorer(s) · the class view ${url}/?view=contest`,
      ...(this.rosterLine ? [this.rosterLine] : []),
      ...(this.inMemory ? ['contest         submissions and their ids’ tokens kept in memory only: a restart forgets them (--data DIR keeps them)'] : []),
      ...this.copies.map((c) => `contest         ${c.file} not served either: it contains the held-out ${c.contains}`),
      `contest sandbox ${this.sandbox.isolation}`,
    ];
  }

  /**
   * Takes a submission, or says why not: the records refusing writes, the id's token, one waiting per id,
   * the least gap, the queue's bound. It is acknowledged only once it (and a new id's token) is on disk.
   */
  async submit(id: string, address: string, code: string, token: unknown): Promise<Accepted | Refusal> {
    const trouble = this.store.diskTrouble();
    if (trouble) return { status: 503, error: `the relay cannot write its records now (${trouble}): no submission is taken until it can; try again later` };
    if (this.o.roster && !this.o.roster.ids.includes(id)) return { status: 403, error: `${id} is not on the class roster: submit under the id the instructor gave you, with its token` };
    const check = this.store.checkToken(id, token);
    if (this.o.roster && check === 'missing') return { status: 403, error: `${id}'s token is needed: the instructor hands each student the token of their id`, tokenProblem: 'missing' };
    if (check === 'missing') return { status: 403, error: `${id} has submitted before: send the token its first submission was given`, tokenProblem: 'missing' };
    if (check === 'wrong') return { status: 403, error: `the token is not ${id}'s`, tokenProblem: 'wrong' };
    const created = this.store.idsCreatedFrom(address);
    const ids = this.o.idsPerClient ?? IDS_PER_ADDRESS;
    if (check === 'new' && created >= ids) return { status: 429, error: `${ids} ids were created from your address already: submit under one of them, with its token` };
    const attempts = this.store.attemptsOf(id);
    if (attempts.some((e) => e.status === 'queued')) return { status: 429, error: `${id} has a submission waiting to be scored: send the next once it is scored` };
    const last = attempts.at(-1);
    const wait = last ? Math.ceil(this.o.gapSeconds - (Date.now() - Date.parse(last.at)) / 1000) : 0;
    if (wait > 0) return { status: 429, error: `${id} may submit once every ${this.o.gapSeconds} s: try again in ${wait} s`, headers: { 'retry-after': String(wait) } };
    const waiting = this.o.waitingPerClient ?? WAITING_PER_ADDRESS;
    if (this.scorer.waitingFrom(address) >= waiting)
      return { status: 429, error: `${waiting} submissions from your address are waiting to be scored already: send the next once one of them is scored` };
    if (this.scorer.waiting >= MAX_WAITING) return { status: 503, error: `${MAX_WAITING} submissions are waiting to be scored: try again later` };
    const { entry, token: kept, written } = await this.store.accept(id, address, code, check === 'ok' ? (token as string) : null);
    this.queue(entry);
    if (written) return { submission: entry.submission, token: kept };
    const what = check === 'new' ? `submission ${entry.submission} and ${id}'s token` : `submission ${entry.submission}`;
    return {
      status: 503,
      error: `the relay could not write ${what} to its records (${this.store.diskTrouble() ?? 'its records are closed'}): it is not acknowledged. It is kept in memory and scored as usual, and written to the records if the disk takes it before the relay stops; if the relay stops first, it and its score are lost.`,
      held: { submission: entry.submission, token: kept },
    };
  }

  private queue(e: Entry): void {
    this.changed(e);
    this.scorer.add(
      {
        code: e.code,
        scheme: 'user',
        started: () => {
          this.store.settle(e, 'running');
          this.changed(e);
        },
        finished: (out) => {
          if ('error' in out) this.store.settle(e, 'failed', [], out);
          else
            this.store.settle(
              e,
              'scored',
              out.scores.map(({ omniscient: _, ...s }) => s),
            );
          this.changed(e);
        },
      },
      e.address,
    );
  }

  private changed(e: Entry): void {
    this.events.send({ kind: 'submission', id: e.id, submission: e.submission, status: e.status });
  }

  private addReference(scheme: string): void {
    this.scorer.addReference({
      code: null,
      scheme,
      started: () => {},
      finished: (out) => {
        if ('error' in out) return;
        for (const { trace, omniscient, throughputMbps, delay95, score } of out.scores) {
          const r = this.references.get(trace) ?? { omniscient, schemes: [] };
          r.schemes.push({ scheme, throughputMbps, delay95, score });
          this.references.set(trace, r);
        }
        this.events.send({ kind: 'reference' });
      },
    });
  }

  /** The reference points of the traces shown. */
  reference(): Reference {
    return { traces: this.store.shown().map(({ trace }) => ({ trace, omniscient: this.references.get(trace)?.omniscient ?? null, schemes: this.references.get(trace)?.schemes ?? [] })) };
  }

  reveal(): void {
    this.store.reveal();
    this.events.send({ kind: 'reveal' });
  }

  async close(): Promise<void> {
    this.scorer.stop();
    this.events.close();
    this.sandbox.close();
  }
}
