import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLeaderboardCsv } from '../../shared/relay/leaderboard.ts';
import { open, playground } from '../helpers/page.ts';
import { fetchWhole, UdpProbe } from '../helpers/udp.ts';
import { tempDir } from '../helpers/tempDir.ts';

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
    // a variable-rate fetch is ranked among its own server's, after the constant server's board
    const variable = await UdpProbe.open(Number(env.relay.info.offsetVariable.split(':')[1]));
    await fetchWhole(variable);
    variable.send(`Submit: slow@team\nMD5: ${env.relay.md5}\n\n`);
    await variable.answer(/^Result: /);
    variable.close();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="leaderboard"] tbody tr').length === 3);
    const cells = async (row: number) => (await rows.nth(row).locator('td').allInnerTexts()).slice(0, 4);
    expect([await cells(0), await cells(1), await cells(2)]).toEqual([
      ['1', 'right@team', 'constant', 'true'],
      ['2', 'wrong@team', 'constant', 'false'],
      ['1', 'slow@team', 'variable', 'true'],
    ]);
    // an id's attempts open as rows of the board, each cell under its heading
    await rows.nth(2).locator('[data-action="attempts"]').click();
    const attempt = page.locator('tr.attempts[data-attempts="slow@team"]');
    await attempt.first().locator('td').nth(2).waitFor();
    expect((await attempt.first().locator('td').allInnerTexts()).slice(0, 4)).toEqual(['↳ 1', '', 'variable', 'true']);
    expect(await attempt.first().locator('td').count()).toBe(await page.locator('[data-testid="leaderboard"] thead th').count());
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="leaderboard"]').click()]);
    const file = join(tempDir(), 'board.csv');
    await download.saveAs(file);
    const { entries, rejected } = parseLeaderboardCsv(readFileSync(file, 'utf8'));
    expect(rejected).toBe(0);
    expect(entries.map((e) => [e.id, e.result, e.server])).toEqual([
      ['wrong@team', false, 'constant'],
      ['right@team', true, 'constant'],
      ['slow@team', true, 'variable'],
    ]);
    await page.screenshot({ path: join(tmpdir(), 'pipefill-leaderboard-servers.png') });
    expect(problems).toEqual([]);
    await page.close();
  });
});
