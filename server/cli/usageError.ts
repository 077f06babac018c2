/** A bad command line: the message names the flag and what it accepts; the tool exits with 2. */
export class UsageError extends Error {}
