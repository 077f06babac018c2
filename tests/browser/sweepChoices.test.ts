import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvParse } from 'd3-dsv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';
import { open, playground } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const DECREASES = ['multiplicative', 'sqrt', 'quartic'];

describe('a sweep over a choice parameter in Chromium', () => {
  it('sweeps AIMD’s decrease rule: one run per choice, each named on the plane, in the table and in the CSV', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?view=contest-lab`, { viewport: { width: 1280, height: 720 }, acceptDownloads: true });
    await page.getByLabel('sweep 1 scheme').selectOption('aimd');
    await page.getByLabel('sweep 1 parameter').selectOption('decrease');
    // a choice opens on all its choices
    expect(await page.locator('[data-param="sweep0"]').inputValue()).toBe(DECREASES.join(','));
    await page.locator('[data-action="sweep"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="sweep-progress"]')?.textContent?.includes('3 / 3 runs in'), null, { timeout: 30_000 });
    for (const decrease of DECREASES) {
      const m = linkMetrics(runScenario(contest('Verizon-LTE-short', [flow('aimd', { decrease })]), loadTrace).log);
      const row = page.locator('[data-testid="sweep-table"] tr', { hasText: `aimd decrease=${decrease}` });
      expect(await row.locator('td').nth(1).innerText()).toBe(m.throughputMbps.toFixed(2));
      expect(await row.locator('td').nth(2).innerText()).toBe(m.delay95.toFixed(0));
      // each choice's point is labelled by its name
      expect(await page.locator('figure.plane text', { hasText: `aimd decrease=${decrease}` }).count()).toBe(1);
    }
    expect(await page.locator('figure.plane circle').count()).toBeGreaterThanOrEqual(3);
    // the link keeps the sweep
    await expect.poll(() => new URL(page.url()).searchParams.getAll('sw')).toContain(`aimd:decrease:${DECREASES.join(',')}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="export"]').click()]);
    const file = join(tempDir(), 'sweep.csv');
    await download.saveAs(file);
    const csv = csvParse(readFileSync(file, 'utf8'));
    expect(csv.map((r) => [r.param, r.value])).toEqual(DECREASES.map((d) => ['decrease', d]));
    for (const size of [
      { width: 1440, height: 900 },
      { width: 1280, height: 720 },
      { width: 1024, height: 768 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(tmpdir(), `pipefill-sweep-choices-${size.width}.png`), fullPage: true });
    }
    // the link opens on the same sweep
    await page.reload();
    expect(await page.getByLabel('sweep 1 parameter').inputValue()).toBe('decrease');
    expect(await page.locator('[data-param="sweep0"]').inputValue()).toBe(DECREASES.join(','));
    // a choice the parameter does not have is refused, as a number out of range is
    await page.locator('[data-param="sweep0"]').fill('sqrt,halve');
    await page.getByText('decrease must be one of multiplicative, sqrt, quartic (got "halve")').first().waitFor();
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
