import { useEffect, useState } from 'react';

/** How often the Sessions view asks the relay again: fast enough to watch a run as it happens. */
export const POLL_MS = 500;

export type Polled<T> = { state: 'waiting' } | { state: 'ok'; value: T } | { state: 'failed'; message: string };

/**
 * Fetches `url` now and every POLL_MS until unmounted or `url` changes, reading each answer with `read`
 * (which may throw to say the answer is wrong). One request at a time: a slow relay is not piled on.
 */
export function usePoll<T>(url: string | null, read: (r: Response) => Promise<T>): Polled<T> {
  const [polled, setPolled] = useState<Polled<T>>({ state: 'waiting' });
  useEffect(() => {
    setPolled({ state: 'waiting' });
    if (url === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const value = await read(await fetch(url, { cache: 'no-store' }));
        if (!stopped) setPolled({ state: 'ok', value });
      } catch (e) {
        if (!stopped) setPolled({ state: 'failed', message: (e as Error).message });
      }
      if (!stopped) timer = setTimeout(() => void tick(), POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [url, read]);
  return polled;
}

/** The body of a successful answer; otherwise the relay's own explanation, or that there is no relay. */
export async function okText(r: Response): Promise<string> {
  const text = await r.text();
  if (r.ok) return text;
  if (r.status === 404 && !text.trim()) throw new Error('No relay serves this page: start one with `npm start`.');
  throw new Error(text.trim() || `The relay answered ${r.status}.`);
}
