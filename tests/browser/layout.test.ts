import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, open, playground } from '../helpers/page.ts';

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
