import { BUNDLED_TRACES, bundledTraceFiles } from '../../shared/scenarios/presets.ts';
import { heldUntil } from './heldPoster.ts';
import { sandboxWindow } from './frameReady.ts';
import { PORT_MESSAGE } from './sandboxFrame.ts';
import { TraceAsks } from './traceAsks.ts';

/** What the pools use of a worker: one in the sandbox frame and one of the page's own both fit. */
export interface WorkerLike {
  onmessage: ((e: { data: never }) => void) | null;
  onerror: ((e: { message: string; preventDefault(): void }) => void) | null;
  postMessage(m: unknown, transfer?: Transferable[]): void;
  terminate(): void;
}

/** A worker asks the page for a bundled trace it has no network to fetch (web/worker/simWorker.ts). */
export type TraceAsk = { id: 0; kind: 'need-trace'; name: string };
/**
 * A trace's file as bytes, which the worker decodes: each worker is handed a copy of its own (transferred),
 * where posting the text, or shared bytes, cost the page's thread 10 to 20 ms as it loads.
 */
export type TraceAnswer = { id: 0; kind: 'trace'; name: string } & ({ bytes: ArrayBuffer } | { error: string });

const traceFiles = new Map<string, Promise<ArrayBuffer>>();

/** The files of the bundled traces: the only ones a worker may have the page fetch. */
const BUNDLED_FILES = new Set(BUNDLED_TRACES.flatMap((t) => bundledTraceFiles(t.name)));

/**
 * Why the server refused, as it says it (the relay's refusals carry `{"error": "<sentence>"}`: a held-out
 * trace of a class contest is one), or its bare status when it says nothing readable.
 */
async function serverSays(r: Response): Promise<string> {
  const body = (await r.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === 'string' && body.error !== '' ? `: ${body.error}` : ` (${r.status})`;
}

/**
 * A bundled trace's file, fetched once from the page's own server (a failure is asked again next time).
 * The ask comes from a worker running the user's code: a name that is not a bundled trace's is refused
 * here, so that code cannot have the page request anything else.
 */
function traceFile(name: string): Promise<ArrayBuffer> {
  if (!BUNDLED_FILES.has(name)) return Promise.reject(new Error(`there is no bundled trace named ${name}`));
  let p = traceFiles.get(name);
  if (!p) {
    const url = new URL(`/traces/${encodeURIComponent(name)}`, window.location.origin);
    p = fetch(url).then(
      async (r) => {
        if (!r.ok) throw new Error(`the trace ${name} could not be loaded${await serverSays(r)}`);
        return r.arrayBuffer();
      },
      () => {
        // A fetch that reaches no server rejects with the browser's bare "Failed to fetch": say what it means here.
        throw new Error(`the trace ${name} could not be loaded: the page’s server at ${url.host} does not answer`);
      },
    );
    p.catch(() => traceFiles.delete(name));
    traceFiles.set(name, p);
  }
  return p;
}

/**
 * What the workers are being handed, until each is: their starts in the frame, and the traces of the runs
 * the page opens on.
 */
const starting = new Set<Promise<unknown>>();

function handingOver(p: Promise<unknown>): void {
  starting.add(p);
  void p.then(() => starting.delete(p));
}

const isTraceAsk = (m: unknown): m is TraceAsk => typeof m === 'object' && m !== null && (m as TraceAsk).kind === 'need-trace' && typeof (m as TraceAsk).name === 'string';

/**
 * The page's end of a worker: the two talk over a MessagePort the worker gets first (web/worker/host.ts).
 * It answers the worker's asks for traces and hands everything else to `onmessage`. The traces of the runs
 * the page opens on are sent unasked as the worker starts, fetched while the worker loads; what the page
 * posts meanwhile waits behind them, so that its first run finds them there and asks for none.
 */
abstract class PageEnd implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  protected readonly port: MessagePort;
  /** The worker's end of the port, to hand over with PORT_MESSAGE. */
  protected readonly theirs: MessagePort;
  /** Posts into the port, once the traces sent unasked are there. */
  private readonly post: (m: unknown, transfer?: Transferable[]) => void;
  private readonly asks = new TraceAsks();
  abstract terminate(): void;

  constructor(traces: readonly string[]) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.theirs = port2;
    port1.onmessage = (e) => this.receive(e.data);
    const sent = Promise.all(traces.map((name) => this.answer(name)));
    // The runs wait for these: the page renders once they are sent, not before (its render would hold them up).
    if (traces.length > 0) handingOver(sent);
    this.post = heldUntil(sent, (m, transfer) => port1.postMessage(m, transfer));
  }

  /** Messages posted before the worker has its port wait in the port. */
  postMessage(m: unknown, transfer: Transferable[] = []): void {
    this.post(m, transfer);
  }

  /** Every message a worker sends is an object: anything else (forged by the user's code there) is dropped. */
  private receive(data: unknown): void {
    if (typeof data !== 'object' || data === null) return;
    if (!isTraceAsk(data)) return this.onmessage?.({ data: data as never });
    void this.answer(data.name);
  }

  /** Straight into the port, as TraceAsks says: a trace goes ahead of what is held. */
  private async answer(name: string): Promise<void> {
    const take = this.asks.take(name);
    if (take === 'drop') return;
    if (take !== 'send') return this.port.postMessage({ id: 0, kind: 'trace', name, error: take.error } satisfies TraceAnswer);
    try {
      const bytes = (await traceFile(name)).slice(0);
      this.port.postMessage({ id: 0, kind: 'trace', name, bytes } satisfies TraceAnswer, [bytes]);
    } catch (e) {
      this.asks.failedWith(name, (e as Error).message);
      this.port.postMessage({ id: 0, kind: 'trace', name, error: (e as Error).message } satisfies TraceAnswer);
    }
  }

  protected failed(message: string): void {
    this.onerror?.({ message, preventDefault() {} });
  }
}

