import { SANDBOX_FRAME_ATTRS, SANDBOX_FRAME_PATH } from './sandboxFrame.ts';

/** What the frame says to the page: it listens, or a worker it started failed. */
type FrameMessage = { kind: 'ready' } | { kind: 'error'; id: number; message: string };

/** How often the page asks a frame that has not said it listens. */
const HELLO_EVERY_MS = 200;

/**
 * When a frame that has not answered yet is looked into: its file is asked of the page's server, whose
 * refusal (a static host of the page without the frame's file) is then said at once.
 */
const LOOK_AFTER_MS = 1_000;

/**
 * How long the page waits for a frame its server serves to answer at all, ms. Its script answers as soon as
 * it runs; one that has not within a minute was blocked. Shorter waits failed a merely slow frame on a
 * machine loaded with other work.
 */
const FRAME_ANSWER_MS = 60_000;

/** The frame the page's HTML holds, or a new one like it. */
function frameElement(): HTMLIFrameElement {
  const there = document.getElementById(SANDBOX_FRAME_ATTRS.id);
  if (there instanceof HTMLIFrameElement) return there;
  const f = document.createElement('iframe');
  for (const [name, value] of Object.entries(SANDBOX_FRAME_ATTRS)) f.setAttribute(name, value);
  document.body.append(f);
  return f;
}

/** Why the frame did not answer, when the page's server says: null while it serves the frame's file. */
async function refusal(): Promise<string | null> {
  const r = await fetch(SANDBOX_FRAME_PATH, { method: 'HEAD', cache: 'no-store' }).catch(() => null);
  if (r === null) return 'the page’s server does not answer';
  return r.ok ? null : `the page’s server answers ${r.status} for ${SANDBOX_FRAME_PATH}`;
}

const failure = (why: string) => new Error(`the sandbox frame that runs the simulations did not start (${why})`);

let frame: Promise<Window> | null = null;
let attempts = 0;

/** Passes the frame's reports of its workers' failures to `report`, from the page's first ask on. */
function reportFailures(report: (id: number, message: string) => void): void {
  window.addEventListener('message', (e: MessageEvent<FrameMessage>) => {
    const f = document.getElementById(SANDBOX_FRAME_ATTRS.id);
    if (!(f instanceof HTMLIFrameElement) || e.source === null || e.source !== f.contentWindow) return;
    if (e.data.kind === 'error') report(e.data.id, String(e.data.message));
  });
}

/**
 * The sandbox frame's window, resolved when its script listens. It says so as it starts and whenever
 * asked: a frame already in the page may have started before this listened. A hello that reaches the frame
 * while its document still loads goes to the empty document it replaces and is lost, as may its "ready"
 * said before this listened: the page asks again as the frame loads and until it answers. A frame that
 * does not answer fails this: at once and for good when its server refuses its file (looked into after a
 * second), else after FRAME_ANSWER_MS, and the next worker's start loads it again. `failed` hears of
 * the failures of the workers it starts.
 */
export function sandboxWindow(failed: (id: number, message: string) => void): Promise<Window> {
  frame ??= new Promise<Window>((resolve, reject) => {
    const f = frameElement();
    if (attempts++ === 0) reportFailures(failed);
    else f.setAttribute('src', SANDBOX_FRAME_PATH);
    const hello = () => f.contentWindow?.postMessage({ kind: 'hello' }, '*');
    const asking = setInterval(hello, HELLO_EVERY_MS);
    const stop = () => {
      clearInterval(asking);
      clearTimeout(look);
      clearTimeout(deadline);
      f.removeEventListener('load', hello);
      window.removeEventListener('message', heard);
    };
    // a refusal stays (asking again would ask for ever); a frame that only did not answer is asked again
    const fail = (why: string, again: boolean) => {
      stop();
      if (again) frame = null;
      reject(failure(why));
    };
    const look = setTimeout(() => void refusal().then((why) => why !== null && fail(why, false)), LOOK_AFTER_MS);
    const deadline = setTimeout(() => fail(`it did not answer within ${FRAME_ANSWER_MS / 1000} s`, true), FRAME_ANSWER_MS);
    const heard = (e: MessageEvent<FrameMessage>) => {
      if (e.source === null || e.source !== f.contentWindow || e.data.kind !== 'ready') return;
      stop();
      resolve(f.contentWindow);
    };
    f.addEventListener('load', hello);
    window.addEventListener('message', heard);
    hello();
  });
  return frame;
}
