import { describe, expect, it } from 'vitest';
import { generateFile } from '../../shared/offset/file.ts';
import { md5Hex } from '../../shared/offset/md5.ts';
import type { OffsetServer, OffsetServerOptions } from '../../server/offsetServer.ts';
import { DEFAULT_RELAY } from '../../server/relayOptions.ts';
import { testOffsetServer } from '../helpers/offsetServer.ts';
import { until } from '../helpers/relay.ts';
import { fetchWhole, UdpProbe } from '../helpers/udp.ts';

/**
 * The offset server under a flood from one address (127.0.0.1): a student's session on 127.0.0.2 keeps
 * its run, and the flood draws no more than its share of sessions and bytes.
 */

const FILE = generateFile(20_000, 4);
const MD5 = md5Hex(FILE);
const start = (extra: Partial<OffsetServerOptions>) => testOffsetServer({ loss: 0 }, { file: FILE, ...extra });

/** Probes from `from` that each send one SendSize at once; resolves once the server has handled them all. */
async function newcomers(server: OffsetServer, n: number, from = '127.0.0.1'): Promise<UdpProbe[]> {
  const before = server.handled;
  const probes = await Promise.all(Array.from({ length: n }, () => UdpProbe.open(server.port, from)));
  for (const p of probes) p.send('SendSize\n\n');
  await until(() => server.handled >= before + n, 10_000);
  return probes;
}

/** How many of the probes got an answer (replies are sent as the datagram is handled: any is on its way). */
async function answered(probes: UdpProbe[]): Promise<number> {
  const got = await Promise.all(probes.map((p) => p.drain(100)));
  return got.filter((g) => g.length > 0).length;
}

const submit = async (p: UdpProbe) => {
  p.send(`Submit: victim@class\nMD5: ${MD5}\n\n`);
  return (await p.answer(/^Result: /)) ?? '';
};

describe('offset server: a session that was served data is never displaced by newcomers', () => {
  for (const tournament of [false, true]) {
    it(`a full table of served sessions refuses 200 newcomers; the victim's Submit keeps its time${tournament ? ' (tournament)' : ''}`, async () => {
      const server = await start({ maxSessions: 3, tournament });
      const victim = await UdpProbe.open(server.port, '127.0.0.2');
      await fetchWhole(victim);
      const others = await Promise.all([0, 1].map(() => UdpProbe.open(server.port)));
      others[0].send('SendSize\n\n'); // a session never served: the one a newcomer may take the place of
      expect(await others[0].answer(/^Size: /)).not.toBeNull();
      const first = await newcomers(server, 1);
      expect(await answered(first)).toBe(1);
      await fetchWhole(first[0]);
      await fetchWhole(others[1]).catch(() => {}); // refused: the table holds three served sessions
      const flood = await newcomers(server, 200);
      expect(await answered(flood)).toBe(0);
      expect(server.refused.full).toBeGreaterThanOrEqual(200);
      expect(await submit(victim)).toMatch(/^Result: true\nTime: [1-9]\d*\n/);
      for (const p of [victim, ...others, ...first, ...flood]) p.close();
      await server.close();
    });
  }

  it('outside a tournament a session idle past its time makes room; in one it never does', async () => {
    for (const tournament of [false, true]) {
      const server = await start({ maxSessions: 1, idleMs: 200, tournament });
      const victim = await UdpProbe.open(server.port, '127.0.0.2');
      await fetchWhole(victim);
      await new Promise((r) => setTimeout(r, 400)); // past the idle time
      const late = await newcomers(server, 1);
      expect(await answered(late), `tournament ${tournament}`).toBe(tournament ? 0 : 1);
      for (const p of [victim, ...late]) p.close();
      await server.close();
    }
  });
});

