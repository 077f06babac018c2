/// <reference lib="webworker" />
import { type CheckResult, checkCode } from './userModule.ts';
import { fromPage, toPage } from './host.ts';
import './sandbox.ts';

/**
 * What the page hears of a check: the text's module starts to run (its time budget starts; loading the
 * checker, the worker's own start, is not the text's time on a busy machine), then the result.
 */
export type CheckMessage = { id: number; started: true } | (CheckResult & { id: number });

const post = (m: CheckMessage) => toPage(m);

/** Checks the texts the page loads before any run (a link's, the saved one): see checkCode. */
fromPage(async (m: { id: number; source?: unknown }) => {
  // the user's code may post to the page on this worker's port, and the page answer what it asked
  if (typeof m.source !== 'string') return;
  const id = m.id;
  post({ ...(await checkCode(m.source, () => post({ id, started: true }))), id });
});
