import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { relayMain } from '../../server/main.ts';
import { readJournal } from '../../server/records/journal.ts';
import { leaderboardCsv, parseLeaderboardCsv, type LeaderboardEntry } from '../../shared/relay/leaderboard.ts';
import { runInProcess } from '../helpers/cli.ts';
import { openBridge } from '../helpers/relay.ts';
import { killRelayChildren, offsetClient, type RelayChild, startRelayChild } from '../helpers/relayChild.ts';
import { tempDir } from '../helpers/tempDir.ts';

afterEach(killRelayChildren);

/** A one-chunk file every request of which is served: a session is ranked after one data request. */
const QUICK = ['--file-size', '1448', '--loss', '0'];
const folder = () => tempDir('pipefill-records-');
const submitsIn = (file: string) => readJournal(file).records.filter((r) => r.kind === 'submit');

/**
 * Sessions, `parallel` at once, each fetching the file and then Submitting three times under an id of its
 * own, until `budget` Submits were sent or `stop()`; counts the Submits answered `Result:` per id, and keeps
 * the ERROR answers that refused one.
 */
async function burst(relay: RelayChild, o: { prefix: string; budget: number; parallel: number; answered: Map<string, number>; after?: (answers: number) => void; stop?: () => boolean }) {
  let sent = 0;
  let answers = 0;
  const refusals: string[] = [];
  let sessions = 0;
  const worker = async () => {
    while (sent < o.budget && !o.stop?.()) {
      const id = `${o.prefix}${sessions++}@burst`;
      const client = await offsetClient(relay.constant);
      if (await client.fetchWhole())
        for (let k = 0; k < 3 && sent < o.budget && !o.stop?.(); k++) {
          sent++;
          const answer = await client.submit(id, relay.md5);
          if (!answer) break;
          if (answer.startsWith('ERROR: ')) {
            refusals.push(answer);
            continue;
          }
          o.answered.set(id, (o.answered.get(id) ?? 0) + 1);
          answers++;
          o.after?.(answers);
        }
      client.close();
    }
  };
  await Promise.all(Array.from({ length: o.parallel }, worker));
  return { sent, answers, refusals };
}

/** Answered Submits whose records are missing from the file. */
function lost(file: string, answered: Map<string, number>): number {
  const kept = new Map<string, number>();
  for (const r of submitsIn(file)) kept.set(r.id as string, (kept.get(r.id as string) ?? 0) + 1);
  return [...answered].reduce((n, [id, count]) => n + Math.max(0, count - (kept.get(id) ?? 0)), 0);
}

describe('records that are never lost', () => {
  it('kill -9 three times in a burst of 500 Submits: every Submit answered is in the records on restart', async () => {
    const data = folder();
    const file = join(data, 'records.jsonl');
    const answered = new Map<string, number>();
    let sent = 0;
    let answers = 0;
    // Killed once 120, 250 and 380 Submits of the burst are answered; the fourth relay takes the rest.
    for (const [round, killAt] of [120, 250, 380, Number.POSITIVE_INFINITY].entries()) {
      const relay = await startRelayChild(['--data', data, ...QUICK]);
      let killed: Promise<void> | null = null;
      const r = await burst(relay, {
        prefix: `k${round}s`,
        budget: 500 - sent,
        parallel: 16,
        answered,
        after: () => void (++answers === killAt && (killed = relay.kill9())),
        stop: () => killed !== null,
      });
      sent += r.sent;
      if (killed) await killed;
      else await relay.stop();
      expect(Boolean(killed), `round ${round}`).toBe(round < 3);
    }
    expect([sent, answers >= 500 - 3 * 16]).toEqual([500, true]);
    const relay = await startRelayChild(['--data', data, ...QUICK]);
    expect(relay.out()).toContain(`records         ${file} (`);
    expect(lost(file, answered)).toBe(0);
    console.log(`kill -9 ×3 in a burst of ${sent} Submits: ${answers} answered, ${lost(file, answered)} answered and lost`);
    await relay.stop();
  }, 120_000);
});

interface Fillable {
  path: string;
  /** Where the records written so far are while the disk refuses more. */
  written: string;
  fill(): void;
  free(): void;
  unmount(): void;
}

/**
 * A data folder whose disk the test can fill and free: a small file system of its own where mounting is
 * allowed (as root); elsewhere a write error of another kind, a folder put where the records file is
 * (EISDIR, which binds root too, unlike a read-only file), and the file put back to free it.
 */
