/** Ids in the order a class list reads: the numbers in them by value (s2 before s10), then as text. */
export const byId = new Intl.Collator(undefined, { numeric: true }).compare;
