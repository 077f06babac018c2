import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_IDS } from '../../web/state/view.ts';
import { card, LIGHT_RUN, open, playground } from '../helpers/page.ts';
import { fetchWhole, UdpProbe } from '../helpers/udp.ts';

/** axe-core's source, evaluated in the page (the page's Content-Security-Policy refuses inline script tags). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** What axe-core, every rule it runs by default, finds wrong with the page as it stands: "rule: element" per node. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Document): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return found.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** The left edge of the leftmost text in the view's main area, px. */
function textLeft(page: Page): Promise<number> {
  return page.evaluate(() => {
    let left = Number.POSITIVE_INFINITY;
    const walker = document.createTreeWalker(document.querySelector('main') as Node, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const box of range.getClientRects()) if (box.width > 0) left = Math.min(left, box.left);
    }
    return left;
  });
}

/** Opens a view and waits until it stands: its code loaded and its controls shown. */
async function openView(query: string): Promise<Page> {
  const { page, problems } = await open(env.context, `${env.relay.url}/?${query}`);
  await page.waitForFunction(() => {
    const main = document.querySelector('main');
    return main !== null && !/^Loading /.test(main.textContent ?? '') && main.querySelector('button, input, select') !== null;
  });
  expect(problems).toEqual([]);
  return page;
}

describe('every view, as axe-core and a keyboard find it', () => {
  it('the playground in each scenario: nothing for axe; a skip link to the runs; charts zoom from the keyboard', async () => {
    const page = await openView(LIGHT_RUN);
    await card(page, 'A', 'Throughput');
    await card(page, 'B', 'Throughput');
    expect(await axeViolations(page)).toEqual([]);
    // The BDP estimator's timer is its design, not a loss: its ticks and the window row's caption say so.
    expect(await page.locator('[data-caption="window"]').first().innerText()).toMatch(
      /AIMD peaks at .* with \d+ timeouts?[ .].*BDP estimator peaks at .* with \d+ × re-estimate \(its timer\), no loss/,
    );

    // The first Tab reaches the skip link; following it, the next Tab is Play, not the fifty settings before it.
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the runs');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^(Play|Pause)$/);

    // A focused chart zooms in with +, moves with →, and shows all again with 0: the time axis says so.
    const chart = page.locator('.column[data-side="a"] .plot').first();
    const lastTick = () =>
      chart.locator('svg text').evaluateAll((ts) =>
        ts
          .map((t) => t.textContent)
          .filter((t) => t?.endsWith('s'))
          .at(-1),
      );
    const whole = await lastTick();
    await chart.focus();
    await page.keyboard.press('+');
    await page.getByRole('button', { name: 'Reset zoom' }).waitFor();
    const zoomed = await lastTick();
    expect(zoomed).not.toBe(whole);
    await page.keyboard.press('ArrowRight');
    await expect.poll(lastTick).not.toBe(zoomed);
    await page.keyboard.press('0');
    await page.getByRole('button', { name: 'Reset zoom' }).waitFor({ state: 'detached' });
    expect(await lastTick()).toBe(whole);
    await page.close();

    const offset = await openView('s=offset');
    await card(offset, 'B', 'Result');
    expect(await axeViolations(offset)).toEqual([]);
    // Where the contest view has its plane's caption, the offset view has words on both fetches.
    expect(await offset.locator('[data-caption="offset"]').innerText()).toMatch(
      /^A · Token pacer: .* in [\d.]+ s \(a perfectly paced client: [\d.]+ s\), penalty \d+.* B · Burst AIMD: the whole file, MD5 right in .* The leaderboard ranks a right MD5 first/,
    );
    await offset.close();
  });

  it('every other view, and the sessions view and leaderboard again with a session recorded: nothing for axe', async () => {
    const found: Record<string, string[]> = {};
    const margins: Record<string, boolean> = {};
    for (const view of VIEW_IDS.filter((v) => v !== '')) {
      const page = await openView(`view=${view}`);
      // Every view keeps the page's margin: no word touches the window's edge (the contest view without a contest did).
      margins[view] = (await textLeft(page)) >= 12;
      // The contest lab's sweep shows its progress bar, which stays once the sweep ends.
      if (view === 'contest-lab') {
        await page.getByRole('button', { name: 'Run sweep' }).click();
        await page.getByTestId('sweep-progress').waitFor();
      }
      found[view] = await axeViolations(page);
      await page.close();
    }
    const probe = await UdpProbe.open(Number(env.relay.info.offsetConstant.split(':')[1]));
    await fetchWhole(probe);
    probe.send(`Submit: axe@class\nMD5: ${env.relay.md5}\n\n`);
    await probe.next();
    probe.close();
    const sessions = await openView('view=sessions');
    const row = sessions.locator('tr[data-session]').first();
    await row.waitFor();
    // Any cell of the row opens the session, not only its address's button.
    await row.locator('td').nth(3).click();
    await sessions.locator('[data-testid="watched-charts"] canvas').first().waitFor();
    const id = await row.getAttribute('data-session');
    await expect.poll(() => new URL(sessions.url()).searchParams.get('session')).toBe(id);
    // Unanswered requests are dark, as the playground's drops, apart from the replies in any colour vision.
    const key = (label: RegExp) =>
      sessions
        .locator('.legend .key')
        .filter({ hasText: label })
        .first()
        .locator('i')
        .evaluate((i) => getComputedStyle(i).backgroundColor);
    expect([await key(/^no reply/), await key(/^reply$/)]).toEqual(['rgb(29, 36, 48)', 'rgb(170, 130, 60)']);
    found['sessions, one recorded and open'] = await axeViolations(sessions);
    const board = await openView('view=leaderboard');
    await board.locator('[data-testid="leaderboard"] tbody tr').first().waitFor();
    found['leaderboard, one Submit'] = await axeViolations(board);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    expect(margins).toEqual(Object.fromEntries(Object.keys(margins).map((k) => [k, true])));
  }, 120_000);
});
