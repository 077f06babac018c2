import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { FRAME_DATA, unframe } from '../../shared/bridge/protocol.ts';
import { openBridge, testRelay, until } from '../helpers/relay.ts';
import { fetchWhole, UdpProbe } from '../helpers/udp.ts';
import { tempDir } from '../helpers/tempDir.ts';

const portOf = (hostPort: string) => Number(hostPort.split(':')[1]);
const CHUNK = 1448;

/** A whole fetch from its own socket on `from`, then a Submit under `id`: resolves with its Result. */
async function submitFrom(relay: Relay, from: string, id: string): Promise<string | null> {
  const p = await UdpProbe.open(portOf(relay.info.offsetConstant), from);
  await fetchWhole(p);
  p.send(`Submit: ${id}\nMD5: ${relay.md5}\n\n`);
  const result = await p.answer(/^Result: /);
  p.close();
  return result;
}

/** The same through the bridge, for a page on `from`: the offset server hears it from the relay's own socket. */
async function submitThroughBridge(relay: Relay, from: string, id: string): Promise<string | undefined> {
  const { ws, got } = openBridge(relay.url, `target=${relay.info.offsetConstant}`, relay.url, { localAddress: from });
  await got.ready;
  const answer = async (head: RegExp, ms: number) => {
    const found = () =>
      got.frames
        .filter((f) => f[0] === FRAME_DATA)
        .map((f) => Buffer.from(unframe(f)!.payload).toString('latin1'))
        .find((f) => head.test(f));
    await until(() => found() !== undefined, ms);
    return found();
  };
  ws.send(Buffer.from('SendSize\n\n'));
  const size = Number(/Size: (\d+)/.exec((await answer(/^Size: /, 10_000)) ?? '')?.[1]);
  // A request finding no token is not answered: it is asked again until its chunk comes, within 10 s in all.
  const deadline = Date.now() + 10_000;
  for (let offset = 0; offset < size && Date.now() < deadline; offset += CHUNK) {
    do ws.send(Buffer.from(`Offset: ${offset}\nNumBytes: ${CHUNK}\n\n`));
    while (!(await answer(new RegExp(`^Offset: ${offset}\n`), 100)) && Date.now() < deadline);
  }
  ws.send(Buffer.from(`Submit: ${id}\nMD5: ${relay.md5}\n\n`));
  const result = await answer(/^Result: /, 10_000);
  ws.close();
  return result;
}

const idsOnBoard = async (relay: Relay) => [...new Set((await (await fetch(`${relay.url}/api/leaderboard`)).json()).map((e: { id: string }) => e.id))];

/** Opens the leaderboard's live feed from `from`: its status and body so far, and whether the relay has ended it. */
function watch(url: string, from: string): Promise<{ status: number; body: () => string; ended: () => boolean; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/leaderboard/events`, { localAddress: from }, (res) => {
      let body = '';
      let ended = false;
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => (ended = true));
      resolve({ status: res.statusCode ?? 0, body: () => body, ended: () => ended, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('one address cannot push the class off the leaderboard', () => {
  it('past the board’s ids, a flood of ids from 127.0.0.1 pushes out its own; students on 127.0.0.2 (UDP) and 127.0.0.3 (a bridged page) stay, across a restart', async () => {
    const file = join(tempDir('pipefill-fair-'), 'records.jsonl');
    const relay = await testRelay({ fileSize: 3 * CHUNK, boardIds: 4, leaderboardFile: file });
    expect(await submitFrom(relay, '127.0.0.2', 'ann@red')).toMatch(/^Result: true\n/);
    expect(await submitThroughBridge(relay, '127.0.0.3', 'bob@blue')).toMatch(/^Result: true\n/);
    for (let i = 0; i < 4; i++) expect(await submitFrom(relay, '127.0.0.1', `fake${i}@flood`)).toMatch(/^Result: true\n/);
    // fake2 made five ids, 127.0.0.1 holding 3: fake0 went, then fake1. Counted as 127.0.0.1 (the bridge's
    // socket), bob's id would have gone instead.
    expect(await idsOnBoard(relay)).toEqual(['ann@red', 'bob@blue', 'fake2@flood', 'fake3@flood']);
    await relay.close();
    const journaled = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journaled.map((r) => [r.id, r.address])).toEqual([['ann@red', '127.0.0.2'], ['bob@blue', '127.0.0.3'], ...[0, 1, 2, 3].map((i) => [`fake${i}@flood`, '127.0.0.1'])]);
    const again = await testRelay({ boardIds: 4, leaderboardFile: file, singleThread: true });
    expect(await idsOnBoard(again)).toEqual(['ann@red', 'bob@blue', 'fake2@flood', 'fake3@flood']);
    await again.close();
  });
});

describe('a few addresses cannot fill the leaderboard’s live feed', () => {
  it('256 pages of 127.0.0.1 fill the live feed: a page of 127.0.0.2 still gets in, ending 127.0.0.1’s oldest; 127.0.0.1’s next is refused', async () => {
    const relay = await testRelay({ singleThread: true, maxFeedsPerClient: 300 });
    const flood: Awaited<ReturnType<typeof watch>>[] = [];
    for (let i = 0; i < 256; i++) flood.push(await watch(relay.url, '127.0.0.1'));
    expect(flood.every((w) => w.status === 200)).toBe(true);
    const student = await watch(relay.url, '127.0.0.2');
    expect(student.status).toBe(200);
    expect(await until(() => flood[0].ended(), 5000)).toBe(true);
    expect(flood.slice(1).some((w) => w.ended())).toBe(false);
    const next = await watch(relay.url, '127.0.0.1');
    expect(next.status).toBe(503);
    expect(await until(() => next.ended(), 5000)).toBe(true);
    expect(next.body()).toBe('too many pages are watching the leaderboard\n');
    expect(student.ended()).toBe(false);
    for (const w of [...flood, student, next]) w.close();
    await relay.close();
  });
});
