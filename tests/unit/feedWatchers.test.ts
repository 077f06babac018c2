import { describe, expect, it } from 'vitest';
import { FeedWatchers } from '../../server/feedWatchers.ts';

/** A page's response as the feed sees it: ended by the feed, or closed by the page; either way it closes. */
function page(name: string) {
  let closed = () => {};
  const p = {
    name,
    ended: false,
    on: (_event: 'close', f: () => void) => void (closed = f),
    end: () => {
      p.ended = true;
      closed();
    },
    leave: () => closed(),
  };
  return p;
}

/** Watches from `address` if the feed lets it; returns the refusal, or null once the page is in. */
function watch(feed: FeedWatchers, p: ReturnType<typeof page>, address: string) {
  const refusal = feed.refusal(address);
  if (!refusal) feed.add(p as never, address);
  return refusal;
}

const names = (feed: FeedWatchers) => [...feed.pages].map((p) => (p as unknown as { name: string }).name);

describe('the pages watching a live feed', () => {
  it('at the feed’s cap, a lighter address takes the place of the heaviest one’s oldest page; the heaviest is refused', () => {
    const feed = new FeedWatchers(4, 3);
    const a = [page('a1'), page('a2'), page('a3')];
    for (const p of a) expect(watch(feed, p, 'A')).toBe(null);
    expect(watch(feed, page('b1'), 'B')).toBe(null);
    expect(watch(feed, page('c1'), 'C')).toBe(null); // A holds 3 of 4, C none: a1 is ended
    expect([names(feed), a.map((p) => p.ended)]).toEqual([
      ['a2', 'a3', 'b1', 'c1'],
      [true, false, false],
    ]);
    expect(watch(feed, page('a4'), 'A')).toBe('full'); // A holds 2, more than any other
    expect(watch(feed, page('b2'), 'B')).toBe(null); // B holds 1 of A's 2: a2 is ended
    expect(names(feed)).toEqual(['a3', 'b1', 'c1', 'b2']);
  });

  it('of tied heaviest addresses the oldest page goes; an address at its share is refused before the cap is looked at', () => {
    const feed = new FeedWatchers(4, 2);
    for (const [name, address] of [
      ['a1', 'A'],
      ['b1', 'B'],
      ['b2', 'B'],
      ['a2', 'A'],
    ])
      watch(feed, page(name), address);
    expect(watch(feed, page('a3'), 'A')).toBe('address');
    expect(watch(feed, page('c1'), 'C')).toBe(null); // A and B hold 2 each: a1 is the older
    expect(names(feed)).toEqual(['b1', 'b2', 'a2', 'c1']);
    expect(watch(feed, page('c2'), 'C')).toBe(null); // B holds 2, A and C 1: b1 goes
    expect(watch(feed, page('c3'), 'C')).toBe('address');
    expect(names(feed)).toEqual(['b2', 'a2', 'c1', 'c2']);
  });

  it('a page that leaves gives its place back; ending all ends every page', () => {
    const feed = new FeedWatchers(2, 2);
    const [a1, a2] = [page('a1'), page('a2')];
    watch(feed, a1, 'A');
    watch(feed, a2, 'A');
    expect(watch(feed, page('a3'), 'A')).toBe('address');
    a1.leave();
    expect(names(feed)).toEqual(['a2']);
    const a4 = page('a4');
    expect(watch(feed, a4, 'A')).toBe(null);
    feed.endAll();
    expect([names(feed), a2.ended, a4.ended, a1.ended]).toEqual([[], true, true, false]);
  });
});
