import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { chromiumFor } from '../helpers/browser.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { ROOT } from '../helpers/cli.ts';
import { pageContest, postSubmission, settled } from '../helpers/contest.ts';
import { open } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * Students the contest has no score for yet, as the class and the student see them: the board names who
 * waits and whose every submission failed; the editor says when its refusal no longer holds.
 */

const CODE = readFileSync(join(ROOT, 'tests/fixtures/contestAimd.mjs'), 'utf8');
const FAILING = 'export default { title: "x", params: [], create() { throw new Error("not yet"); } };';

const CONTEST = pageContest(null);

let browser: Browser;
beforeAll(async () => {
  browser = await chromiumFor(inject('chromiumEndpoint'));
});
afterAll(() => browser?.close());

/** Submits `code` as `id` over the API and waits for its score or failure. */
async function settle(url: string, id: string, code: string, token?: string): Promise<string> {
  const { status, json } = await postSubmission(url, { id, code, token });
  expect(status).toBe(202);
  await settled(url, json.submission);
  return json.token;
}

describe('the class contest’s students without a score', () => {
  it('?view=contest names, for anyone, who waits for a score and whose every submission failed, without their errors', async () => {
    // scored and failed first; then the same records on a relay that scores nothing, so that what waits stays waiting
    const dataDir = tempDir('pipefill-contest-unscored-');
    const scoring = await testRelay({ distDir: TEST_BUNDLE, dataDir, contest: CONTEST });
    try {
      await settle(scoring.url, 'ann@red', CODE);
      await settle(scoring.url, 'fay@red', FAILING, await settle(scoring.url, 'fay@red', FAILING));
      await settle(scoring.url, 'gil@red', FAILING);
    } finally {
      await scoring.close();
    }
    const relay = await testRelay({ distDir: TEST_BUNDLE, dataDir, contest: { ...CONTEST, scorers: 0 } });
    try {
      for (const id of ['ivy@red', 'hal@red']) expect((await postSubmission(relay.url, { id, code: CODE })).status).toBe(202);
      const { page, problems } = await open(browser, `${relay.url}/?view=contest`, { viewport: { width: 1280, height: 720 } });
      const waiting = page.getByTestId('contest-waiting');
      await waiting.waitFor();
      expect(await page.locator('.contest-head').innerText()).toContain('1 student ranked, 2 waiting for a score, 2 students whose every submission failed.');
      expect(await waiting.innerText()).toBe('Waiting for a score: hal@red (1 waiting), ivy@red (1 waiting)');
      expect(await page.getByTestId('contest-failed').innerText()).toBe('Every submission failed: fay@red (2 failed), gil@red (1 failed)');
      // under the ranking, which holds only the scored
      expect(await page.locator('.contest-table tbody th').allInnerTexts()).toEqual(['ann@red']);
      const [table, list] = await Promise.all([page.locator('.contest-table').boundingBox(), waiting.boundingBox()]);
      expect(list!.y).toBeGreaterThanOrEqual(table!.y + table!.height);
      // the errors are their submitters’ own
      expect(await page.locator('body').innerText()).not.toContain('not yet');
      expect(await page.getByTestId('contest-failed-why').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      await page.screenshot({ path: join(ROOT, 'build/contest-unscored.png'), fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
      // the operator, who may read every submission, is told what each stuck student's latest one said
      const operator = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      onTestFinished(() => operator.close());
      await operator.request.get(relay.operator.url(relay.url));
      const { page: theirs } = await open(operator, `${relay.url}/?view=contest`);
      // folded (the operator's page may be on the projector) until the operator opens it
      const why = theirs.getByTestId('contest-failed-why');
      await why.locator('summary').click();
      await expect
        .poll(() => why.locator('li').allInnerTexts(), { timeout: 10_000 })
        .toEqual([
          expect.stringMatching(/^fay@red: on Verizon-LTE-short: your controller in create at line 1, column \d+: Error: not yet$/),
          expect.stringMatching(/^gil@red: on Verizon-LTE-short: your controller in create at line 1, column \d+: Error: not yet$/),
        ]);
      // no roster: no list of ids that have not submitted
      expect(await theirs.getByTestId('contest-not-submitted').count()).toBe(0);
      await theirs.screenshot({ path: join(ROOT, 'build/contest-unscored-operator.png'), fullPage: true });
    } finally {
      await relay.close();
    }
  }, 300_000);

  it('in the editor, Submit needs an id and says so; a refusal within the gap keeps the last score beside it, and goes once the gap has passed', async () => {
    const relay = await testRelay({ distDir: TEST_BUNDLE, contest: { ...CONTEST, gapSeconds: 3600 } });
    try {
      const { page, problems } = await open(browser, `${relay.url}/`);
      await page.getByRole('button', { name: 'Write your own controller…' }).click();
      await page.locator('.user-editor .cm-content').click();
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText(CODE);
      const area = page.getByTestId('contest-submit');
      const submit = area.getByRole('button', { name: 'Submit to the class contest' });
      await area.locator('[data-hint="needs-id"]').waitFor();
      expect(await submit.isDisabled()).toBe(true);
      // what it reads, the field's placeholder aside: nothing of submitting without an id
      expect((await area.innerText()).replace(/\s+/g, ' ')).toBe('Submit to the class contest needs your id first: the contest ranks you by it. Use this id');
      await page.locator('.user-editor').screenshot({ path: join(ROOT, 'build/contest-needs-id.png') });

      await area.locator('[data-param="student-id"]').fill('joy@red');
      await area.getByRole('button', { name: 'Use this id' }).click();
      await area.locator('[data-student-id="joy@red"]').waitFor();
      await submit.click();
      const scored = area.locator('[data-status="scored"]');
      await scored.waitFor({ timeout: 120_000 });
      const score = await scored.innerText();
      expect(score).toMatch(/^Scored: Verizon-LTE-short \d+\.\d\d Mbit\/s, \d+ ms, score -?\d+\.\d{3} the class’s plane$/);

      // the page's clock from here on, held still, so that the hour's gap passes at once and only as the
      // test moves it: a clock left running would take the refusal away during a slow screenshot
      await page.clock.install();
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await submit.click();
      const refusal = area.getByRole('alert');
      await refusal.waitFor();
      const wait = Number(/try again in (\d+) s$/.exec(await refusal.innerText())?.[1]);
      expect(await refusal.innerText()).toBe(`joy@red may submit once every 3600 s: try again in ${wait} s`);
      expect(wait).toBeGreaterThan(3000);
      expect(await scored.innerText()).toBe(score);
      await page.locator('.user-editor').screenshot({ path: join(ROOT, 'build/contest-refused.png') });
      await page.clock.runFor((wait - 1) * 1000);
      expect(await refusal.isVisible()).toBe(true);
      await page.clock.runFor(1000);
      await refusal.waitFor({ state: 'detached' });
      expect(await scored.innerText()).toBe(score);
      expect(problems.filter((p) => !/429/.test(p))).toEqual([]);
      await page.close();
    } finally {
      await relay.close();
    }
  }, 300_000);
});
