import { describe, expect, it } from 'vitest';
import type { Summary } from '../../../shared/metrics/summary.ts';
import { offsetCaption } from '../../../web/teach/offsetCaption.ts';

type Offset = NonNullable<Summary['flows'][number]['offset']>;
const fetched = (o: Partial<Offset>) => ({ flows: [{ offset: { result: true, timeMs: 3528, boundMs: 2764, penalty: 2, duplicates: 1, squishes: 0, ...o } }] }) as unknown as Summary;

describe("the offset scenario's caption", () => {
  it("tells a whole fetch's time, the bound and the penalty", () => {
    expect(offsetCaption([{ name: 'A · Token pacer', summary: fetched({}) }])).toBe(
      'A · Token pacer: the whole file, MD5 right in 3.53 s (a perfectly paced client: 2.76 s), penalty 2, 1 duplicate request. The leaderboard ranks a right MD5 first, then less time, then a lower penalty.',
    );
  });

  it('says nothing of time or penalty for a fetch cut off before the server told them (no "NaN")', () => {
    const cut = fetched({ result: null, timeMs: Number.NaN, boundMs: Number.NaN, penalty: Number.NaN, duplicates: 0 });
    expect(offsetCaption([{ name: 'A · Token pacer', summary: cut }])).toBe(
      'A · Token pacer: no whole file yet, no penalty told (the server tells it with the result), 0 duplicate requests. The leaderboard ranks a right MD5 first, then less time, then a lower penalty.',
    );
  });

  it('tells the ERROR lines the server answered, each once, and none of the client’s own notes', () => {
    const refused = 'ERROR: Submit not kept: the relay cannot write its records (ENOSPC: no space left on device, write); Submit again later';
    const errors = [refused, refused, 'reply for an offset never asked: 2896', refused];
    expect(offsetCaption([{ name: 'A · Token pacer', summary: fetched({}), live: { md5: 'de70427b9e91bbd1023de6c53d3dda5c', errors } }])).toBe(
      `A · Token pacer: the whole file, MD5 right in 3.53 s (a perfectly paced client: 2.76 s), penalty 2, 1 duplicate request. The server answered “${refused}”. The leaderboard ranks a right MD5 first, then less time, then a lower penalty.`,
    );
  });

  it('a whole file the server gave no Result for is told so, not as a file still coming', () => {
    // a live fetch the server stopped answering with a Result: its figures from its log, the MD5 from the fetch
    const unanswered = fetched({ result: null, timeMs: Number.NaN, penalty: Number.NaN, duplicates: 0, md5: '' });
    expect(offsetCaption([{ name: 'A', summary: unanswered, live: { md5: 'de70427b9e91bbd1023de6c53d3dda5c', errors: [] } }])).toMatch(
      /^A: the whole file, no Result from the server, no penalty told/,
    );
  });
});
