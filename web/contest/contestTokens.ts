/**
 * The contest tokens this browser keeps, in localStorage as `pipefill.contestToken.<id>`: only the token of
 * the id in use. A lab PC is shared, and a token left behind is a way for the next student to submit as
 * the previous one; so giving another id forgets the others' tokens (web/live/studentId.ts), and the page
 * shows each token it gets, to keep elsewhere (the command line's token file holds the same string).
 */
const PREFIX = 'pipefill.contestToken.';

export function savedToken(id: string): string | undefined {
  try {
    return localStorage.getItem(PREFIX + id) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(id: string, token: string): void {
  try {
    localStorage.setItem(PREFIX + id, token);
  } catch {
    // no storage: the next submission from this page needs the token again
  }
}

/** Forgets every kept token but `id`'s (every one for null). */
export function keepOnlyTokenOf(id: string | null): void {
  try {
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
    for (const key of keys) if (key?.startsWith(PREFIX) && key !== PREFIX + id) localStorage.removeItem(key);
  } catch {
    // no storage: nothing is kept
  }
}
