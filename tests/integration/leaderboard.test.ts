import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLeaderboardCsv } from '../../shared/relay/leaderboard.ts';
import { getFrom, testRelay, until } from '../helpers/relay.ts';
import { fetchWhole, UdpProbe } from '../helpers/udp.ts';
import { tempDir } from '../helpers/tempDir.ts';

const portOf = (hostPort: string) => Number(hostPort.split(':')[1]);

describe('tournament and leaderboard', () => {
  it('keeps every ranked Submit with its grade, streams it live and exports CSV; tournament mode ignores Reset', async () => {
    const relay = await testRelay({ tournament: true });
    expect(await (await fetch(`${relay.url}/api/relay`)).json()).toMatchObject({ tournament: true });
    const events: string[] = [];
    const controller = new AbortController();
    const stream = await fetch(`${relay.url}/api/leaderboard/events`, { signal: controller.signal });
    const reader = stream.body!.getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        events.push(new TextDecoder().decode(value));
      }
    })();
    const p = await UdpProbe.open(portOf(relay.info.offsetConstant));
    p.send('SendSize\n\n');
    await p.answer(/^Size: /);
    await new Promise((r) => setTimeout(r, 200));
    p.send('SendSize\nReset\n\n'); // ignored in a tournament
    await p.answer(/^Size: /);
    await fetchWhole(p);
    p.send(`Submit: ann@red, "quoted"\nMD5: ${relay.md5}\n\n`);
    const reply = (await p.answer(/^Result: /))!;
    expect(reply).toMatch(/^Result: true\nTime: \d+\nPenalty: \d+\n\n$/);
    expect(Number(/Time: (\d+)/.exec(reply)![1])).toBeGreaterThanOrEqual(200);
    p.send(`Submit: ann@red, "quoted"\nMD5: ${'0'.repeat(32)}\n\n`);
    await p.answer(/^Result: /);
    expect(await until(() => events.join('').split('\n\n').length >= 4)).toBe(true);
    const all = await (await fetch(`${relay.url}/api/leaderboard`)).json();
    expect(all).toMatchObject([
      { id: 'ann@red, "quoted"', result: true, server: 'constant' },
      { id: 'ann@red, "quoted"', result: false, server: 'constant' },
    ]);
    expect(events.join('')).toMatch(/^event: all\ndata: \[\]\n\ndata: \{"id":"ann@red, \\"quoted\\""/);
    const csv = await (await fetch(`${relay.url}/api/leaderboard.csv`)).text();
    expect(csv.split('\n')[0]).toBe('at,server,id,result,time,penalty');
    expect(parseLeaderboardCsv(csv).entries.map((e) => e.result)).toEqual([true, false]);
    controller.abort();
    p.close();
    await relay.close();
  });

  it('--leaderboard FILE keeps the board across restarts; a CSV of old becomes a journal of the same rows, bad rows counted and left out', async () => {
    const file = join(tempDir('pipefill-board-'), 'board.csv');
    const csv = 'at,server,id,result,time,penalty\n2026-01-01T00:00:00.000Z,variable,old@team,true,9000,3\nnot,a,row,maybe,x,y\n';
    writeFileSync(file, csv);
    const first = await testRelay({ leaderboardFile: file });
    expect(first.lines.at(-1)).toBe(`records         ${file} (1 Submit kept; 1 row read from its CSV (copied to ${file}.before-records.csv; 1 row left out (not Submits)))`);
    expect(readFileSync(`${file}.before-records.csv`, 'utf8')).toBe(csv);
    const p = await UdpProbe.open(portOf(first.info.offsetVariable));
    await fetchWhole(p);
    p.send(`Submit: new@team\nMD5: ${first.md5}\n\n`);
    await p.answer(/^Result: /);
    p.close();
    await first.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect([lines.length, lines[0], JSON.parse(lines[1]).id]).toEqual([
      3,
      '{"kind":"submit","id":"old@team","result":true,"time":9000,"penalty":3,"at":"2026-01-01T00:00:00.000Z","server":"variable"}',
      'new@team',
    ]);
    // Reading the board back involves no offset server: those stay in this thread, to spare starting two.
    const second = await testRelay({ leaderboardFile: file, singleThread: true });
    expect((await (await fetch(`${second.url}/api/leaderboard`)).json()).map((e: { id: string }) => e.id)).toEqual(['old@team', 'new@team']);
    await second.close();
    const fresh = await testRelay({ singleThread: true });
    expect(await (await fetch(`${fresh.url}/api/leaderboard`)).json()).toEqual([]);
    await fresh.close();
  });

  it('ranks only a session served the file’s size, its first three Submits under its first ranked id, and answers every Submit as the course server does', async () => {
    const relay = await testRelay({ singleThread: true });
    const cheat = await UdpProbe.open(portOf(relay.info.offsetConstant));
    cheat.send(`Submit: quick@cheat\nMD5: ${relay.md5}\n\n`);
    expect(await cheat.answer(/^Result: /)).toBe('Result: true\nTime: 0\nPenalty: 0\n\n');
    const honest = await UdpProbe.open(portOf(relay.info.offsetConstant));
    await fetchWhole(honest);
    // One fetch ranks its first three Submits under the id it first ranked; the others are answered alike.
    for (const id of ['ann@honest', 'bob@other', 'ann@honest', 'ann@honest', 'ann@honest']) {
      honest.send(`Submit: ${id}\nMD5: ${relay.md5}\n\n`);
      expect(await honest.answer(/^Result: /)).toMatch(/^Result: true\n/);
    }
    expect((await (await fetch(`${relay.url}/api/leaderboard`)).json()).map((e: { id: string }) => e.id)).toEqual(['ann@honest', 'ann@honest', 'ann@honest']);
    cheat.close();
    honest.close();
    await relay.close();
  });

  it('answers HEAD on the live feed and leaves it; pages past the cap from one address, loopback too, are refused while another address watches', async () => {
    const relay = await testRelay({ singleThread: true, maxFeedsPerClient: 2 });
    const head = await fetch(`${relay.url}/api/leaderboard/events`, { method: 'HEAD', signal: AbortSignal.timeout(3000) });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const feed = `${relay.url}/api/leaderboard/events`;
    const watching = [];
    for (let i = 0; i < 4; i++) watching.push(await getFrom(feed, '127.0.0.1'));
    expect(watching.map((r) => r.status)).toEqual([200, 200, 503, 503]);
    const other = await getFrom(feed, '127.0.0.2');
    expect(other.status).toBe(200);
    for (const w of [...watching, other]) w.close();
    await relay.close();
  });
});
