/** What opening another view would stop (a live fetch under way), said before it does; null: nothing. */
let wouldStop: string | null = null;

export function holdLeaving(what: string | null): void {
  wouldStop = what;
}

/** Whether to go on to another view: at once, unless it would stop something and the user says no. */
export function mayLeave(): boolean {
  return wouldStop === null || window.confirm(`${wouldStop} Open the other view anyway?`);
}
