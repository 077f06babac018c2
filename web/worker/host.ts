/// <reference lib="webworker" />
import { PORT_MESSAGE } from './sandboxFrame.ts';

declare const self: DedicatedWorkerGlobalScope;

/**
 * The user's code runs in this worker. A method or getter of a port's or an event's that it replaced would
 * be handed this worker's port to the page (a port's postMessage runs on the port, an event's data getter on
 * the event the port's message came in), and through it the code could post the page anything: results it
 * made up, or for the other side. So their prototypes are frozen before any of its code loads: the
 * platform's own, for good.
 */
for (const proto of [MessagePort.prototype, MessageEvent.prototype, Event.prototype, EventTarget.prototype]) Object.freeze(proto);

/**
 * This worker's channel to the page: the MessagePort its first message hands over (web/worker/sandboxHost.ts),
 * whether the page started it or the sandbox frame did (sandboxFrame.ts: the frame between them reads
 * none of it). What the worker sends before the port came waits for it.
 */
let port: MessagePort | null = null;
const waiting: [unknown, Transferable[]][] = [];
let handler: (data: never) => void = () => {};

self.onmessage = (e: MessageEvent) => {
  if (port || e.data !== PORT_MESSAGE || !e.ports[0]) return;
  port = e.ports[0];
  port.onmessage = (m) => handler(m.data as never);
  for (const [m, transfer] of waiting.splice(0)) port.postMessage(m, transfer);
};

/** Sends to the page. */
export function toPage(m: unknown, transfer: Transferable[] = []): void {
  if (port) port.postMessage(m, transfer);
  else waiting.push([m, transfer]);
}

/** What the page sends goes to `h`. */
export function fromPage<T>(h: (data: T) => void): void {
  handler = h as (data: never) => void;
}
