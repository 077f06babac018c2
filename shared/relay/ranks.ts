/**
 * The ranks of a list sorted best first, as a competition gives them ("1, 2, 2, 4"): entries `tied` calls
 * equal share the rank of the first of them, and the one after them is ranked by how many came before it.
 * Two students who submit the same controller score the same to the last digit, and neither is second.
 */
export function competitionRanks<T>(sorted: readonly T[], tied: (a: T, b: T) => boolean): number[] {
  const ranks: number[] = [];
  sorted.forEach((x, i) => ranks.push(i > 0 && tied(sorted[i - 1], x) ? ranks[i - 1] : i + 1));
  return ranks;
}
