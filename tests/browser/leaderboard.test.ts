import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLeaderboardCsv } from '../../shared/relay/leaderboard.ts';
import { open, playground } from '../helpers/page.ts';
import { fetchWhole, UdpProbe } from '../helpers/udp.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('the leaderboard in Chromium', () => {
  it('lists each Submit as the relay grades it, ranked, and exports the CSV', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?view=leaderboard`);
    await page.getByText('Live: every Submit').waitFor();
    // Only a session that fetched the file is ranked, under one id: one session each.
    const wrong = await UdpProbe.open(Number(env.relay.info.offsetConstant.split(':')[1]));
    const right = await UdpProbe.open(Number(env.relay.info.offsetConstant.split(':')[1]));
    await Promise.all([fetchWhole(wrong), fetchWhole(right)]);
    wrong.send(`Submit: wrong@team\nMD5: ${'0'.repeat(32)}\n\n`);
    await wrong.answer(/^Result: /);
    await page.locator('[data-testid="leaderboard"] tbody tr').first().waitFor();
    right.send(`Submit: right@team\nMD5: ${env.relay.md5}\n\n`);
    await right.answer(/^Result: /);
    wrong.close();
    right.close();
    const rows = page.locator('[data-testid="leaderboard"] tbody tr');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="leaderboard"] tbody tr').length === 2);
    // ranked: the correct result first, though it came second
    expect(await rows.nth(0).locator('td').nth(1).innerText()).toBe('right@team');
    expect(await rows.nth(0).locator('td').nth(3).innerText()).toBe('true');
    expect(await rows.nth(1).locator('td').nth(1).innerText()).toBe('wrong@team');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="leaderboard"]').click()]);
    const file = join(mkdtempSync(join(tmpdir(), 'pipefill-')), 'board.csv');
    await download.saveAs(file);
    const { entries, rejected } = parseLeaderboardCsv(readFileSync(file, 'utf8'));
    expect(rejected).toBe(0);
    expect(entries.map((e) => [e.id, e.result, e.server])).toEqual([
      ['wrong@team', false, 'constant'],
      ['right@team', true, 'constant'],
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
