import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { contest, flow, MATRIX, SHARED_PRESETS, sharedBottleneck } from '../../shared/scenarios/presets.ts';
import { matrixRuns } from '../../shared/scenarios/matrix.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { withUserCode } from '../../shared/controllers/userInstalled.ts';
import { loadSchemeFile } from '../../server/cli/schemeFlags.ts';
import { loadTrace } from '../../server/traces.ts';
import { fixed } from '../../web/charts/format.ts';
import { open, playground } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** A fixed window of 6 packets, unlike every built-in's numbers. */
const SIX = `export default {
  title: 'Six in flight',
  params: [],
  create() {
    return { windowSize() { return 6; }, onAck(ack) {}, onTimeout(now) {}, timeoutMs() { return 300; } };
  },
};
`;

/** Runs a spec headless with SIX as the user scheme, as the labs' workers do. */
async function headless<T>(f: (schemes: SchemeCatalogue) => T): Promise<T> {
  const dir = tempDir('pipefill-labs-');
  writeFileSync(join(dir, 'six.js'), SIX);
  return f(withUserScheme(await loadSchemeFile(join(dir, 'six.js'))));
}

/** A page whose saved controller is SIX, opened on `query`. */
async function withSavedController(query: string) {
  const { page, problems } = await open(env.browser, env.relay.url);
  await page.evaluate((code) => localStorage.setItem('pipefill.controller', code), SIX);
  await page.goto(`${env.relay.url}/${query}`);
  return { page, problems };
}

describe("the user's controller in the labs", () => {
  it('runs the transport matrix, every row on every seed, and opens a row', async () => {
    const want = await headless((schemes) => fixed(summarize(runScenario(withUserCode(matrixRuns(MATRIX[0], 'user')[0], schemes), loadTrace, schemes)).flows[0].reliable!.seconds, 3));
    const { page, problems } = await withSavedController('?view=transport-lab');
    await page.locator('select[aria-label="controller"]').selectOption('user');
    // the matrix of the scheme shown first finishes too: wait for the user's row, then for the whole matrix
    await page.waitForFunction((w) => document.querySelector('tr[data-row="1"] td:nth-child(7)')?.textContent === w, want, { timeout: 120_000 });
    await page.waitForFunction(() => /rows pass/.test(document.querySelector('[data-testid="matrix-status"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
    expect(await page.locator('tr[data-row="1"] td').nth(6).innerText()).toBe(want);
    // the address is written once the page settles: a busy page writes it a little later
    await expect.poll(() => new URL(page.url()).searchParams.get('scheme')).toBe('user');
    await page.locator('tr[data-row="1"]').click();
    await page.getByRole('heading', { name: /Row 1: .* · Six in flight/ }).waitFor();
    // its run, made in a worker that was handed the code, is drawn
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLCanvasElement>('section.row-run canvas')].some((c) => {
          const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? [];
          for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return true;
          return false;
        }),
      undefined,
      { timeout: 60_000 },
    );
    // a reload keeps the user's controller chosen (the saved code is installed before the link is read)
    await page.reload();
    expect(await page.locator('select[aria-label="controller"]').inputValue()).toBe('user');
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('runs as one of the flows on a shared bottleneck', async () => {
    const preset = SHARED_PRESETS.find((p) => p.id === 'cdn')!;
    const want = await headless((schemes) => {
      const spec = sharedBottleneck(preset);
      spec.flows = spec.flows.map((f, i) => ({ ...f, scheme: i === 0 ? 'user' : f.scheme, params: {} }));
      return fixed(summarize(runScenario(withUserCode(spec, schemes), loadTrace, schemes)).flows[0].reliable!.goodputMbps, 3);
    });
    const { page, problems } = await withSavedController('?view=shared-lab&preset=cdn');
    await page.locator('[data-testid="flow-results"]').waitFor();
    await page.locator('select[aria-label="flow 1 scheme"]').selectOption('user');
    const row = page.locator('[data-testid="flow-results"] tbody tr').first();
    await page.waitForFunction(() => document.querySelector('[data-testid="flow-results"] tbody tr')?.textContent?.includes('Six in flight'), undefined, { timeout: 60_000 });
    expect(await row.locator('td').nth(2).innerText()).toBe(want);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('a shared link’s code cannot move the contest lab’s omniscient star, even in a sweep of that code alone', async () => {
    // the module patches the memo the omniscient point is kept in, in the worker it loads into
    const forger = `const get = Map.prototype.get;
Map.prototype.get = function (k) { return typeof k === 'string' && /^\\d+\\/(true|false)$/.test(k) ? { throughputMbps: 42, delay95: 3 } : get.call(this, k); };
export default {
  title: 'Forger',
  params: [{ name: 'w', unit: 'packets', min: 1, max: 50, step: 1, default: 6, doc: 'Packets in flight' }],
  create(p) { return { windowSize() { return p.w; }, onAck(ack) {}, onTimeout(now) {} }; },
};
`;
    const omni = summarize(runScenario(contest('Verizon-LTE-short', [flow('fixed')]), loadTrace)).omniscient!;
    const { page, problems } = await open(env.browser, env.relay.url);
    await page.evaluate((code) => localStorage.setItem('pipefill.controller', code), forger);
    await page.goto(`${env.relay.url}/?view=contest-lab&sw=user:w:4,8`);
    await page.locator('[data-action="sweep"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="sweep-progress"]')?.textContent?.includes('2 / 2 runs in'), null, { timeout: 30_000 });
    const star = page.locator('figure.plane title', { hasText: /^omniscient: / });
    await expect.poll(() => star.textContent(), { timeout: 10_000 }).toBe(`omniscient: ${fixed(omni.throughputMbps, 2)} Mbit/s, ${fixed(omni.delay95, 0)} ms`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
