import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const resultShown = () => /true|false/.test(document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent ?? '');

/** A student's page in a browser of its own (its own localStorage): gives its id once, then fetches live. */
async function student(id: string): Promise<Page> {
  const { page, problems } = await open(env.browser, `${env.relay.url}/?s=offset&live=1&a=token-pacer`);
  await page.getByText('Submits as pipefill@browser until you give your id').waitFor();
  const field = page.locator('[data-param="student-id"]');
  await field.fill('not an id');
  await page.getByText('an id is id@team').waitFor();
  expect(await page.getByRole('button', { name: 'Use this id' }).isDisabled()).toBe(true);
  await field.fill(id);
  await page.getByRole('button', { name: 'Use this id' }).click();
  await page.locator(`[data-student-id="${id}"]`).waitFor();
  // Kept in the browser, never in the address a student shares.
  expect(page.url()).not.toContain(id.split('@')[0]);
  await page.reload();
  await page.locator(`[data-student-id="${id}"]`).waitFor();
  await page.locator('[data-action="start-live"]').click();
  await page.waitForFunction(resultShown, null, { timeout: 40_000 });
  expect(problems).toEqual([]);
  return page;
}

describe('students have names', () => {
  it('two students, each in a browser of their own, fetch live under their ids, and the leaderboard shows both', async () => {
    const pages = await Promise.all([student('ann@red'), student('bob@blue')]);
    const { page } = await open(env.context, `${env.relay.url}/?view=leaderboard`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="leaderboard"] tbody tr').length === 2);
    const ids = await page.locator('[data-testid="leaderboard"] tbody tr td:nth-child(2)').allInnerTexts();
    expect(ids.sort()).toEqual(['ann@red', 'bob@blue']);
    // Every attempt of an id is a click away.
    const attempts = page.locator('[data-testid="leaderboard"] tbody tr').filter({ hasText: 'ann@red' }).locator('[data-action="attempts"]');
    // one Submit, or more where a slow answer had the fetch send it again (as the course's client does over UDP)
    const shown = Number(/^show (\d+)$/.exec(await attempts.innerText())?.[1]);
    expect(shown).toBeGreaterThanOrEqual(1);
    await attempts.click();
    // its attempts are rows of the board, under its headings
    await page.locator('tr[data-attempts="ann@red"][data-result]').first().waitFor();
    expect(await page.locator('tr[data-attempts="ann@red"]').count()).toBe(shown);
    for (const p of [...pages, page]) await p.close();
  }, 90_000);
});
