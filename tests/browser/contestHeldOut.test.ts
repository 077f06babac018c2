import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Board } from '../../shared/contest/api.ts';
import type { Relay } from '../../server/relay.ts';
import { chromiumFor } from '../helpers/browser.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { pageContest } from '../helpers/contest.ts';
import { ROOT } from '../helpers/cli.ts';
import { open } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';

/** A class contest holding its default trace out: the trace lists of the playground and the Contest lab, and the operator's reveal. */

let relay: Relay;
let browser: Browser;
beforeAll(async () => {
  relay = await testRelay({
    distDir: TEST_BUNDLE,
    contest: pageContest('TMobile-LTE-short'),
  });
  browser = await chromiumFor(inject('chromiumEndpoint'));
});
afterAll(async () => {
  await browser?.close();
  await relay?.close();
});

/**
 * The bundled traces as a trace list shows them, ✗ where disabled: T-Mobile LTE held out, and the drive it
 * was cut from with it.
 */
const BUNDLED = [
  '✓ Verizon LTE (140 s, the contest trace)',
  '✗ T-Mobile LTE (140 s) — held out for the class contest',
  '✓ AT&T LTE driving 2016 (120 s)',
  '✓ AT&T LTE driving (786 s)',
  '✗ T-Mobile LTE driving (475 s; ACKs at a constant 12 Mbit/s) — held out for the class contest',
  '✓ T-Mobile 3G (928 s)',
  '✓ Verizon 3G EVDO (1062 s)',
];

/** The page's trace list once the relay said what it holds out (its answer comes after the first render). */
async function options(page: Page): Promise<string[]> {
  const trace = page.locator('[data-param="trace"]');
  await trace.locator('option:disabled').first().waitFor({ state: 'attached' });
  return trace.locator('option').evaluateAll((os) => os.map((o) => `${(o as HTMLOptionElement).disabled ? '✗' : '✓'} ${o.textContent}`));
}

const revealed = async () => ((await (await fetch(`${relay.url}/api/contest/leaderboard`)).json()) as Board).revealed;

describe('the playground’s trace list on a relay holding traces out, in Chromium', () => {
  it('lists the held-out traces disabled and marked, and the keys pass over them', async () => {
    const { page, problems } = await open(browser, `${relay.url}/?a=cubic`);
    const trace = page.locator('[data-param="trace"]');
    expect(await options(page)).toEqual([...BUNDLED, '✓ constant rate (set the bandwidth)']);
    // the arrow key from the contest trace skips T-Mobile LTE for the next one the page can run
    await trace.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('trace') === 'ATT-LTE-driving-2016');
    expect(await trace.inputValue()).toBe('ATT-LTE-driving-2016');
    await page.locator('section[aria-label="Link"]').screenshot({ path: join(ROOT, 'build/contest-heldout-list.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('the Contest lab’s trace list on a relay holding traces out, in Chromium', () => {
  it('lists the held-out traces disabled and marked, as the playground does', async () => {
    const { page, problems } = await open(browser, `${relay.url}/?view=contest-lab`);
    expect(await options(page)).toEqual(BUNDLED);
    await page.locator('section[aria-label="Sweep settings"]').screenshot({ path: join(ROOT, 'build/contest-heldout-lab.png') });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('a lab link naming a held-out trace says so as the playground does, and sweeps the default trace', async () => {
    const { page, problems } = await open(browser, 'about:blank');
    const asked: string[] = [];
    page.on('request', (r) => /^\/traces\/TMobile-LTE-/.test(new URL(r.url()).pathname) && asked.push(new URL(r.url()).pathname));
    // the relay answers after the lab's code has loaded: the link is read only once it said what it holds out
    await page.route('**/api/relay', async (r) => {
      await new Promise((done) => setTimeout(done, 1500));
      await r.continue();
    });
    await page.goto(`${relay.url}/?view=contest-lab&trace=TMobile-LTE-short&sw=fixed:w:4,8`);
    await page.locator('.notices p').first().waitFor();
    expect(await page.locator('.notices p').evaluateAll((ps) => ps.map((p) => p.firstChild?.textContent))).toEqual([
      'The link asked for something this page cannot do, so it uses the default instead: the trace "TMobile-LTE-short" is held out for this relay\'s class contest, which never serves it',
    ]);
    expect(await page.locator('[data-param="trace"]').inputValue()).toBe('Verizon-LTE-short');
    await page.waitForFunction(() => location.search === '?view=contest-lab&sw=fixed%3Aw%3A4%2C8');
    await page.locator('[data-action="sweep"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="sweep-progress"]')?.textContent?.includes('2 / 2 runs in'), null, { timeout: 60_000 });
    expect(await page.locator('p.error').count()).toBe(0);
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});

describe('the operator’s reveal of the held-out scores, in Chromium', () => {
  it('asks first: Cancel and Escape leave the scores hidden, and only Reveal tells the relay', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.request.get(relay.operator.url(relay.url));
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname));
    await page.goto(`${relay.url}/?view=contest`);
    const first = page.getByRole('button', { name: 'Reveal the held-out scores' });
    const question = page.getByRole('group', { name: 'Reveal the held-out scores' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent);

    await first.click();
    expect(await question.innerText()).toBe('Reveal to everyone? This cannot be undone. Reveal Cancel');
    expect(await focused()).toBe('Cancel');
    await page.locator('.contest-head').screenshot({ path: join(ROOT, 'build/contest-reveal-asked.png') });
    await question.getByRole('button', { name: 'Cancel' }).click();
    await first.waitFor();
    expect(await focused()).toBe('Reveal the held-out scores');
    expect(await revealed()).toBe(false);

    // by keys alone: Enter asks, Escape withdraws the question, Shift+Tab from Cancel reaches Reveal
    await page.keyboard.press('Enter');
    await question.waitFor();
    await page.keyboard.press('Escape');
    await first.waitFor();
    expect([posts, await revealed()]).toEqual([[], false]);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Reveal');
    await page.keyboard.press('Enter');
    await page.getByText('Held-out scores are revealed.').waitFor();
    expect([posts, await revealed()]).toEqual([['/api/contest/reveal'], true]);
    await context.close();
  }, 120_000);
});
