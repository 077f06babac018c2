import { useState } from 'react';
import { urlNotice } from './Notices.tsx';

/** The notices of a view, starting with what was wrong in its URL; the last four are kept. */
export function useNotices(urlErrors: readonly string[]) {
  const [notices, setNotices] = useState<string[]>(() => urlErrors.map(urlNotice));
  return {
    notices,
    note: (m: string) => setNotices((n) => [...n.slice(-3), m]),
    dismiss: (i: number) => setNotices((x) => x.filter((_, k) => k !== i)),
    /** Takes back the notices a later success made untrue. */
    forget: (untrue: (m: string) => boolean) => setNotices((x) => x.filter((m) => !untrue(m))),
  };
}
