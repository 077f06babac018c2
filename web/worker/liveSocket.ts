/// <reference lib="webworker" />
import { proxySocket } from './socketPort.ts';

/**
 * The live fetch's WebSocket, in a worker of the page's origin that does nothing else, so neither the
 * charts the worker that started it computes nor anything of the page holds up a frame. The controller
 * itself runs in the sandbox frame with no network (liveController.ts); this worker is the one that may
 * reach the relay, and only at the URL its starter, page code, gives it (see socketPort.ts).
 */
declare const self: DedicatedWorkerGlobalScope;

/** The one message this worker takes: where the page's relay is, and the port to the controller. */
export type SocketStart = { url: string; port: MessagePort };

self.onmessage = (e: MessageEvent<SocketStart>) => {
  self.onmessage = null;
  const { url, port } = e.data;
  proxySocket(port, url, self.location, (u) => new WebSocket(u));
};
