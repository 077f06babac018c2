import { useState } from 'react';
import type { UrlProblems } from '../state/codec.ts';
import { ignoredNotice, urlNotice } from './Notices.tsx';

/**
 * The notices of a view: what was wrong in its URL (true of the link it opened, until dismissed), then the
 * news of the last thing done. A new note takes the place of the one before, which it made old.
 */
export function useNotices(url: UrlProblems) {
  const [fromLink] = useState(() => [...url.errors.map(urlNotice), ...url.ignored.map(ignoredNotice)]);
  const [notices, setNotices] = useState<string[]>(fromLink);
  return {
    notices,
    note: (m: string) => setNotices((n) => [...n.filter((x) => fromLink.includes(x)), m]),
    dismiss: (i: number) => setNotices((x) => x.filter((_, k) => k !== i)),
    /** Takes back the notices a later success made untrue. */
    forget: (untrue: (m: string) => boolean) => setNotices((x) => x.filter((m) => !untrue(m))),
  };
}
