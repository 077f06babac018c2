import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromQuery, codeToQuery } from '../../web/state/view.ts';
import { HANG_MS } from '../../web/worker/watchdog.ts';
import { playground } from '../helpers/page.ts';

/** A fixed window with a parameter to sweep: `w` packets, 6 by default (unlike every built-in's numbers). */
const SIX = `export default {
  title: 'Six in flight',
  params: [{ name: 'w', unit: 'packets', min: 1, max: 50, step: 1, default: 6, doc: 'Packets in flight' }],
  create(p) {
    return { windowSize() { return p.w; }, onAck(ack) {}, onTimeout(now) {}, timeoutMs() { return 300; } };
  },
};
`;

/** SIX, hung in its 100th ACK where the loop guard cannot reach: two calls per level, 2⁶⁰ calls in all. */
const HANGS = SIX.replace('onAck(ack) {}', 'onAck(ack) { if (ack.seq === 100) twice(60); }').replace(
  'export default',
  'function twice(n) { if (n > 0) { twice(n - 1); twice(n - 1); } }\nexport default',
);

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** A page in a browser profile of its own (no saved controller unless `saved`), with its errors collected. */
async function fresh(browser: Browser, url: string, saved?: string): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1500, height: 1100 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  if (saved !== undefined) {
    await page.goto(env.relay.url);
    await page.evaluate((code) => localStorage.setItem('pipefill.controller', code), saved);
  }
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

/** Runs the contest lab's sweeps and returns the rows of its table once all `n` runs are in. */
async function sweep(page: Page, n: number): Promise<string[]> {
  await page.locator('[data-action="sweep"]').click();
  await page.waitForFunction((want) => document.querySelector('[data-testid="sweep-progress"]')?.textContent?.includes(want), `${n} / ${n} runs in`, { timeout: 60_000 });
  return page.locator('[data-testid="sweep-table"] tbody tr').allInnerTexts();
}

/** The run each row of the sweep table names, without its stars. */
const runNames = (rows: string[]) => rows.map((r) => r.split('\t')[0].replace(/ ★.*/, '').trim());

/** The code a lab's link carries, read as a page would. */
const codeIn = (url: string) => codeFromQuery(new URL(url).search);

describe("a link's controller and the user's own", () => {
  it("keeps the user's own text aside when a link's code takes the editor, to put back or let go", async () => {
    const MINE = SIX.replace("'Six in flight'", "'My homework'");
    const link = `${env.relay.url}/?${codeToQuery(SIX, new URLSearchParams({ a: 'user' }))}`;
    const { page, problems, close } = await fresh(env.browser, link, MINE);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    const editor = page.locator('.user-editor .cm-content');
    await editor.getByText("title: 'Six in flight'").waitFor();
    const kept = () => page.evaluate(() => [localStorage.getItem('pipefill.controller'), localStorage.getItem('pipefill.controller.beforeLink')]);
    expect(await kept()).toEqual([SIX, MINE]);
    // another link's code after it: the user's own text stays aside, not the first link's
    const OTHER = SIX.replace("'Six in flight'", "'Another link'");
    await page.goto(`${env.relay.url}/?${codeToQuery(OTHER, new URLSearchParams({ a: 'user' }))}`);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    await editor.getByText("title: 'Another link'").waitFor();
    expect(await kept()).toEqual([OTHER, MINE]);
    // still offered after a reload: the link's code is saved now, the user's own kept aside
    await page.reload();
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    const offer = page.getByTestId('own-before-link');
    expect(await offer.innerText()).toBe('A link’s controller took the editor’s place of yours, which is kept. Put mine back Keep the link’s');
    await offer.getByRole('button', { name: 'Put mine back' }).click();
    await editor.getByText("title: 'My homework'").waitFor();
    expect(await offer.count()).toBe(0);
    expect(await kept()).toEqual([MINE, null]);
    // its own controller is the one the runs use now
    await page.locator('select[data-param="a.scheme"] option', { hasText: 'My homework' }).waitFor({ state: 'attached' });
    // the same link again, and the link's code kept this time
    await page.goto(link);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    await offer.getByRole('button', { name: 'Keep the link’s' }).click();
    expect(await kept()).toEqual([SIX, null]);
    expect(problems).toEqual([]);
    await close();
  }, 120_000);
});

