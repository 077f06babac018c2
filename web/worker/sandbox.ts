/// <reference lib="webworker" />

/**
 * The workers run the user's controller, which must reach no network: a shared link runs the code it
 * carries as the page opens. This module keeps the worker's own handles (bundled traces, the relay's
 * bridge) and then replaces every way a script reaches the network with a function that throws, on the
 * worker's global object and on its prototypes, where the platform defines most of them. Code made at
 * run time (eval, the Function constructors) is refused too: it would escape the parse that refuses
 * imports and puts the loop guards in.
 */

declare const self: DedicatedWorkerGlobalScope;

/** The worker's own fetch and WebSocket, for its code only. */
export const network = { fetch: self.fetch.bind(self), WebSocket };

const BLOCKED = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport', 'importScripts', 'Worker', 'SharedWorker', 'caches', 'eval', 'Function'];

function refuse(name: string): () => never {
  return function blocked(): never {
    throw new Error(`${name} is blocked: a controller runs with no network (fetch, XMLHttpRequest, WebSocket, EventSource, importScripts, workers and eval are all blocked)`);
  };
}

/** Every object on the global's prototype chain that holds `name` itself. */
function holders(name: string): object[] {
  const out: object[] = [];
  for (let o: object | null = self; o; o = Object.getPrototypeOf(o)) if (Object.hasOwn(o, name)) out.push(o);
  return out;
}

for (const name of BLOCKED) {
  for (const o of holders(name)) delete (o as Record<string, unknown>)[name];
  Object.defineProperty(self, name, { value: refuse(name), writable: false, configurable: false, enumerable: false });
}

// The constructors of every kind of function compile text too; each is reachable from a function's prototype.
const kinds = [() => {}, async () => {}, function* () {}, async function* () {}];
for (const f of kinds) Object.defineProperty(Object.getPrototypeOf(f), 'constructor', { value: refuse('the Function constructor'), writable: false, configurable: false });