describe('offset server: one source address holds its share', () => {
  it('past --max-server-sessions-per-client new ports of 127.0.0.1 get nothing; 127.0.0.2 is answered', async () => {
    const server = await start({ maxSessionsPerAddress: 5 });
    const flood = await newcomers(server, 8);
    expect(await answered(flood)).toBe(5);
    expect(server.refused.perAddress).toBe(3);
    const victim = await newcomers(server, 1, '127.0.0.2');
    expect(await answered(victim)).toBe(1);
    for (const p of [...flood, ...victim]) p.close();
    await server.close();
  });

  it('past --max-server-bytes-per-client replies to 127.0.0.1 stop, at most a second of budget in a burst; 127.0.0.2 is answered', async () => {
    const budget = 30_000;
    const server = await start({ maxBytesPerAddress: budget });
    const flood = await Promise.all(Array.from({ length: 20 }, () => UdpProbe.open(server.port)));
    // Each session asks for a chunk every 4 ms, as fast as its tokens come: 20 × 250 replies/s, 7 MB/s without a budget.
    const t0 = performance.now();
    const before = server.handled;
    for (let round = 0; round < 100; round++) {
      for (const p of flood) p.send(`Offset: ${(round % 13) * 1448}\nNumBytes: 1448\n\n`);
      await new Promise((r) => setTimeout(r, 4));
    }
    await until(() => server.handled >= before + 2000, 10_000);
    const elapsed = performance.now() - t0;
    const bytes = (await Promise.all(flood.map((p) => p.drain(100)))).flat().reduce((n, b) => n + b.length, 0);
    expect(bytes).toBeLessThanOrEqual(budget + (budget * elapsed) / 1000 + 1500);
    expect(server.refused.budget).toBeGreaterThan(1000);
    const victim = await UdpProbe.open(server.port, '127.0.0.2');
    victim.send('SendSize\n\n');
    expect(await victim.answer(/^Size: /)).not.toBeNull();
    for (const p of [...flood, victim]) p.close();
    await server.close();
  });
});

describe('offset server: sockets of one address gone quiet do not lock out the others behind it', () => {
  it('200 sockets of 127.0.0.1 served a chunk each fill its share; once silent --server-quiet, a fresh socket of 127.0.0.1 fetches; 127.0.0.2 fetches throughout', async () => {
    // The server's clock is moved ahead by the test, so that "silent for quietMs" is a fact of that clock,
    // not a wait; quietMs is long enough that no flood socket falls silent by the real clock meanwhile.
    let ahead = 0;
    const clock = () => performance.timeOrigin + performance.now() + ahead;
    const quietMs = 30_000;
    const server = await start({ clock, quietMs });
    const share = DEFAULT_RELAY.maxServerSessionsPerClient;
    const student = await UdpProbe.open(server.port, '127.0.0.2');
    const studentFetch = fetchWhole(student);
    const flood = await Promise.all(Array.from({ length: 200 }, () => UdpProbe.open(server.port)));
    const refused = 200 - share;
    for (const p of flood) p.send('SendSize\n\n');
    const holding = () => flood.filter((p) => server.policy.session(`127.0.0.1:${p.socket.address().port}`));
    expect(await until(() => server.refused.perAddress >= refused && holding().length >= share, 10_000)).toBe(true);
    expect(server.refused.perAddress).toBe(refused);
    const held = holding();
    expect(held.length).toBe(share);
    ahead += 20; // five tokens for each session
    for (const p of flood) p.send('Offset: 0\nNumBytes: 1448\n\n');
    const served = await Promise.all(held.map((p) => p.answer(/^Offset: 0\n/)));
    expect(served.filter((a) => a !== null).length).toBe(share);
    expect(await until(() => server.refused.perAddress >= 2 * refused, 10_000)).toBe(true);
    const [fresh] = await newcomers(server, 1);
    expect(await answered([fresh])).toBe(0);
    expect(server.refused.perAddress).toBe(2 * refused + 1);

    ahead += quietMs;
    fresh.send('SendSize\n\n');
    expect(await fresh.answer(/^Size: /)).not.toBeNull();
    await fetchWhole(fresh);
    expect(await submit(fresh)).toMatch(/^Result: true\nTime: [1-9]\d*\n/);
    await studentFetch;
    expect(await submit(student)).toMatch(/^Result: true\nTime: [1-9]\d*\n/);
    expect(server.refused.full).toBe(0);
    for (const p of [student, fresh, ...flood]) p.close();
    await server.close();
  });
});
