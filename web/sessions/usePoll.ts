import { useEffect, useState } from 'react';
import { type RelayState, relayInfo } from '../app/useRelay.ts';

/** How often the Sessions view asks the relay again: fast enough to watch a run as it happens. */
export const POLL_MS = 500;

export type Polled<T> = { state: 'waiting' } | { state: 'ok'; value: T } | { state: 'failed'; message: string };

/** Answers that asking again does not change: the records are not this visitor's until the page is opened as the operator. */
const REFUSED = new Set([401, 403]);

/**
 * Fetches `url` now and every POLL_MS until stopped, reading each answer with `read` (which may throw to
 * say the answer is wrong) and telling `set`. One request at a time: a slow relay is not piled on. A
 * refusal stops it: asking twice a second would only fill the console with refusals.
 */
export function startPolling<T>(url: string, read: (r: Response) => Promise<T>, set: (p: Polled<T>) => void, get: typeof fetch = fetch): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    let again = true;
    try {
      const r = await get(url, { cache: 'no-store' });
      again = !REFUSED.has(r.status);
      const value = await read(r);
      if (!stopped) set({ state: 'ok', value });
    } catch (e) {
      if (!stopped) set({ state: 'failed', message: (e as Error).message });
    }
    if (!stopped && again) timer = setTimeout(() => void tick(), POLL_MS);
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** `startPolling` for as long as the component shows and `url` stays (null: nothing to ask). */
export function usePoll<T>(url: string | null, read: (r: Response) => Promise<T>): Polled<T> {
  const [polled, setPolled] = useState<Polled<T>>({ state: 'waiting' });
  useEffect(() => {
    setPolled({ state: 'waiting' });
    if (url === null) return;
    return startPolling(url, read, setPolled);
  }, [url, read]);
  return polled;
}

/** What a visitor the relay shows no clients' records to is told, instead of asking for them. */
export const RECORDS_HIDDEN = "This relay keeps its clients' records for the operator: open the page with the operator's link, or start the relay with --share-records to show each client its own.";

/** `usePoll` of one of the relay's records of clients, once `relay` says this visitor may see them; else why not, asking nothing. */
export function useClientRecords<T>(relay: RelayState, url: string, read: (r: Response) => Promise<T>): Polled<T> {
  const hidden = relayInfo(relay)?.clientRecords === false;
  const polled = usePoll(relay === 'unknown' || hidden ? null : url, read);
  return hidden ? { state: 'failed', message: RECORDS_HIDDEN } : polled;
}

/** The body of a successful answer; otherwise the relay's own explanation, or that there is no relay. */
export async function okText(r: Response): Promise<string> {
  const text = await r.text();
  if (r.ok) return text;
  if (r.status === 404 && !text.trim()) throw new Error('No relay serves this page: start one with `npm start`.');
  throw new Error(text.trim() || `The relay answered ${r.status}.`);
}
