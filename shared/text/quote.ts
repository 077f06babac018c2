/** The most characters of a value a message quotes. */
export const QUOTED_CHARS = 40;

/**
 * A value as a message quotes it: whole when short, else its start and its length, so a value pasted or
 * crafted to be huge cannot flood the message that names it.
 */
export function quote(value: string): string {
  if (value.length <= QUOTED_CHARS) return `"${value}"`;
  // The cut never splits a character outside the BMP in two.
  const last = value.charCodeAt(QUOTED_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? QUOTED_CHARS - 1 : QUOTED_CHARS;
  return `"${value.slice(0, end)}…" (${value.length} characters)`;
}
