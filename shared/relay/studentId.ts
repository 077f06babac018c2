/**
 * A student's id as the course writes it, `id@team`: letters, digits and `._-` on both sides of one `@`,
 * at most 64 characters in all (the leaderboard cuts longer ids). The class contest takes these and no other.
 * Nothing else can reach a Submit's header line: no newline, no second header.
 */
export const STUDENT_ID = /^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+$/;
export const MAX_STUDENT_ID = 64;

/** What the page submits as until a student gives an id. */
export const ANONYMOUS_ID = 'pipefill@browser';

export function isStudentId(text: string): boolean {
  return text.length <= MAX_STUDENT_ID && STUDENT_ID.test(text);
}

/** Why `text` is not an id, or null if it is one. */
export function studentIdProblem(text: string): string | null {
  if (text === '') return 'give your id as id@team, e.g. ann@red';
  if (text.length > MAX_STUDENT_ID) return `an id has at most ${MAX_STUDENT_ID} characters`;
  if (!STUDENT_ID.test(text)) return 'an id is id@team: letters, digits, dots, dashes and underscores on both sides of one @';
  return null;
}
