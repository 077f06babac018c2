import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, open, playground } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * Golden SVGs of every chart the playground draws, as the page exports them (Export → SVG), for a fixed
 * run of each scenario: a change to a chart shows in review as a change to its file under
 * tests/snapshots/charts/. After a change meant to be seen, write them again with
 * `npx vitest run tests/browser/chartSnapshots.test.ts --update` and look at the new files.
 */

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** The page's SVG export, once both sides' runs are in (their `done` card holds a number). */
async function exported(page: Page, done: string): Promise<string> {
  await card(page, 'A', done);
  await card(page, 'B', done);
  await page.getByText('Export', { exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="svg"]').click()]);
  const file = join(tempDir(), 'charts.svg');
  await download.saveAs(file);
  return readFileSync(file, 'utf8');
}

/** Each chart's group of the figure as a document of its own, cropped to the chart, one element a line so a diff reads. */
function charts(svg: string, page: Page): Promise<{ name: string; svg: string }[]> {
  return page.evaluate((text) => {
    const root = document.importNode(new DOMParser().parseFromString(text, 'image/svg+xml').documentElement, true) as unknown as SVGSVGElement;
    // in the page for a moment, so each group's box can be measured
    document.body.append(root);
    const out = [...root.querySelectorAll<SVGGElement>('g[data-chart]')].map((g) => {
      const b = g.getBBox();
      const box = [b.x - 4, b.y - 4, b.width + 8, b.height + 8].map((v) => Math.round(v));
      const head = `<svg xmlns="http://www.w3.org/2000/svg" width="${box[2]}" height="${box[3]}" viewBox="${box.join(' ')}">`;
      const body = new XMLSerializer().serializeToString(g).replaceAll(' xmlns="http://www.w3.org/2000/svg"', '').replace(/></g, '>\n<');
      return { name: g.getAttribute('data-chart')!, svg: `${head}\n<rect x="${box[0]}" y="${box[1]}" width="100%" height="100%" fill="#fff"/>\n${body}\n</svg>\n` };
    });
    root.remove();
    return out;
  }, svg);
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A fixed run of each scenario, light enough to be quick: every chart kind the playground has is in one of them. */
const RUNS = [
  { name: 'contest', query: '?a=aimd&b=bdp&seed=7&trace=rate&link.bandwidth=1&link.queue=packets&link.queueLimit=20', done: 'Throughput' },
  { name: 'offset', query: '?s=offset&a=token-pacer&b=burst-aimd&seed=3', done: 'Result' },
];

describe('every chart as the SVG export draws it, against its golden file', () => {
  for (const run of RUNS) {
    it(`${run.name}: each chart of both sides`, { timeout: 120_000 }, async () => {
      const { page, problems } = await open(env.browser, `${env.relay.url}/${run.query}`);
      const found = await charts(await exported(page, run.done), page);
      expect(found.length).toBeGreaterThan(4);
      expect(found.filter((c) => c.svg.includes('<path data-layer=')).length).toBeGreaterThan(4);
      for (const [i, c] of found.entries()) {
        await expect(c.svg).toMatchFileSnapshot(`../snapshots/charts/${run.name}-${String(i + 1).padStart(2, '0')}-${slug(c.name)}.svg`);
      }
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
