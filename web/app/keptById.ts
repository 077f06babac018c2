/**
 * Strings a browser storage keeps for each id, under `prefix` + id. Where the browser keeps none (storage
 * turned off, or full), nothing is kept and nothing is found: the page then asks again, or shows less.
 */
export function keptById(storage: () => Storage, prefix: string) {
  return {
    get(id: string): string | null {
      try {
        return storage().getItem(prefix + id);
      } catch {
        return null;
      }
    },
    set(id: string, value: string): void {
      try {
        storage().setItem(prefix + id, value);
      } catch {
        // kept nowhere: see above
      }
    },
    remove(id: string): void {
      try {
        storage().removeItem(prefix + id);
      } catch {
        // nothing was kept
      }
    },
  };
}
