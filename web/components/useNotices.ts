import { useState } from 'react';
import type { UrlProblems } from '../state/codec.ts';
import { ignoredNotice, urlNotice } from './Notices.tsx';

/** The notices of a view, starting with what was wrong in its URL; the last four are kept. */
export function useNotices(url: UrlProblems) {
  const [notices, setNotices] = useState<string[]>(() => [...url.errors.map(urlNotice), ...url.ignored.map(ignoredNotice)]);
  return {
    notices,
    note: (m: string) => setNotices((n) => [...n.slice(-3), m]),
    dismiss: (i: number) => setNotices((x) => x.filter((_, k) => k !== i)),
    /** Takes back the notices a later success made untrue. */
    forget: (untrue: (m: string) => boolean) => setNotices((x) => x.filter((m) => !untrue(m))),
  };
}