function fillableFolder(): Fillable {
  const path = folder();
  const file = join(path, 'records.jsonl');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', path], { stdio: 'ignore' });
  } catch {
    const aside = `${file}.aside`;
    const fill = () => (renameSync(file, aside), mkdirSync(file));
    const free = () => (rmdirSync(file), renameSync(aside, file));
    return { path, written: aside, fill, free, unmount: () => {} };
  }
  const filler = join(path, 'filler');
  return {
    path,
    written: file,
    fill() {
      try {
        writeFileSync(filler, Buffer.alloc(1 << 20));
      } catch {
        // the disk is full: as meant
      }
    },
    free: () => rmSync(filler),
    // Lazily: a relay just killed may not have let go of the folder yet.
    unmount: () => execFileSync('umount', ['-l', path]),
  };
}

/** Whether the relay still serves HTTP, the bridge, the offset server over UDP and the echo server over TCP. */
async function serving(relay: RelayChild): Promise<Record<string, boolean>> {
  const http = (await fetch(`${relay.url}/api/leaderboard`)).status === 200;
  const { ws, got } = openBridge(relay.url, `target=127.0.0.1:${relay.constant}`);
  await got.ready;
  ws.send(Buffer.from('SendSize\n\n'));
  const bridge = await new Promise<boolean>((r) => ws.once('message', (_data, binary) => r(binary)));
  ws.close();
  const client = await offsetClient(relay.constant);
  const udp = await client.fetchWhole();
  client.close();
  const echo = await new Promise<boolean>((resolve) => {
    const message = Buffer.alloc(100, 7);
    message.writeUInt16BE(100, 0);
    const s = connect(relay.echo, '127.0.0.1', () => s.write(message));
    let back = Buffer.alloc(0);
    s.on('data', (d) => {
      back = Buffer.concat([back, d]);
      if (back.length >= 100) resolve(back.equals(message) && (s.end(), true));
    });
    s.on('error', () => resolve(false));
  });
  return { http, bridge, udp, echo };
}

const recordsState = async (relay: RelayChild) => (await (await fetch(`${relay.url}/api/relay`)).json()).records;

