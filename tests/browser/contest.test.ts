import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { chromiumFor } from '../helpers/browser.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { ROOT } from '../helpers/cli.ts';
import { open } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';

/** Two students submit controllers from the page's editor; the class contest view shows both. */

const CODE = readFileSync(join(ROOT, 'tests/fixtures/contestAimd.mjs'), 'utf8');

let relay: Relay;
let browser: Browser;
beforeAll(async () => {
  relay = await testRelay({
    distDir: TEST_BUNDLE,
    contest: {
      publicTraces: ['Verizon-LTE-short'],
      heldOutTraces: ['ATT-LTE-driving-2016'],
      link: {},
      reveal: false,
      scorers: 1,
      gapSeconds: 0,
      limits: { memoryMb: 256, cpuSeconds: 30, wallSeconds: 60 },
    },
  });
  browser = await chromiumFor(inject('chromiumEndpoint'));
});
afterAll(async () => {
  await browser?.close();
  await relay?.close();
});

/** A student's page in a browser context of its own: gives its id, writes a controller and submits it. */
async function submitAs(id: string, cut: number): Promise<Page> {
  const { page, problems } = await open(browser, `${relay.url}/`);
  await page.getByRole('button', { name: 'Write your own controller…' }).click();
  const content = page.locator('.user-editor .cm-content');
  await content.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(CODE.replace('default: 150', `default: ${cut}`));
  const submit = page.getByRole('button', { name: 'Submit to the class contest' });
  // no id yet: the contest ranks by id, so the button waits for one
  await page.getByText('The contest ranks you by your id: give it first.').waitFor();
  expect(await submit.isDisabled()).toBe(true);
  await page.locator('.contest-submit [data-param="student-id"]').fill(id);
  await page.locator('.contest-submit').getByRole('button', { name: 'Use this id' }).click();
  await page.locator(`.contest-submit [data-student-id="${id}"]`).waitFor();
  await submit.click();
  await page.locator('.contest-submit [data-status="scored"]').waitFor({ timeout: 120_000 });
  expect(await page.locator('.contest-submit [data-status="scored"]').innerText()).toMatch(/^Scored: Verizon-LTE-short \d+\.\d\d Mbit\/s, \d+ ms, score -?\d+\.\d{3}/);
  await page.locator('.user-editor').screenshot({ path: join(ROOT, `build/contest-editor-${id}.png`) });
  expect(problems).toEqual([]);
  return page;
}

describe('the class contest in Chromium', () => {
  it('two students submit from the editor under their own ids, and ?view=contest shows both on the plane and in the table', async () => {
    const [ann, bob] = await Promise.all([submitAs('ann@red', 100), submitAs('bob@blue', 300)]);
    const { page, problems } = await open(browser, `${relay.url}/?view=contest`, { viewport: { width: 1280, height: 720 } });
    await page.locator('.contest-table tbody tr').nth(1).waitFor();
    const ids = await page.locator('.contest-table tbody th').allInnerTexts();
    expect(ids.sort()).toEqual(['ann@red', 'bob@blue']);
    // the plane names each student's best, beside the omniscient point once the reference runs are in
    const plane = page.locator('[data-trace="Verizon-LTE-short"] svg > title');
    await page.waitForFunction(() => /omniscient/.test(document.querySelector('[data-trace="Verizon-LTE-short"] svg > title')?.textContent ?? ''), null, { timeout: 120_000 });
    const title = await plane.textContent();
    expect(title).toContain('ann@red');
    expect(title).toContain('bob@blue');
    // held out: scored, not shown
    expect(await page.locator('[data-trace="ATT-LTE-driving-2016"]').count()).toBe(0);
    expect(await page.locator('.contest-table thead').innerText()).not.toContain('ATT-LTE-driving-2016');
    // fits the projector: nothing wider than 1280
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: join(ROOT, 'build/contest-view.png') });
    expect(problems).toEqual([]);
    await Promise.all([ann.close(), bob.close(), page.close()]);
  }, 300_000);
});
