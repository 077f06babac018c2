import { resolve } from 'node:path';
import { build } from 'vite';
import { ROOT } from '../server/relay.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { testRelay } from '../tests/helpers/relay.ts';

/** Renders one picture of each view of the playground into docs/screenshots, for the README. */
await build({ configFile: resolve(ROOT, 'vite.config.ts'), logLevel: 'warn' });
const relay = await testRelay({ fileSize: 1_000_000 });
const browser = await launchChromium();
const out = (name: string) => resolve(ROOT, 'docs/screenshots', name);
try {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  await page.goto(relay.url);
  await page.waitForSelector('section.cards[data-side^="B "] [data-card="Delay95"]');
  await page.waitForTimeout(4000);
  await page.screenshot({ path: out('contest-playing.png') });
  await page.getByRole('button', { name: 'Show all' }).click();
  const svg = page.locator('.column[data-side="a"] figure.chart').first().locator('svg');
  const box = (await svg.boundingBox())!;
  const x = (t: number) => box.x + 48 + ((box.width - 60) * t) / 140;
  await page.mouse.move(x(30), box.y + 60);
  await page.mouse.down();
  await page.mouse.move(x(31.2), box.y + 60, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(500);
  await page.screenshot({ path: out('contest-zoomed.png') });
  await page.goto(`${relay.url}/?s=offset&var=1`);
  await page.waitForSelector('section.cards[data-side^="B "] [data-card="MD5"]');
  await page.getByRole('button', { name: 'Show all' }).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: out('offset-simulated.png') });
  await page.goto(`${relay.url}/?s=offset&live=1`);
  await page.locator('[data-action="start-live"]').click();
  await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "] [data-card="MD5"] dd')?.textContent?.includes('match'), null, { timeout: 30_000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: out('offset-live.png') });
} finally {
  await browser.close();
  await relay.close();
}