describe('records on a disk that fills', () => {
  let disk: Fillable | null = null;
  // A test that times out skips its own cleanup.
  afterAll(() => {
    try {
      disk?.unmount();
    } catch {
      // unmounted already
    }
  });
  it('the relay keeps serving, answers Result only for what is on disk and ERROR for the rest, says so, and writes what it holds once the disk takes it', async () => {
    disk = fillableFolder();
    const { path, fill, free, written } = disk;
    const file = join(path, 'records.jsonl');
    const relay = await startRelayChild(['--data', path, ...QUICK]);
    const answered = new Map<string, number>();
    await burst(relay, { prefix: 'before', budget: 9, parallel: 3, answered });
    fill();
    const full = await burst(relay, { prefix: 'full', budget: 70, parallel: 8, answered });
    expect([full.sent, full.answers + full.refusals.length], relay.out()).toEqual([70, 70]);
    // What fits in the file's last block of the full disk is written and answered Result; what came as the
    // first write failed is held and refused; what came after is refused without being held.
    const held = await recordsState(relay);
    expect(held).toMatchObject({ error: expect.stringMatching(/^(ENOSPC|EISDIR)/) });
    expect([held.backlog > 0, submitsIn(written).length, held.kept]).toEqual([true, 9 + full.answers, 9 + full.answers + held.backlog]);
    expect(lost(written, answered)).toBe(0);
    expect(full.refusals[0]).toMatch(/^ERROR: Submit not kept: the relay cannot write its records \((ENOSPC|EISDIR)[^/]*\); Submit again later\n\n$/);
    expect(relay.out()).toMatch(/records: cannot write .*records\.jsonl \((ENOSPC|EISDIR).*not acknowledged/);
    expect(await serving(relay)).toEqual({ http: true, bridge: true, udp: true, echo: true });
    // A session's refused Submits leave its ranked ones (three) for later: resent five times, each is refused,
    // none answered with a Result that nothing on disk stands for
    const resending = await offsetClient(relay.constant);
    expect(await resending.fetchWhole()).toBe(true);
    const again = [];
    for (let k = 0; k < 5; k++) again.push(await resending.submit('again@full', relay.md5));
    expect(again.map((a) => a?.slice(0, 24))).toEqual(Array(5).fill('ERROR: Submit not kept: '));
    free();
    // The next retry (within a second) writes the backlog; the status says when.
    for (let t = Date.now(); (await recordsState(relay)).backlog > 0 && Date.now() - t < 20_000; ) await new Promise((r) => setTimeout(r, 100));
    expect(await recordsState(relay)).toEqual({ kept: held.kept, backlog: 0, error: null });
    expect(relay.out()).toContain('writable again');
    // the same session's Submit is kept now, and answered
    expect(await resending.submit('again@full', relay.md5)).toMatch(/^Result: true/);
    resending.close();
    await relay.kill9();
    expect([lost(file, answered), readJournal(file).skipped, submitsIn(file).filter((r) => r.id === 'again@full').length]).toEqual([0, 0, 1]);
    console.log(
      `full disk: ${full.answers} of ${full.sent} Submits answered Result while it was full (${full.refusals.length} refused, ${held.backlog} of them held), ${lost(file, answered)} answered and lost`,
    );
  }, 60_000);
});

describe('records across restarts', () => {
  const entry = (i: number): LeaderboardEntry => ({ id: `s${i}@class`, result: i % 2 === 0, time: 3000 + i, penalty: i % 7, at: '2026-11-20T10:00:00.000Z', server: 'constant' });

  it('a restart with more than 500 ids keeps every row, from a CSV of old too, and the board shows 500', async () => {
    const file = join(folder(), 'board.csv');
    writeFileSync(file, leaderboardCsv(Array.from({ length: 620 }, (_, i) => entry(i))));
    const first = await startRelayChild(['--leaderboard', file, ...QUICK]);
    expect(first.out()).toContain(`(620 Submits kept; 620 rows read from its CSV (copied to ${file}.before-records.csv))`);
    expect(new Set((await (await fetch(`${first.url}/api/leaderboard`)).json()).map((e: LeaderboardEntry) => e.id)).size).toBe(500);
    const client = await offsetClient(first.constant);
    await client.fetchWhole();
    expect(await client.submit('late@class', first.md5)).toMatch(/^Result: true/);
    client.close();
    await first.stop();
    expect(submitsIn(file).length).toBe(621);
    const second = await startRelayChild(['--leaderboard', file, ...QUICK]);
    expect(second.out()).toContain(`${file} (621 Submits kept)`);
    const csv = parseLeaderboardCsv(await (await fetch(`${second.url}/api/leaderboard.csv`)).text());
    expect([csv.entries.length, csv.entries[0], csv.entries[620].id]).toEqual([621, entry(0), 'late@class']);
    // An id the board no longer shows still has its attempts.
    expect(await (await fetch(`${second.url}/api/leaderboard/attempts?id=s0@class`)).json()).toEqual([entry(0)]);
    await second.stop();
    expect(submitsIn(file).length).toBe(621);
  }, 60_000);

  it('tolerates a torn last line: reports it, keeps it, and appends on a line of its own', async () => {
    const file = join(folder(), 'records.jsonl');
    const whole = [0, 1, 2].map((i) => JSON.stringify({ kind: 'submit', ...entry(i) })).join('\n');
    writeFileSync(file, `${whole}\n{"kind":"submit","id":"to`);
    const relay = await startRelayChild(['--leaderboard', file, ...QUICK]);
    expect(relay.out()).toContain(`${file} (3 Submits kept; 1 line that is not a record skipped, the last one torn)`);
    const client = await offsetClient(relay.constant);
    await client.fetchWhole();
    expect(await client.submit('after@crash', relay.md5)).toMatch(/^Result: true/);
    client.close();
    await relay.kill9();
    expect(readFileSync(file, 'utf8').startsWith(`${whole}\n{"kind":"submit","id":"to\n{"kind":"submit","id":"after@crash",`)).toBe(true);
    const again = await startRelayChild(['--leaderboard', file, ...QUICK]);
    expect(again.out()).toContain(`${file} (4 Submits kept; 1 line that is not a record skipped)`);
    await again.stop();
  }, 60_000);

  it('a records path that cannot be one stops the relay before it starts, saying which flag to check', async () => {
    const notAFolder = join(folder(), 'file');
    writeFileSync(notAFolder, '');
    const neverStopped = () => Promise.reject(new Error('the relay started'));
    const ports = ['--http-port', '0', '--udp-port', '0', '--variable-port', '0', '--echo-port', '0'];
    const r = await runInProcess('relay', (argv, io) => relayMain(argv, io, neverStopped), ['--data', notAFolder, ...ports]);
    expect([r.code, r.stderr]).toEqual([1, `relay: EEXIST: file already exists, mkdir '${notAFolder}' (check the --data path: it must be a folder)\n`]);
  });
});
