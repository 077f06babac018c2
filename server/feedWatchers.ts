import type { ServerResponse } from 'node:http';

/** Why a page may not watch a feed: its address holds its share, or the feed is full and its address holds as many pages as any. */
export type FeedRefusal = 'address' | 'full';

/**
 * The pages watching one live feed (the leaderboard's, the contest's), by the client address each came
 * from. One address holds at most its share. A full feed still takes a page of an address that holds fewer
 * pages than the address holding the most: that address's oldest page is ended to make room. Pages that
 * never read hold their places until they are closed, so without this a few addresses filling every place
 * would lock every other student out for as long as they liked; now they lock out only themselves.
 */
export class FeedWatchers {
  /** Each page's address, oldest page first. */
  private readonly addressOf = new Map<ServerResponse, string>();
  private readonly heldBy = new Map<string, number>();

  constructor(
    private readonly maxWatchers: number,
    private readonly maxPerAddress: number,
  ) {}

  get pages(): IterableIterator<ServerResponse> {
    return this.addressOf.keys();
  }

  /** Why a page from `address` may not watch now, or null if it may (`add` makes room for it if need be). */
  refusal(address: string): FeedRefusal | null {
    const held = this.heldBy.get(address) ?? 0;
    if (held >= this.maxPerAddress) return 'address';
    return this.addressOf.size >= this.maxWatchers && held >= this.mostHeld() ? 'full' : null;
  }

  /** Adds a page that `refusal` let in; on a full feed, the oldest page of the address holding the most is ended. */
  add(page: ServerResponse, address: string): void {
    if (this.addressOf.size >= this.maxWatchers) this.endOldestOfHeaviest();
    this.addressOf.set(page, address);
    this.heldBy.set(address, (this.heldBy.get(address) ?? 0) + 1);
    page.on('close', () => this.remove(page));
  }

  /** Ends every page's stream. */
  endAll(): void {
    for (const page of [...this.addressOf.keys()]) {
      this.remove(page);
      page.end();
    }
  }

  private mostHeld(): number {
    return Math.max(0, ...this.heldBy.values());
  }

  /** Of the addresses holding the most pages, the oldest page of any of them goes: ties go by age alone. */
  private endOldestOfHeaviest(): void {
    const most = this.mostHeld();
    for (const [page, address] of this.addressOf) {
      if (this.heldBy.get(address) !== most) continue;
      this.remove(page);
      page.end();
      return;
    }
  }

  /** A page ended here closes later: it is taken off at once, and its close finds it gone. */
  private remove(page: ServerResponse): void {
    const address = this.addressOf.get(page);
    if (address === undefined) return;
    this.addressOf.delete(page);
    const left = (this.heldBy.get(address) ?? 0) - 1;
    if (left > 0) this.heldBy.set(address, left);
    else this.heldBy.delete(address);
  }
}
