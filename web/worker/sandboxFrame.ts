/**
 * The sandbox frame: a page with no origin of its own (served with `sandbox allow-scripts`, no
 * allow-same-origin) whose one inline script starts workers from the code the page hands it. A worker
 * started from a blob: URL takes its creator's policy and origin, so the user's code in it gets the
 * frame's Content-Security-Policy (no network, no compiling text, no imports but of data: and blob: URLs)
 * and an opaque origin (no IndexedDB, Cache Storage or cookies). The page talks to each worker over the
 * MessagePort it hands over with it; the frame only starts, ends and reports the failures of workers.
 *
 * The server names the script by its hash in the frame's policy (server/securityHeaders.ts) and the
 * build writes this page into the bundle (vite.config.ts): the text is plain JavaScript, kept as a
 * string so both see the same bytes.
 */

/** Where the frame is served. */
export const SANDBOX_FRAME_PATH = '/sandbox.html';

/** The first message a worker in the frame gets: the port to the page is its only channel. */
export const PORT_MESSAGE = 'pipefill:port';

/**
 * The frame's attributes. The built page has the frame in its HTML (vite.config.ts), so that the frame's
 * process starts and loads while the page's own scripts do; the page adds one like it where it has none.
 * Shown, though nothing of it can be seen: the browser runs a hidden frame's process, and so its workers
 * (the live controller among them), at a background priority that a busy machine starves.
 */
export const SANDBOX_FRAME_ATTRS = {
  id: 'pipefill-sandbox',
  sandbox: 'allow-scripts',
  src: SANDBOX_FRAME_PATH,
  style: 'position:fixed;left:0;top:0;width:1px;height:1px;border:0;pointer-events:none',
  'aria-hidden': 'true',
  tabindex: '-1',
  title: 'sandbox for user code',
};

export const SANDBOX_FRAME_SCRIPT = `
const workers = new Map();
const urls = new Map();
const tell = (m) => parent.postMessage(m, '*');
addEventListener('message', (e) => {
  if (e.source !== parent) return;
  const m = e.data;
  // a page whose frame was in its HTML may have missed the first 'ready'
  if (m.kind === 'hello') return tell({ kind: 'ready' });
  if (m.kind === 'stop') {
    workers.get(m.id)?.terminate();
    workers.delete(m.id);
    return;
  }
  let url = urls.get(m.script);
  if (!url) urls.set(m.script, (url = URL.createObjectURL(m.code)));
  const w = new Worker(url, { name: m.name });
  w.onerror = (ev) => {
    ev.preventDefault();
    tell({ kind: 'error', id: m.id, message: String(ev.message || '') });
  };
  w.postMessage('${PORT_MESSAGE}', [m.port]);
  workers.set(m.id, w);
});
tell({ kind: 'ready' });
`;

/**
 * The same policy in the page itself, less what only a header can say (the sandbox, who may frame it), for
 * a server that sends no headers (a static host of the bundle): its workers still get no network and no
 * compiling of text; the frame's `sandbox` attribute still gives them no origin.
 */
const META_POLICY = "default-src 'none'; script-src 'unsafe-inline' blob: data:; worker-src blob:; base-uri 'none'; form-action 'none'";

export const SANDBOX_FRAME_HTML = `<!doctype html>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${META_POLICY}">
<title>Pipefill sandbox</title>
<script>${SANDBOX_FRAME_SCRIPT}</script>
`;
