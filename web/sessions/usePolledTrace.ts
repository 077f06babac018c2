import { useMemo } from 'react';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import type { EventLog } from '../../shared/log/eventLog.ts';
import { okText, usePoll } from './usePoll.ts';

export type PolledTrace<T> = { state: 'waiting' } | { state: 'failed'; message: string } | { state: 'ok'; csv: string; view: T };

/** A trace CSV fetched every poll and read into `make`'s view of its log (the model's series and charts). */
export function usePolledTrace<T>(url: string | null, make: (log: EventLog) => T): PolledTrace<T> {
  const polled = usePoll(url, okText);
  const csv = polled.state === 'ok' ? polled.value : null;
  const read = useMemo(() => {
    if (csv === null) return null;
    try {
      return { view: make(parseTraceCsv(csv).log), error: undefined };
    } catch (e) {
      return { error: `the trace could not be read: ${(e as Error).message}` };
    }
  }, [csv, make]);
  if (polled.state === 'failed') return polled;
  if (!read || csv === null) return { state: 'waiting' };
  if (read.error !== undefined) return { state: 'failed', message: read.error };
  return { state: 'ok', csv, view: read.view };
}
