import { useSyncExternalStore } from 'react';
import { isStudentId } from '../../shared/relay/studentId.ts';
import { keepOnlyTokenOf } from '../contest/contestTokens.ts';

/**
 * The student's id, kept in this browser's localStorage and nowhere else: never in the page's URL or a
 * share link (a link opened by a classmate must not submit under the sender's name). The live fetch's
 * Submit and the class contest's submissions use it; until a student gives one they go as ANONYMOUS_ID.
 */
const STORAGE_KEY = 'pipefill.studentId';

const listeners = new Set<() => void>();
let current: string | null = read();
// tokens a browser kept before it kept only the id in use's
keepOnlyTokenOf(current);

function read(): string | null {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved !== null && isStudentId(saved) ? saved : null;
  } catch {
    return null; // no storage (disabled, or a sandboxed frame): the id lives for this page only
  }
}

/** Keeps `id` (a checked id, or null to forget it) and tells every component showing it. */
export function setStudentId(id: string | null): void {
  if (id !== null && !isStudentId(id)) throw new Error(`not an id: ${id}`);
  try {
    if (id === null) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, id);
  } catch {
    // storage full or disabled: kept for this page only
  }
  // a shared PC: the previous student's contest token must not stay usable by whoever comes next
  keepOnlyTokenOf(id);
  current = id;
  for (const l of listeners) l();
}

/** The id another tab of this browser gave is this tab's too. */
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key !== STORAGE_KEY && e.key !== null) return;
    current = read();
    for (const l of listeners) l();
  });

/** The student's id now, or null if none was given. */
export const studentId = () => current;

export function useStudentId(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
