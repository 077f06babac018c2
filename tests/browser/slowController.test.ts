import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** A controller within each callback's budget whose every ACK takes 150 ms: a contest run of it lasts hours. */
const SLOW = `export default { title: 'Slow', params: [], create() { return { windowSize: () => 10, onAck() { const t = Date.now(); while (Date.now() - t < 150) {} }, onTimeout() {} }; } };`;

describe('a controller that is slow but never over its budget', () => {
  it('its side says how slow it is, where it said only "running…", exports nothing of the run before it meanwhile, and a built-in in its place runs at once', async () => {
    const { page, problems } = await open(env.browser, env.relay.url);
    await page.evaluate((code) => localStorage.setItem('pipefill.controller', code), SLOW);
    await page.goto(`${env.relay.url}/?a=user`);
    const note = page.getByRole('region', { name: 'Summary of run A' }).locator('p');
    await expect
      .poll(() => note.innerText(), { timeout: 30_000 })
      .toMatch(/^running… your controller is slow: \d+ callbacks in \d+ s, about \d+ ms each on average; a run makes one or more for each packet$/);
    // its fast windowSize calls count among the callbacks: the average is below onAck's 150 ms
    expect(Number(/about (\d+) ms/.exec(await note.innerText())![1])).toBeGreaterThan(10);
    // B, a built-in in its own worker, is not held up
    expect(await card(page, 'B', 'Throughput')).toMatch(/^\d+\.\d+ Mbit\/s$/);
    await page.locator('[data-param="a.scheme"]').selectOption('aimd');
    expect(await card(page, 'A', 'Throughput')).toMatch(/^\d+\.\d+ Mbit\/s$/);
    // back to the slow code: the run on the screen stays, and its note says why the next is long in coming
    await page.locator('[data-param="a.scheme"]').selectOption('user');
    const sideNote = page.locator('section.cards[data-side^="A "] h3 small');
    await expect
      .poll(() => sideNote.innerText(), { timeout: 30_000 })
      .toMatch(/^simulated in \d+ ms · updating… your controller is slow: \d+ callbacks in \d+ s, about \d+ ms each on average; a run makes one or more for each packet$/);
    // the shown run is AIMD's, but A's worker holds the slow code now: A exports nothing until its run is shown
    for (const what of ['trace-a', 'intervals-a', 'png']) {
      expect(await page.locator(`[data-export="${what}"]`).isDisabled()).toBe(true);
      expect(await page.locator(`[data-export="${what}"]`).getAttribute('title')).toBe('A · AIMD: its next run is under way; export it once it is shown');
    }
    expect(await page.locator('[data-export="trace-b"]').isDisabled()).toBe(false);
    await page.locator('[data-param="a.scheme"]').selectOption('aimd');
    await expect.poll(() => sideNote.innerText(), { timeout: 30_000 }).toMatch(/^simulated in \d+ ms$/);
    expect(await page.locator('[data-export="trace-a"]').isDisabled()).toBe(false);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