describe("lab links with the user's controller", () => {
  it('contest lab: the link carries the code, and a fresh profile makes the same sweep', async () => {
    const first = await fresh(env.browser, `${env.relay.url}/?view=contest-lab&sw=user:w:4,9`, SIX);
    const rows = await sweep(first.page, 2);
    expect(runNames(rows)).toEqual(['user w=4', 'user w=9']);
    const link = first.page.url();
    expect(codeIn(link)).toEqual({ code: SIX });
    expect(first.problems).toEqual([]);
    await first.close();

    // a browser that never saw the controller: the link alone brings it, and the runs
    const second = await fresh(env.browser, link);
    expect(await second.page.evaluate(() => localStorage.getItem('pipefill.controller'))).toBe(SIX);
    expect(await sweep(second.page, 2)).toEqual(rows);
    expect(second.problems).toEqual([]);
    await second.close();
  }, 120_000);

  it('contest lab: a built-in sweep leaves the code out of the link', async () => {
    const { page, close } = await fresh(env.browser, `${env.relay.url}/?view=contest-lab&sw=fixed:w:4`, SIX);
    await page.locator('select[aria-label="sweep 1 parameter"]').waitFor();
    expect(new URL(page.url()).searchParams.has('code')).toBe(false);
    await close();
  });

  it('shared-bottleneck lab: a fresh profile opening the link runs the same flows', async () => {
    const first = await fresh(env.browser, `${env.relay.url}/?view=shared-lab&preset=cdn`, SIX);
    await first.page.locator('[data-testid="flow-results"]').waitFor();
    await first.page.locator('select[aria-label="flow 1 scheme"]').selectOption('user');
    const results = first.page.locator('[data-testid="flow-results"] tbody');
    await first.page.waitForFunction(() => document.querySelector('[data-testid="flow-results"] tbody tr')?.textContent?.includes('Six in flight'), undefined, { timeout: 60_000 });
    await first.page.waitForFunction(() => !document.querySelector('.lab-status[data-busy]'), undefined, { timeout: 60_000 });
    const want = await results.innerText();
    const link = first.page.url();
    expect(codeIn(link)).toEqual({ code: SIX });
    await first.close();

    const second = await fresh(env.browser, link);
    await second.page.waitForFunction(() => document.querySelector('[data-testid="flow-results"] tbody tr')?.textContent?.includes('Six in flight'), undefined, { timeout: 60_000 });
    await second.page.waitForFunction(() => !document.querySelector('.lab-status[data-busy]'), undefined, { timeout: 60_000 });
    expect(await second.page.locator('[data-testid="flow-results"] tbody').innerText()).toBe(want);
    expect(second.problems).toEqual([]);
    await second.close();
  }, 120_000);

  it('transport lab: the link carries the code and opens with the controller chosen in a fresh profile', async () => {
    const first = await fresh(env.browser, `${env.relay.url}/?view=transport-lab`, SIX);
    await first.page.locator('select[aria-label="controller"]').selectOption('user');
    await first.page.waitForFunction(() => new URL(window.location.href).searchParams.has('code'));
    const link = first.page.url();
    expect(codeIn(link)).toEqual({ code: SIX });
    await first.close();

    const second = await fresh(env.browser, link);
    expect(await second.page.locator('select[aria-label="controller"]').inputValue()).toBe('user');
    expect(await second.page.locator('select[aria-label="controller"] option:checked').innerText()).toBe('Six in flight');
    await second.close();
  });
});

describe('the contest lab with user code that hangs', () => {
  it('ends the hung sweep workers, names the callback on each point, and keeps working', async () => {
    const { page, problems, close } = await fresh(env.browser, `${env.relay.url}/?view=contest-lab&sw=user:w:4,9`, HANGS);
    const t0 = Date.now();
    await sweep(page, 2);
    const message = `your controller in onAck: did not return for ${HANG_MS} ms (a hang the loop guard cannot stop, such as a regular expression that backtracks for ever): its worker was stopped and replaced`;
    expect((await page.getByRole('alert').allInnerTexts()).sort()).toEqual([`user w=4: ${message}`, `user w=9: ${message}`]);
    // one hang to notice, a second one in the run that names the callback
    expect(Date.now() - t0).toBeGreaterThan(2 * HANG_MS);
    expect(await page.locator('[data-testid="sweep-table"] tbody tr').count()).toBe(0);
    // the replaced workers run the next sweep
    await page.locator('select[aria-label="sweep 1 scheme"]').selectOption('fixed');
    await page.locator('input[aria-label="sweep 1 values"]').fill('4,9');
    const rows = await sweep(page, 2);
    expect(runNames(rows)).toEqual(['fixed w=4', 'fixed w=9']);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  }, 120_000);
});
