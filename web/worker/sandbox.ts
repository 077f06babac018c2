/// <reference lib="webworker" />

/**
 * The workers run the user's controller, which must reach nothing: a shared link runs the code it carries
 * as the page opens. The browser holds it there: in the production page these workers run in the
 * sandbox frame (sandboxFrame.ts), whose Content-Security-Policy gives them no network and no compiling
 * of text, and whose opaque origin gives them no storage. A live fetch's controller runs there too; its
 * socket is held by a worker of the page's origin that runs no user code (liveSocket.ts).
 *
 * This module is the second layer, which says plainly what is refused and is the only one under the dev
 * server (no policy there): it keeps the worker's own handles (the relay's bridge) and then replaces
 * every way a script reaches the network with a function that throws, on the worker's global object and
 * on its prototypes, where the platform defines most of them. Code compiled at run time would escape the
 * parse that refuses imports and puts the loop guards in, so the user's module may compile none: a
 * compiler refuses when the user's module, the one script loaded from a data: URL, is on the stack (text
 * compiled from a callback the platform calls, such as a promise's `then(Function)`, has no user frame
 * to see: there only the policy refuses it).
 */

declare const self: DedicatedWorkerGlobalScope;

/** Where the user's module is loaded from (userModule.ts): its frames on a stack are the user's code. */
export const USER_MODULE_URL = 'data:text/javascript;charset=utf-8,';

/** The worker's own fetch, WebSocket and Worker (a live fetch's, in a worker of the page's origin), for its code only. */
export const network = { fetch: self.fetch.bind(self), WebSocket, Worker };

const NETWORK = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport', 'importScripts', 'Worker', 'SharedWorker', 'caches'];

function refuse(name: string): () => never {
  return function blocked(): never {
    throw new Error(`${name} is blocked: a controller runs with no network`);
  };
}

/** Every object on the global's prototype chain that holds `name` itself. */
function holders(name: string): object[] {
  const out: object[] = [];
  for (let o: object | null = self; o; o = Object.getPrototypeOf(o)) if (Object.hasOwn(o, name)) out.push(o);
  return out;
}

function replace(name: string, value: unknown): void {
  for (const o of holders(name)) delete (o as Record<string, unknown>)[name];
  Object.defineProperty(self, name, { value, writable: false, configurable: false, enumerable: false });
}

for (const name of NETWORK) replace(name, refuse(name));

/** Throws when the user's module (loaded from a data: URL) called, directly or through built-ins. */
function refuseUserCode(name: string): void {
  if (String(new Error().stack).includes(USER_MODULE_URL)) throw new Error(`${name} is blocked in a controller: code compiled at run time would escape its checks`);
}

type Compiler = (...args: unknown[]) => unknown;

/** A constructor of functions that refuses the user's module and is otherwise the original. */
function guardedConstructor(original: Compiler, name: string): Compiler {
  // a function declaration, not an arrow: libraries call `new Function(…)`, and an arrow cannot be constructed
  function guarded(...args: unknown[]) {
    refuseUserCode(name);
    return Reflect.construct(original, args);
  }
  guarded.prototype = original.prototype; // `instanceof` keeps working
  return guarded;
}

// No code of the worker's own evaluates text, so eval refuses every caller.
replace('eval', () => refuseUserCode('eval') ?? refuse('eval')());
replace('Function', guardedConstructor(Function as unknown as Compiler, 'the Function constructor'));
// The constructors of the other kinds of function are reachable only from their prototypes.
for (const f of [() => {}, async () => {}, function* () {}, async function* () {}]) {
  const proto = Object.getPrototypeOf(f);
  Object.defineProperty(proto, 'constructor', { value: guardedConstructor(proto.constructor, 'the Function constructor'), writable: false, configurable: false });
}
// Timers given text compile it.
for (const timer of ['setTimeout', 'setInterval'] as const) {
  const original = self[timer] as Compiler;
  replace(timer, (handler: unknown, ...rest: unknown[]) => {
    if (typeof handler !== 'function') throw new Error(`${timer} with text is blocked: pass it a function`);
    return original.call(self, handler, ...rest);
  });
}
