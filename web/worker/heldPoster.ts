/** How a message goes to a worker: the message, and what it transfers. */
export type Post = (m: unknown, transfer: Transferable[]) => void;

/**
 * A poster that holds what it is given until `ready` settles, then posts it in the order given, and
 * posts at once from then on: what goes ahead (posted straight, not through this) is ahead of it all.
 */
export function heldUntil(ready: Promise<unknown>, post: Post): (m: unknown, transfer?: Transferable[]) => void {
  let held: [unknown, Transferable[]][] | null = [];
  const release = () => {
    for (const [m, transfer] of held!) post(m, transfer);
    held = null;
  };
  void ready.then(release, release);
  return (m, transfer = []) => {
    if (held) held.push([m, transfer]);
    else post(m, transfer);
  };
}
