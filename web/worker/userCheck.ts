/// <reference lib="webworker" />
import { type CheckResult, checkCode } from './userModule.ts';
import './sandbox.ts';

declare const self: DedicatedWorkerGlobalScope;

/** What the page hears of a check: the worker took the text (its time budget starts), then the result. */
export type CheckMessage = { id: number; started: true } | (CheckResult & { id: number });

const post = (m: CheckMessage) => self.postMessage(m);

/** Checks the texts the page loads before any run (a link's, the saved one): see checkCode. */
self.onmessage = async (e: MessageEvent<{ id: number; source: string }>) => {
  post({ id: e.data.id, started: true });
  post({ ...(await checkCode(e.data.source)), id: e.data.id });
};
