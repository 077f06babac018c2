import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { SANDBOX_FRAME_PATH, SANDBOX_FRAME_SCRIPT } from '../web/worker/sandboxFrame.ts';

/**
 * The Content-Security-Policy of what the relay serves. The browser enforces it, whatever the page's
 * scripts do: no response is allowed to compile text (no 'unsafe-eval'), reach beyond the page's server,
 * or be framed elsewhere.
 *
 * - The page (HTML): its own scripts, styles and frames; connections to its own server, and to an
 *   emulated link's watch address on this machine (web/sessions/watchUrl.ts; of the loopback addresses,
 *   127.0.0.1 and localhost: a policy cannot name the others).
 * - A script, which is also what a worker started from the page's origin runs under: the same, but
 *   connections to the page's server alone. No such worker runs the user's code: a live fetch's socket is
 *   one (web/worker/liveSocket.ts), its controller is in the frame.
 * - The sandbox frame (web/worker/sandboxFrame.ts), where every run of the user's code happens, a live
 *   fetch's controller too: an opaque origin (no storage), its one inline script by hash, workers from
 *   blob: URLs that take this policy with them, and no network at all (not the relay either).
 */
const PAGE = [
  "default-src 'self'",
  "script-src 'self'",
  // React sets style attributes
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' http://127.0.0.1:* http://localhost:*",
  "worker-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
];

const SCRIPT = PAGE.map((d) => (d.startsWith('connect-src') ? "connect-src 'self'" : d));

const frameScriptHash = createHash('sha256').update(SANDBOX_FRAME_SCRIPT).digest('base64');

const FRAME = [
  "default-src 'none'",
  `script-src 'sha256-${frameScriptHash}' blob: data:`,
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts',
];

/** The headers a static file at `path` is served with. */
export function securityHeaders(path: string): Record<string, string> {
  const policy = path === SANDBOX_FRAME_PATH ? FRAME : extname(path) === '.js' ? SCRIPT : PAGE;
  return { 'content-security-policy': policy.join('; '), 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
}
