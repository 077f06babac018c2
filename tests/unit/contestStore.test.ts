import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContestStore } from '../../server/contest/store.ts';
import { openJournal } from '../../server/records/journal.ts';
import { tempDir } from '../helpers/tempDir.ts';

const TRACES = [{ trace: 'Verizon-LTE-short', heldOut: false }];
const SCORE = { trace: 'Verizon-LTE-short', throughputMbps: 2, delay95: 100, power: 20, score: 1 };
/** The code each submission record keeps in memory, by submission. */
const codes = (store: { journal: ReturnType<typeof openJournal> }) =>
  Object.fromEntries(store.journal.records().flatMap((r) => (r.kind === 'contest-submission' ? [[r.submission, r.code ?? null]] : [])));

describe("the contest store's memory", () => {
  it("keeps a submission's code only until it is scored or failed, in its entry and in the journal's records, and after a restart", async () => {
    const path = join(tempDir('pipefill-contest-store-'), 'records.jsonl');
    const journal = openJournal(path);
    const store = new ContestStore(TRACES, false, journal);
    const a = await store.accept('ann@red', '10.0.0.1', 'export default {} // a', null);
    const b = await store.accept('bob@red', '10.0.0.1', 'export default {} // b', null);
    const c = await store.accept('cat@red', '10.0.0.1', 'export default {} // c', null);
    store.settle(a.entry, 'running');
    store.settle(a.entry, 'scored', [SCORE]);
    store.settle(b.entry, 'failed', [], { error: 'on Verizon-LTE-short: your controller: Error: x' });
    // records being written are no trouble: the next submission is taken
    expect([journal.backlog() > 0, store.diskTrouble()]).toEqual([true, null]);
    expect([a.entry.code, b.entry.code, c.entry.code]).toEqual([null, null, 'export default {} // c']);
    expect(codes({ journal })).toEqual({ [a.entry.submission]: null, [b.entry.submission]: null, [c.entry.submission]: 'export default {} // c' });
    await journal.drained();

    const reopened = openJournal(path);
    const again = new ContestStore(TRACES, false, reopened);
    const waiting = again.replay();
    expect(waiting.map((e) => [e.submission, e.code])).toEqual([[c.entry.submission, 'export default {} // c']]);
    expect(codes({ journal: reopened })).toEqual({ [a.entry.submission]: null, [b.entry.submission]: null, [c.entry.submission]: 'export default {} // c' });
    expect(again.view(a.entry.submission, () => false)).toEqual({ status: 'scored', traces: [SCORE] });
    // the failure's text is its own address's
    expect(again.view(b.entry.submission, (address) => address === '10.0.0.1')).toMatchObject({ status: 'failed', error: 'on Verizon-LTE-short: your controller: Error: x' });
    expect(again.view(b.entry.submission, (address) => address === '10.0.0.2')).toMatchObject({ error: 'it failed: what it said is shown only to the address it came from' });
  });

  it('ranks ids of the same score alike, in the order they got it, and the next by how many came before it', async () => {
    const store = new ContestStore(TRACES, false, null);
    const scored = async (id: string, score: number) => store.settle((await store.accept(id, '10.0.0.1', 'export default {}', null)).entry, 'scored', [{ ...SCORE, score }]);
    await scored('ann@red', 1);
    await scored('bob@red', 2);
    await scored('cat@red', 1);
    await scored('dan@red', 0.5);
    await scored('eve@red', 2);
    expect(store.board().rows.map((r) => [r.rank, r.id, r.overall])).toEqual([
      [1, 'bob@red', 2],
      [1, 'eve@red', 2],
      [3, 'ann@red', 1],
      [3, 'cat@red', 1],
      [5, 'dan@red', 0.5],
    ]);
  });

  it('tells the ids waiting for a score from those whose every submission failed', async () => {
    const store = new ContestStore(TRACES, false, null);
    const accept = async (id: string) => (await store.accept(id, '10.0.0.1', 'export default {}', null)).entry;
    const ann = await accept('ann@red');
    const bob = await accept('bob@red');
    const cat = await accept('cat@red');
    const dan = await accept('dan@red');
    store.settle(ann, 'scored', [SCORE]);
    store.settle(bob, 'failed', [], { error: 'x' });
    store.settle(cat, 'running');
    store.settle(dan, 'failed', [], { error: 'x' });
    await store.accept('dan@red', '10.0.0.1', 'export default {}', 'dan-token-unused');
    const board = store.board();
    expect(board.rows.map((r) => r.id)).toEqual(['ann@red']);
    expect(board.pending.map((p) => [p.id, p.attempts.map((a) => a.status)])).toEqual([
      ['cat@red', ['running']],
      ['dan@red', ['failed', 'queued']],
    ]);
    expect(board.failed.map((p) => [p.id, p.attempts.map((a) => a.status)])).toEqual([['bob@red', ['failed']]]);
  });

  it('keeps who created each id and sent each submission across a restart: the bound on ids and the turns by address hold', async () => {
    const path = join(tempDir('pipefill-contest-store-'), 'records.jsonl');
    const journal = openJournal(path);
    const store = new ContestStore(TRACES, false, journal);
    const ann = await store.accept('ann@red', '10.0.0.1', 'export default {}', null);
    await store.accept('bob@red', '10.0.0.1', 'export default {}', null);
    await store.accept('cat@red', '10.0.0.2', 'export default {}', null);
    await store.accept('ann@red', '10.0.0.3', 'export default {}', ann.token); // a known id's submission creates none
    expect(['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((a) => store.idsCreatedFrom(a))).toEqual([2, 1, 0]);
    await journal.drained();

    const again = new ContestStore(TRACES, false, openJournal(path));
    expect(again.replay().map((e) => [e.id, e.address])).toEqual([
      ['ann@red', '10.0.0.1'],
      ['bob@red', '10.0.0.1'],
      ['cat@red', '10.0.0.2'],
      ['ann@red', '10.0.0.3'],
    ]);
    expect(['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((a) => again.idsCreatedFrom(a))).toEqual([2, 1, 0]);
  });
});
