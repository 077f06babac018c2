import { COPIES } from 'virtual:scheme-copies';

/**
 * Readable JavaScript versions of built-ins that a student edits ("Edit a copy"), made at build time from
 * each built-in's own source (scripts/schemeCopies.ts), so each gives the built-in's numbers
 * (tests/unit/userSchemeCopies.test.ts). The texts load when asked for: the page's first run needs none.
 */

/** Whether the scheme has an editable copy. */
export const hasCopy = (scheme: string): boolean => Object.hasOwn(COPIES, scheme);

/** The text of the scheme's copy. */
export const copyOf = (scheme: string): Promise<string> => COPIES[scheme]();

/** Whether `text` is a built-in's copy as "Edit a copy" opened it, unchanged (its first line names the built-in). */
export async function isUntouchedCopy(text: string): Promise<boolean> {
  const id = /^\/\/ .* \(my copy\): the built-in ([\w-]+),/.exec(text)?.[1];
  return id !== undefined && hasCopy(id) && (await copyOf(id)) === text;
}
