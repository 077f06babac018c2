import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findScheme } from '../../shared/controllers/registry.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { scoreboardEntries } from '../../shared/scenarios/sweep.ts';
import { loadTrace } from '../../server/traces.ts';
import { significant } from '../../web/charts/format.ts';
import { channels } from '../../web/charts/palette.ts';
import { pointStyle } from '../../web/labs/contest/pointStyle.ts';
import type { SweepResult } from '../../web/labs/contest/useSweepRunner.ts';
import { open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('the contest lab’s scoreboard in Chromium', () => {
  it('tells every scheme apart on the plane and in the table, named alike in both, with the cards’ figures', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=contest-lab`);
    await page.locator('[data-action="scoreboard"]').click();
    const rows = page.locator('[data-testid="sweep-table"] tbody tr');
    const entries = scoreboardEntries();
    await expect.poll(() => rows.count(), { timeout: 40_000 }).toBe(entries.length);
    const swatches = await rows.locator('i.swatch').evaluateAll((is) => is.map((i) => `${(i as HTMLElement).style.background} ${i.getAttribute('data-marker')}`));
    expect(new Set(swatches).size).toBe(entries.length);
    // Each scheme's look follows its place in the list, not the order the workers finished in.
    const looks = entries.map((_, k) => pointStyle({ sweep: k } as SweepResult, true));
    expect(swatches).toEqual(looks.map((l) => `rgb(${channels(l.color).join(', ')}) ${l.marker}`));
    // The plane's labels: each scheme by the table's name, once.
    const titles = entries.map((e) => findScheme(e.scheme)!.title);
    const labels = await page.locator('figure.plane .point-label text').allTextContents();
    for (const t of titles)
      expect(
        labels.filter((l) => l === t),
        t,
      ).toHaveLength(1);
    // Power with three significant digits, as on the playground's cards (CUBIC's is below 1).
    const cubic = summarize(runScenario(contest('Verizon-LTE-short', [flow('cubic', {})]), loadTrace)).all;
    const cells = await rows.filter({ hasText: 'CUBIC' }).locator('td').allInnerTexts();
    expect(cells.slice(1)).toEqual([cubic.throughputMbps.toFixed(2), cubic.delay95.toFixed(0), significant(cubic.power), cubic.score.toFixed(3)]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
