import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDS_HIDDEN } from '../../web/sessions/usePoll.ts';
import { card, LIGHT_RUN, open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** The sizes the page is looked at in: a laptop's, a projector's and a small one's. */
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
];

/**
 * Where the chart rows stand (page coordinates), every frame from the page's first: an init script, as a
 * string, so that nothing the test's compiler adds to a function reaches the page.
 */
const RECORD_TOPS = `window.tops = []; (function look() {
  const row = document.querySelector('.columns');
  if (row) window.tops.push(Math.round(row.getBoundingClientRect().top + window.scrollY));
  requestAnimationFrame(look);
})();`;

const resultShown = (side: string) => /true|false/.test(document.querySelector(`section.cards[data-side^="${side} "] [data-card="Result"] dd`)?.textContent ?? '');

describe('the offset view as its runs arrive', () => {
  it.each(SIZES)(
    'keeps the charts in place while the cards, the caption and a live fetch come in, at $width×$height',
    async (size) => {
      const { page, problems } = await open(env.browser, `${env.relay.url}/?s=offset&live=1&a=token-pacer`, { viewport: size });
      await page.addInitScript(RECORD_TOPS);
      await page.reload();
      await card(page, 'B', 'Result');
      await page.locator('[data-caption="offset"]').waitFor();
      await page.locator('[data-action="start-live"]').click();
      await page.waitForFunction(resultShown, 'A', { timeout: 40_000 });
      await expect.poll(() => page.locator('[data-caption="offset"]').innerText()).toContain('A · Token pacer');
      await page.screenshot({ path: join(tmpdir(), `pipefill-offset-settled-${size.width}.png`) });
      const tops = await page.evaluate(() => (window as unknown as { tops: number[] }).tops);
      expect(tops.length).toBeGreaterThan(10);
      expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(3);
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('the controller editor beside the runs', () => {
  it.each(SIZES)(
    'covers none of A’s charts and scrolls nothing when it opens, at $width×$height',
    async (size) => {
      const { page, problems } = await open(env.browser, `${env.relay.url}/?a=aimd&${LIGHT_RUN}`, { viewport: size });
      await card(page, 'A', 'Throughput');
      const editCopy = page.getByRole('region', { name: 'Controller A' }).getByRole('button', { name: 'Edit a copy' });
      if (!(await editCopy.isVisible())) await page.getByRole('button', { name: /Settings/ }).click();
      const before = await page.evaluate(() => window.scrollY);
      // A click as the user's, without Playwright's own scrolling to the button.
      await editCopy.dispatchEvent('click');
      await page.locator('.user-editor .cm-content', { hasText: 'AIMD (my copy)' }).waitFor();
      await page.screenshot({ path: join(tmpdir(), `pipefill-editor-open-${size.width}.png`) });
      expect(await page.evaluate(() => window.scrollY)).toBe(before);
      const box = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((e) => e.getBoundingClientRect().toJSON() as Box);
      const editor = await box('.user-editor');
      expect(editor.right - editor.left).toBeGreaterThan(300);
      expect(overlap(editor, await box('header.page-head'))).toBe(false);
      expect(overlap(editor, await box('.toolbar'))).toBe(false);
      expect(overlap(editor, await box('section.cards[data-side^="A "]'))).toBe(false);
      // Each of A's charts, brought into sight, stands clear of the editor.
      const charts = page.locator('.column[data-side="a"] figure.chart');
      expect(await charts.count()).toBeGreaterThan(2);
      for (const chart of await charts.all()) {
        await chart.evaluate((e) => e.scrollIntoView({ block: 'center' }));
        const c = await chart.evaluate((e) => e.getBoundingClientRect().toJSON() as Box);
        expect(c.right - c.left).toBeGreaterThan(200);
        expect(overlap(c, await box('.user-editor'))).toBe(false);
        // and nothing else stands over it (where the settings float over the runs, they fold as the editor opens)
        const uncovered = await chart.evaluate((e) => {
          const r = e.getBoundingClientRect();
          return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('figure.chart') === e;
        });
        expect(uncovered).toBe(true);
      }
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});

describe('the controller editor on a phone', () => {
  it('takes the whole width, the page giving up none of its own, and × gives the page back', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?a=aimd&${LIGHT_RUN}`, { viewport: { width: 400, height: 800 } });
    await card(page, 'A', 'Throughput');
    await page.getByRole('button', { name: /Settings/ }).click();
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    const editor = page.locator('.user-editor');
    await editor.locator('.cm-content').waitFor();
    expect(await editor.evaluate((e) => Math.round(e.getBoundingClientRect().width))).toBe(400);
    expect(await page.evaluate(() => getComputedStyle(document.body).paddingRight)).toBe('0px');
    // its header's buttons all within the screen
    for (const b of await editor.locator('header button').all()) expect(await b.evaluate((e) => e.getBoundingClientRect().right)).toBeLessThanOrEqual(400);
    await page.getByRole('button', { name: 'close the editor' }).click();
    await editor.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a phone’s width', () => {
  // each view with what made it wider than the screen before: a table, a plane, a long menu
  it.each([
    ['contest-lab', 'figure.plane-with-key svg'],
    ['transport-lab', 'table.results tbody tr'],
    ['shared-lab', '[data-testid="flow-results"] tbody tr'],
    ['measurement', 'figure.plane svg'],
    ['leaderboard', 'table.results'],
    ['sessions', 'table.results'],
  ])('scrolls the %s view up and down, never sideways', async (view, widest) => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?view=${view}`, { viewport: { width: 400, height: 800 } });
    await page.locator(widest).first().waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(400);
    // this relay keeps clients' records for its operator: the views that show them say so, and ask for none (no refusal in the console)
    if (view === 'sessions' || view === 'measurement') await page.getByText(RECORDS_HIDDEN).first().waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the settings where they float over the runs', () => {
  it.each(SIZES.filter((s) => s.width <= 1100))(
    'open below the toolbar, however many rows the navigation and the toolbar take, at $width×$height',
    async (size) => {
      const { page, problems } = await open(env.browser, `${env.relay.url}/?${LIGHT_RUN}`, { viewport: size });
      await card(page, 'A', 'Throughput');
      const sidebar = page.locator('.layout > .sidebar');
      if (!(await sidebar.isVisible())) await page.locator('[data-action="settings"]').click();
      await sidebar.waitFor();
      const box = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((e) => e.getBoundingClientRect().toJSON() as Box);
      const settings = await box('.layout > .sidebar');
      expect(overlap(settings, await box('header.page-head'))).toBe(false);
      expect(overlap(settings, await box('.toolbar'))).toBe(false);
      await page.screenshot({ path: join(tmpdir(), `pipefill-settings-float-${size.width}.png`) });
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});

describe('A beside B', () => {
  it('each row’s two plots stand level, however many lines either legend takes, at every size', async () => {
    const { page, problems } = await open(env.browser, env.relay.url);
    await card(page, 'A', 'Throughput');
    await card(page, 'B', 'Throughput');
    let wrapped = false;
    for (const size of [{ width: 1500, height: 1000 }, ...SIZES]) {
      await page.setViewportSize(size);
      const rows = await page.evaluate(() =>
        [...document.querySelectorAll('.columns > .column[data-side="a"]')].map((a) => {
          const b = a.nextElementSibling!;
          const top = (cell: Element, what: string) => Math.round(cell.querySelector(what)?.getBoundingClientRect().top ?? Number.NaN);
          return { plots: [top(a, '.plot'), top(b, '.plot')], legends: [top(a, '.legend'), top(b, '.legend')] };
        }),
      );
      // rows where both sides draw a chart (a scheme may have a chart the other's has not)
      const both = rows.filter((r) => !r.plots.some(Number.isNaN));
      expect(both.length, `${size.width}×${size.height}`).toBeGreaterThan(3);
      for (const r of both) expect(r.plots[1], `${size.width}×${size.height}`).toBe(r.plots[0]);
      wrapped ||= both.some((r) => r.legends[0] !== r.legends[1]);
    }
    // at one size at least, B's legend (its estimator's re-estimates) took more lines than A's
    expect(wrapped).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
