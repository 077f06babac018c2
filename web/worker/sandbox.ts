/// <reference lib="webworker" />

/**
 * The workers run the user's controller, which must reach no network: a shared link runs the code it
 * carries as the page opens. This module keeps the worker's own handles (bundled traces, the relay's
 * bridge) and then replaces every way a script reaches the network with a function that throws, on the
 * worker's global object and on its prototypes, where the platform defines most of them.
 *
 * Code compiled at run time (eval, the Function constructors, a timer given text) would escape the parse
 * that refuses imports and puts the loop guards in, so the user's module may not compile any. The
 * worker's own libraries may (d3-dsv compiles its row reader): a compiler refuses only when the user's
 * module, the one script loaded from a data: URL, is on the stack. Text compiled from a callback the
 * platform calls (a promise's `then(Function)`) has no user frame to see: closing that would take a
 * Content-Security-Policy on the worker scripts, from the server.
 */

declare const self: DedicatedWorkerGlobalScope;

/** Where the user's module is loaded from (userModule.ts): its frames on a stack are the user's code. */
export const USER_MODULE_URL = 'data:text/javascript;charset=utf-8,';

/** The worker's own fetch, WebSocket and Worker (the live controller's), for its code only. */
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
