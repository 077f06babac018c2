import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Board } from '../../shared/contest/api.ts';
import type { Relay } from '../../server/relay.ts';
import { chromiumFor } from '../helpers/browser.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { pageContest } from '../helpers/contest.ts';
import { ROOT } from '../helpers/cli.ts';
import { open } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';

/** A class contest holding its default trace out: the playground's trace list, and the operator's reveal. */

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

const revealed = async () => ((await (await fetch(`${relay.url}/api/contest/leaderboard`)).json()) as Board).revealed;

describe('the playground’s trace list on a relay holding traces out, in Chromium', () => {
  it('lists the held-out traces disabled and marked, and the keys pass over them', async () => {
    const { page, problems } = await open(browser, `${relay.url}/?a=cubic`);
    const trace = page.locator('[data-param="trace"]');
    // the relay's answer comes after the page's first render: wait for the marks
    await trace.locator('option:disabled').first().waitFor({ state: 'attached' });
    const options = await trace.locator('option').evaluateAll((os) => os.map((o) => `${(o as HTMLOptionElement).disabled ? '✗' : '✓'} ${o.textContent}`));
    expect(options).toEqual([
      '✓ Verizon LTE (140 s, the contest trace)',
      '✗ T-Mobile LTE (140 s) — held out for the class contest',
      '✓ AT&T LTE driving 2016 (120 s)',
      '✓ AT&T LTE driving (786 s)',
      '✗ T-Mobile LTE driving (475 s; ACKs at a constant 12 Mbit/s) — held out for the class contest',
      '✓ T-Mobile 3G (928 s)',
      '✓ Verizon 3G EVDO (1062 s)',
      '✓ constant rate (set the bandwidth)',
    ]);
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
