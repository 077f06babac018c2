import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSeries } from '../../shared/metrics/series.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { coarseDots } from '../../shared/metrics/thin.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';
import { DEFAULT_EXPERIMENT } from '../../web/state/experiment.ts';
import { specFor } from '../../web/state/spec.ts';
import { DOT_COLUMNS, DOT_ROWS } from '../../web/worker/runView.ts';
import { card, open, playground, quickPlayback } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** Pairs of a (t, y) series from `t0` to `t1`. */
const within = (d: Float64Array, t0: number, t1: number) => {
  let n = 0;
  for (let i = 0; i < d.length; i += 2) if (d[i] >= t0 && d[i] <= t1) n++;
  return n;
};

/** A fixed window of 20 on 24 Mbit/s, both sides alike: bursts of sends half a millisecond apart, on the y axis both share. */
const STEADY = { ...DEFAULT_EXPERIMENT, trace: 'rate', link: { bandwidth: 24 }, a: { scheme: 'fixed', params: { w: 20 } }, b: { scheme: 'fixed', params: { w: 20 } } };

describe('a chart zoomed to a tenth of a second', () => {
  it('draws every packet A sent in it, not the coarse copy the whole run is drawn from', { timeout: 60_000 }, async () => {
    const run = runScenario(specFor(STEADY, 'a'), loadTrace);
    const sends = runSeries(run.log, run.endMs, run.trace, false).sends;
    // nine halvings about the middle of the run: + on a focused chart
    const half = run.endMs / 2 ** 10;
    const [t0, t1] = [run.endMs / 2 - half, run.endMs / 2 + half];
    const coarse = within(coarseDots(sends, 0, run.endMs, DOT_COLUMNS, DOT_ROWS)!.data, t0, t1);
    const whole = within(sends, t0, t1);
    expect(whole, 'the window holds several packets per coarse cell').toBeGreaterThan(2 * coarse);

    const { page, problems } = await open(env.context, `${env.relay.url}/?trace=rate&link.bandwidth=24&a=fixed&a.w=20&b=fixed&b.w=20`);
    await quickPlayback(page);
    await card(page, 'A', 'Delay95');
    const plot = page.locator('.column[data-side="a"]').getByRole('application', { name: /^Sequence numbers sent and acknowledged/ });
    await plot.focus();
    for (let i = 0; i < 9; i++) await plot.press('+');
    // A's sends are its only blue marks on this chart, each dot two pixels square and apart from the others
    // at this scale: the coarse copy paints at most four pixels a point, the whole series more
    const blue = () =>
      plot.locator('canvas').evaluate((c: HTMLCanvasElement) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] === 0x00 && d[i + 1] === 0x72 && d[i + 2] === 0xb2 && d[i + 3] === 255) n++;
        return n;
      });
    await expect.poll(blue, { timeout: 20_000 }).toBeGreaterThan(4 * coarse);
    // the figure of the zoomed charts holds them too: A's sends are the first send layer, a square each
    await page.getByText('Export', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="svg"]').click()]);
    const file = join(tempDir(), 'zoomed.svg');
    await download.saveAs(file);
    const svg = readFileSync(file, 'utf8');
    const sendsPath = /<path data-layer="send" d="([^"]*)"/.exec(svg)![1];
    expect(sendsPath.split('Z').length - 1).toBeGreaterThan(coarse);

    // a new run while the zoom stands: its whole dots are asked for once it is shown
    const next = { ...STEADY, link: { bandwidth: 24, delay: 30 } };
    const run2 = runScenario(specFor(next, 'a'), loadTrace);
    const sends2 = runSeries(run2.log, run2.endMs, run2.trace, false).sends;
    const coarse2 = within(coarseDots(sends2, 0, run2.endMs, DOT_COLUMNS, DOT_ROWS)!.data, t0, t1);
    expect(within(sends2, t0, t1)).toBeGreaterThan(2 * coarse2);
    const throughput2 = `${summarize(run2).all.throughputMbps.toFixed(2)} Mbit/s`;
    expect(throughput2).not.toBe(await card(page, 'A', 'Throughput'));
    const delay = page.locator('[data-number="link.delay"]');
    await delay.fill('30');
    await delay.press('Enter');
    await expect.poll(() => card(page, 'A', 'Throughput'), { timeout: 20_000 }).toBe(throughput2);
    await expect.poll(blue, { timeout: 20_000 }).toBeGreaterThan(4 * coarse2);
    expect(problems).toEqual([]);
    await page.close();
  });
});
