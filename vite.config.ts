import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { schemeCopiesPlugin } from './scripts/schemeCopies.ts';
import { SANDBOX_FRAME_ATTRS, SANDBOX_FRAME_HTML, SANDBOX_FRAME_PATH } from './web/worker/sandboxFrame.ts';

/**
 * The sandbox frame the production page starts its user-code workers in (web/worker/sandboxFrame.ts). The
 * page's HTML holds the frame and preloads the simulation worker's script, so both load while the page's
 * own scripts do: the first runs start as soon as the page can hand the frame the script.
 */
const sandboxFrame = (): Plugin => ({
  name: 'pipefill-sandbox-frame',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: SANDBOX_FRAME_PATH.slice(1), source: SANDBOX_FRAME_HTML });
  },
  transformIndexHtml: {
    order: 'post',
    handler(_html, ctx) {
      const worker = Object.keys(ctx.bundle ?? {}).find((f) => /(^|\/)simWorker-[\w-]+\.js$/.test(f));
      const preload = worker ? [{ tag: 'link', attrs: { rel: 'preload', href: `/${worker}`, as: 'fetch', crossorigin: '' }, injectTo: 'head-prepend' as const }] : [];
      return [...preload, { tag: 'iframe', attrs: SANDBOX_FRAME_ATTRS, injectTo: 'body-prepend' as const }];
    },
  },
});

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  plugins: [react(), schemeCopiesPlugin(), sandboxFrame()],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    // The modules the page shares with the views it loads later go into one chunk, not one chunk per set of
    // sharers: the page's first load then waits on three files, where its twenty-odd took four rounds of the
    // browser's six connections to the server (about 120 ms of the first chart).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'shared', minShareCount: 2 }] } } },
  },
  // Classic scripts, each one file: the sandbox frame starts the simulation worker from a blob: URL,
  // where a module worker does not start and no chunk can be fetched.
  worker: { format: 'iife' },
});
