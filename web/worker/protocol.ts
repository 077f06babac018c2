import type { ParamValues } from '../../shared/controllers/types.ts';
import type { OffsetFetchResult } from '../../shared/endpoints/offsetClient.ts';
import type { FlowSeries } from '../../shared/metrics/fairness.ts';
import type { RunSeries } from '../../shared/metrics/series.ts';
import type { MeasurementResult, MeasurementSpec } from '../../shared/scenarios/measurement.ts';
import type { Summary } from '../../shared/metrics/summary.ts';
import type { LiveRun, ScenarioSpec } from '../../shared/scenarios/spec.ts';
import type { WholeDots } from './runView.ts';
import type { SeriesDelta } from './seriesDelta.ts';
import type { TraceAnswer, TraceAsk } from './sandboxHost.ts';
import type { CheckResult } from './userModule.ts';

/** A side of the playground: each has a worker of its own. */
export type Slot = 'a' | 'b';

/**
 * One finished (or, live, growing) run as the page draws it. The event log stays in the worker, which
 * keeps each side's latest run: the page asks it for exports.
 */
export interface RunView {
  spec: ScenarioSpec | LiveRun | null;
  summary: Summary;
  series: RunSeries;
  live: OffsetFetchResult | null;
  /** Wall time the worker spent, ms. */
  wallMs: number;
  /** Where this run came from, for the page's labels. */
  source: 'simulated' | 'live' | 'imported';
  /** Several flows on one bottleneck: throughput and Jain's index over time, and each flow's window. */
  flows: (FlowSeries & { windows: Float64Array[] }) | null;
}

export type WorkerRequest =
  /**
   * `probeFrom` (runs and summaries): it hung before; report every user callback from that count on
   * (web/worker/watchdog.ts). `check`: the spec's code is new: load and check it first, answering 'checked'
   * (final when it fails). `preview`: the page shows nothing of this side yet: send the series of the run's
   * first seconds as soon as they are simulated, then the whole run.
   */
  | { id: number; kind: 'run'; spec: ScenarioSpec; probeFrom?: number; check?: boolean; preview?: boolean }
  | { id: number; kind: 'upload'; name: string; text: string }
  | { id: number; kind: 'replay'; csv: string }
  /** `controller`: the port to the fetch's controller, which the page starts in the sandbox frame (web/worker/pool.ts). */
  | { id: number; kind: 'live'; relay: string; target: string; variable: boolean; submitAs?: string; scheme: string; params: ParamValues; policy?: ParamValues; code?: string; controller: MessagePort }
  | { id: number; kind: 'summary'; spec: ScenarioSpec; probeFrom?: number }
  | { id: number; kind: 'measure'; spec: MeasurementSpec }
  | { id: number; kind: 'measure-live'; relay: string; target: string; sizes: number[]; repeats: number }
  | { id: number; kind: 'export'; what: 'trace' | 'intervals' }
  /**
   * The whole dots of run `run` (its view came with coarse copies), while it is the run the worker keeps;
   * given its `spec`, made again when it is kept no more (runs are deterministic).
   */
  | { id: number; kind: 'dots'; run: number; spec?: ScenarioSpec }
  | { id: number; kind: 'cancel' }
  /** The page has drawn run `id`'s preview: its worker goes on with the rest (see PREVIEW_WAIT_MS). */
  | { id: number; kind: 'preview-shown' }
  | TraceAnswer;

export type WorkerResponse =
  | { id: number; kind: 'view'; view: RunView; final: boolean }
  /** A run's first seconds, for its charts while the rest is simulated (its figures wait for the whole run). */
  | { id: number; kind: 'preview'; series: RunSeries }
  /** A live run's tick: what its series gained, and its figures so far. */
  | { id: number; kind: 'delta'; delta: SeriesDelta; summary: Summary; wallMs: number }
  | { id: number; kind: 'uploaded'; name: string; durationMs: number; opportunities: number }
  | { id: number; kind: 'summary'; summary: Summary; wallMs: number }
  | { id: number; kind: 'measured'; result: MeasurementResult }
  | { id: number; kind: 'exported'; text: string }
  | { id: number; kind: 'dots'; dots: WholeDots }
  /** A run a newer one replaced before it started. */
  | { id: number; kind: 'superseded' }
  /** The run's user code still moves (callbacks entered so far, the one now), or is done (callback null). */
  | { id: number; kind: 'beat'; callback: string | null; entered: number }
  | { id: number; kind: 'error'; message: string }
  /** A run's new code was checked: what it declares, or where it fails. */
  | { id: number; kind: 'checked'; result: CheckResult }
  | TraceAsk;

/** The one table of what each request is answered with (runs stream views before their last one). */
interface Answers {
  run: 'view' | 'superseded' | 'checked';
  replay: 'view';
  live: 'view';
  summary: 'summary';
  measure: 'measured';
  'measure-live': 'measured';
  upload: 'uploaded';
  export: 'exported';
  dots: 'dots';
  cancel: never;
  'preview-shown': never;
  trace: never;
}

/**
 * How long a worker that has sent a run's preview waits for the page to draw it before it goes on with the
 * rest. On a two-core machine the two workers computing their rests took the cores the page needed to
 * draw the previews: the first chart came 450–500 ms after the preview, against 120–220 ms when they wait.
 * The wait is bounded, so a page that never says it drew costs no more than this.
 */
export const PREVIEW_WAIT_MS = 400;

export type RequestKind = WorkerRequest['kind'];
/** A request as the page writes it: the pool adds the id (and a live fetch's controller). */
export type RequestOf<K extends RequestKind> = Omit<Extract<WorkerRequest, { kind: K }>, 'id' | 'controller'>;
export type AnswerTo<K extends RequestKind> = Extract<WorkerResponse, { kind: Answers[K] | 'error' }>;
