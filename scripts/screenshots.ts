import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { ROOT } from '../server/relay.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { testRelay } from '../tests/helpers/relay.ts';

/** Drags across the first chart from `from` to `to` seconds of a run `span` seconds long, zooming every chart there. */
async function zoom(page: Page, from: number, to: number, span: number): Promise<void> {
  const svg = page.locator('.column[data-side="a"] figure.chart').first().locator('svg');
  const box = (await svg.boundingBox())!;
  const x = (t: number) => box.x + 48 + ((box.width - 60) * t) / span;
  await page.mouse.move(x(from), box.y + 60);
  await page.mouse.down();
  await page.mouse.move(x(to), box.y + 60, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(500);
}

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
  await zoom(page, 30, 31.2, 140);
  await page.screenshot({ path: out('contest-zoomed.png') });
  await page.goto(`${relay.url}/?s=offset&var=1`);
  await page.waitForSelector('section.cards[data-side^="B "] [data-card="Result"]');
  await page.getByRole('button', { name: 'Show all' }).click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: out('offset-simulated.png') });
  await page.goto(`${relay.url}/?s=offset&live=1`);
  await page.locator('[data-action="start-live"]').click();
  await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent?.includes('true'), null, { timeout: 30_000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: out('offset-live.png') });
  await page.goto(`${relay.url}/?view=contest-lab&sw=${encodeURIComponent('fixed:w:2..512*2')}&sw=${encodeURIComponent('bdp:gain:1..3+0.25')}`);
  await page.locator('[data-action="sweep"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="sweep-progress"]')?.textContent?.includes(' in '), null, { timeout: 60_000 });
  await page.screenshot({ path: out('lab-contest.png') });
  await page.goto(`${relay.url}/?view=transport-lab&scheme=reno&row=19`);
  await page.waitForFunction(() => document.querySelector('[data-testid="matrix-status"]')?.textContent?.includes('pass'), null, { timeout: 60_000 });
  await page.waitForTimeout(800);
  await page.screenshot({ path: out('lab-transport.png'), fullPage: true });
  await page.goto(`${relay.url}/?view=shared-lab&preset=cdn`);
  await page.waitForSelector('[data-testid="flow-results"]', { timeout: 60_000 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: out('lab-shared.png') });
  await page.goto(`${relay.url}/?view=measurement`);
  await page.waitForSelector('[data-testid="estimates"]');
  await page.screenshot({ path: out('lab-measurement.png') });
  // A real iperf3 transfer of the kernel (tests/fixtures/iperf3-loopback.json: 10 Mbit/s over loopback)
  // imported into A, beside B simulating the kernel's congestion control on a 10 Mbit/s link.
  await page.goto(`${relay.url}/?trace=rate&link.bandwidth=10&link.delay=20`);
  await page.waitForSelector('section.cards[data-side^="A "] [data-card="Throughput"]');
  await page.getByText('Import', { exact: true }).click();
  await page.locator('[data-import="a"]').setInputFiles(resolve(ROOT, 'tests/fixtures/iperf3-loopback.json'));
  await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "] h3 small')?.textContent?.startsWith('imported'));
  await page.getByText('Import', { exact: true }).click();
  await page.waitForSelector('section.cards[data-side^="B "] [data-card="Throughput"]');
  await page.getByRole('button', { name: 'Show all' }).click();
  await zoom(page, 0, 3.1, 60);
  await page.screenshot({ path: out('import-iperf3.png') });
} finally {
  await browser.close();
  await relay.close();
}
