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

export const SANDBOX_FRAME_SCRIPT = `
const workers = new Map();
const urls = new Map();
const tell = (m) => parent.postMessage(m, '*');
addEventListener('message', (e) => {
  if (e.source !== parent) return;
  const m = e.data;
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
