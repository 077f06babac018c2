import { keptById } from '../app/keptById.ts';

/**
 * The contest tokens this browser keeps, in localStorage as `pipefill.contestToken.<id>`: only the token of
 * the id in use. A lab PC is shared, and a token left behind is a way for the next student to submit as
 * the previous one; so giving another id forgets the others' tokens (web/live/studentId.ts), and the page
 * shows each token it gets, to keep elsewhere (the command line's token file holds the same string).
 */
const PREFIX = 'pipefill.contestToken.';
const tokens = keptById(() => localStorage, PREFIX);

/** The id's token kept here (none without storage: the next submission from this page needs the token again). */
export const savedToken = (id: string): string | undefined => tokens.get(id) ?? undefined;
export const saveToken = tokens.set;

/** Forgets every kept token but `id`'s (every one for null). */
export function keepOnlyTokenOf(id: string | null): void {
  try {
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
    for (const key of keys) if (key?.startsWith(PREFIX) && key !== PREFIX + id) localStorage.removeItem(key);
  } catch {
    // no storage: nothing is kept
  }
}
