import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flow } from '../../shared/scenarios/presets.ts';
import { scoreSegments } from '../../shared/stress/score.ts';
import { searchWorstTrace } from '../../shared/stress/search.ts';
import { formatSegments, segmentsTrace } from '../../shared/stress/segments.ts';
import { formatTrace } from '../../shared/trace/mahimahi.ts';
import { runCli } from '../helpers/cli.ts';
import { open, playground, textsDrawn } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const SEARCH = 'budget=32&seconds=10&seed=4';
/** Whether the search has ended after `n` runs (passed to the page, so it reads only its argument). */
const done = (n: number) => new RegExp(`^${n} runs`).test(document.querySelector('[data-testid="stress-status"]')?.textContent ?? '');

describe('Break my controller', () => {
  it('finds the trace the command line finds for the seed, draws the run on it, and a link shows it again', async () => {
    const f = flow('aimd');
    const cli = await searchWorstTrace({ seed: 4, budget: 32, totalMs: 10_000, evaluate: async (b) => b.map((s) => scoreSegments(s, f, 4)) });
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=stress&scheme=aimd&${SEARCH}`);
    const statuses = await textsDrawn(page, 'status');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(done, 32, { timeout: 60_000 });
    expect(await page.getByTestId('stress-segments').innerText()).toBe(formatSegments(cli.worst.segments));
    expect(await page.getByTestId('stress-gap').innerText()).toBe((cli.worst.omniscientScore - cli.worst.score).toFixed(3));
    // the controller's charts on the worst trace
    await page.locator('.stress-result canvas').first().waitFor();
    expect(await page.locator('.stress-result figure, .stress-result .chart').count()).toBeGreaterThanOrEqual(3);
    // the charts follow the figures: until they come, the section says they are on their way
    expect(await statuses()).toContain("drawing the controller's run on this trace…");
    expect(await page.getByTestId('lab-run-status').count()).toBe(0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download trace (Mahimahi)' }).click();
    const file = join(tempDir('pipefill-stress-page-'), 'worst.trace');
    await (await download).saveAs(file);
    expect(readFileSync(file, 'utf8')).toBe(formatTrace(segmentsTrace(cli.worst.segments)));
    const figures = await page.getByTestId('stress-figures').innerText();
    expect(figures).toContain('score on the contest trace');
    // the link carries the trace: opened in a browser of its own, it shows the same trace, its run and its figures without searching
    const link = page.url();
    expect(new URL(link).searchParams.get('worst')).toBe(formatSegments(cli.worst.segments));
    const again = await open(env.browser, link);
    expect(await again.page.getByTestId('stress-segments').innerText()).toBe(formatSegments(cli.worst.segments));
    await again.page.locator('.stress-result canvas').first().waitFor();
    expect(await again.page.getByTestId('stress-status').innerText()).toBe('the trace from the link');
    await again.page.getByText('score on the contest trace').waitFor({ timeout: 30_000 });
    expect(await again.page.getByTestId('stress-figures').innerText()).toBe(figures);
    expect(await again.page.getByTestId('stress-gap').innerText()).toBe((cli.worst.omniscientScore - cli.worst.score).toFixed(3));
    expect([...problems, ...again.problems]).toEqual([]);
    await again.page.context().close();
    await page.close();
  });

  it('breaks the user’s own controller as npm run stress does with its file', async () => {
    const code = `export default { title: 'Eight', params: [], create() { return { windowSize: () => 8, onAck() {}, onTimeout() {} }; } };\n`;
    const dir = tempDir('pipefill-stress-page-');
    writeFileSync(join(dir, 'eight.js'), code);
    const cli = JSON.parse(runCli('server/cli/stress.ts', ['--scheme', join(dir, 'eight.js'), '--budget', '32', '--duration', '10', '--seed', '4', '--out', join(dir, 'w.trace'), '--json']).stdout);
    const { page, problems } = await open(env.browser, env.relay.url);
    await page.evaluate((c) => localStorage.setItem('pipefill.controller', c), code);
    await page.goto(`${env.relay.url}/?view=stress&scheme=user&${SEARCH}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(done, 32, { timeout: 60_000 });
    expect(await page.getByTestId('stress-segments').innerText()).toBe(cli.worst.segments);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
