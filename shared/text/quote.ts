/** The most characters of a value a message quotes. */
export const QUOTED_CHARS = 40;

/**
 * Characters that would act on a terminal or a log instead of being read (line breaks, escape sequences,
 * the C1 controls, the Unicode line separators): a message shows them as escapes.
 */
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const shown = (text: string) => text.replace(CONTROL, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A value as a message quotes it: whole when short, else its start and its length, so a value pasted or
 * crafted to be huge cannot flood the message that names it; control characters as escapes, so one
 * cannot forge a line of output or move a terminal's cursor.
 */
export function quote(value: string): string {
  if (value.length <= QUOTED_CHARS) return `"${shown(value)}"`;
  // The cut never splits a character outside the BMP in two.
  const last = value.charCodeAt(QUOTED_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? QUOTED_CHARS - 1 : QUOTED_CHARS;
  return `"${shown(value.slice(0, end))}…" (${value.length} characters)`;
}