/**
 * A worker the page starts itself, from its own origin: its script's policy (server/securityHeaders.ts)
 * lets it reach the page's server alone.
 */
class OwnWorker extends PageEnd {
  private readonly w: Worker;
  constructor(url: string, name: string, traces: readonly string[] = []) {
    super(traces);
    // the build's workers are classic scripts (vite.config.ts); the dev server's are modules
    this.w = new Worker(url, { type: import.meta.env.DEV ? 'module' : 'classic', name });
    this.w.onerror = (e) => {
      e.preventDefault();
      this.failed(e.message);
    };
    this.w.postMessage(PORT_MESSAGE, [this.theirs]);
  }
  terminate(): void {
    this.w.terminate();
    this.port.close();
  }
}

/** Workers in the frame by id, told of their failures. */
const inFrame = new Map<number, SandboxedWorker>();
let lastId = 0;

const scripts = new Map<string, Promise<Blob>>();

/** A worker script's code, fetched once from the page's server and handed to the frame as a Blob. */
function script(url: string): Promise<Blob> {
  let p = scripts.get(url);
  if (!p) {
    p = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`the worker's script could not be loaded (${r.status})`);
      return r.blob();
    });
    p.catch(() => scripts.delete(url));
    scripts.set(url, p);
  }
  return p;
}

/**
 * Resolves once every worker asked of the frame so far has been handed to it, with the traces it opens
 * on, or after `limitMs`: the page renders after that, so that its render does not hold the hand-over up
 * (a fetch's answer, like the frame's, is taken on the page's thread; the frame is in the page's HTML and
 * mostly ready by then; what does not come costs the render no more than the limit).
 */
export function workersHandedOver(limitMs: number, pending: Iterable<Promise<unknown>> = starting): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    void Promise.all(pending).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A worker in the sandbox frame: the page talks to it over a MessagePort of its own. */
class SandboxedWorker extends PageEnd {
  private readonly id = ++lastId;
  private readonly started: Promise<Window | null>;
  private ended = false;

  constructor(url: string, name: string, traces: readonly string[]) {
    super(traces);
    inFrame.set(this.id, this);
    this.started = Promise.all([sandboxWindow((id, message) => inFrame.get(id)?.failedInFrame(message)), script(url)]).then(
      ([win, code]) => {
        if (!this.ended) win.postMessage({ kind: 'start', id: this.id, name, script: url, code, port: this.theirs }, '*', [this.theirs]);
        return win;
      },
      (e: Error) => {
        this.failed(e.message);
        return null;
      },
    );
    handingOver(this.started);
  }

  failedInFrame(message: string): void {
    if (!this.ended) this.failed(message);
  }

  terminate(): void {
    this.ended = true;
    this.port.close();
    inFrame.delete(this.id);
    this.started.then((win) => win?.postMessage({ kind: 'stop', id: this.id }, '*'));
  }
}

/**
 * A worker that runs the user's code: in the production page, in the sandbox frame (no network, no
 * storage, no compiling text: the browser's own policy, see sandboxFrame.ts); under the dev server,
 * which serves no frame and no bundled worker script, one of the page's own (only the worker's guards,
 * web/worker/sandbox.ts, hold it there).
 */
export function userCodeWorker(url: string, name = '', traces: readonly string[] = []): WorkerLike {
  return import.meta.env.DEV ? new OwnWorker(url, name, traces) : new SandboxedWorker(url, name, traces);
}

/** A worker that reaches the relay (a live fetch's drawing and socket): never in the frame, never given user code. */
export const networkWorker = (url: string, name = ''): WorkerLike => new OwnWorker(url, name);
