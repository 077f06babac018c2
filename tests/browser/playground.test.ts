import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { parseTrace, traceMbps } from '../../shared/trace/mahimahi.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';
import { DEFAULT_EXPERIMENT } from '../../web/state/experiment.ts';
import { specFor } from '../../web/state/spec.ts';
import { card, LIGHT_RUN, open, quickPlayback, paintedPixels, playground } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** The experiment LIGHT_RUN opens. */
const LIGHT = { ...DEFAULT_EXPERIMENT, trace: 'rate', link: { bandwidth: 1 } };
const headless = (side: 'a' | 'b', e = DEFAULT_EXPERIMENT) => summarize(runScenario(specFor(e, side), loadTrace));

describe('the playground in Chromium', () => {
  it('opens on AIMD versus the BDP estimator, draws both, and shows the headless runner’s numbers', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await quickPlayback(page);
    const a = headless('a');
    const b = headless('b');
    expect(await card(page, 'A', 'Throughput')).toBe(`${a.all.throughputMbps.toFixed(2)} Mbit/s`);
    expect(await card(page, 'A', 'Delay95')).toBe(`${a.all.delay95.toFixed(0)} ms`);
    expect(await card(page, 'B', 'Throughput')).toBe(`${b.all.throughputMbps.toFixed(2)} Mbit/s`);
    expect(await card(page, 'B', 'Score')).toBe(b.all.score.toFixed(3));
    // the BDP estimator's timeout of 0 is one it works out: the sidebar says so, not "0 ms"
    const timeout = page.locator('.param', { has: page.locator('[data-param="b.timeout"]') }).locator('label');
    expect((await timeout.innerText()).trim()).toBe('timeout auto');
    await page.getByRole('button', { name: 'Show all' }).click();
    const painted = async () => (await Promise.all([paintedPixels(page, 'a'), paintedPixels(page, 'b')])).every((px) => px.length >= 5 && px.every((p) => p > 200));
    await expect.poll(painted, { timeout: 10_000 }).toBe(true);
    for (const side of ['a', 'b'] as const) {
      const pixels = await paintedPixels(page, side);
      expect(pixels.length).toBeGreaterThanOrEqual(5);
      for (const p of pixels) expect(p, `${side}: ${pixels}`).toBeGreaterThan(200);
    }
    expect(await page.locator('figure.plane text', { hasText: 'omniscient' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a slider move re-runs and changes the numbers; the URL carries it and reopens the same run', { timeout: 60_000 }, async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await quickPlayback(page);
    const before = await card(page, 'A', 'Delay95');
    const slider = page.locator('[data-param="a.timeout"]');
    await slider.fill('400');
    await page.waitForFunction((old) => document.querySelector('section.cards[data-side^="A "] [data-card="Delay95"] dd')?.textContent?.trim() !== old, before);
    const after = await card(page, 'A', 'Delay95');
    expect(after).not.toBe(before);
    await expect.poll(() => page.url()).toContain('a.timeout=400');
    const e = { ...DEFAULT_EXPERIMENT, a: { scheme: 'aimd', params: { timeout: 400 } } };
    expect(after).toBe(`${headless('a', e).all.delay95.toFixed(0)} ms`);
    const again = await open(env.context, page.url());
    await quickPlayback(again.page);
    expect(await card(again.page, 'A', 'Delay95')).toBe(after);
    expect(await again.page.locator('[data-param="a.timeout"]').inputValue()).toBe('400');
    expect([...problems, ...again.problems]).toEqual([]);
    await page.close();
    await again.page.close();
  });

  it('exports the trace CSV with a row per event, and importing it replays the same figures', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    await page.getByText('Export', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="trace-a"]').click()]);
    const file = join(tempDir(), 'a.csv');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    const imported = parseTraceCsv(text);
    const run = runScenario(specFor(LIGHT, 'a'), loadTrace);
    expect(imported.log.length).toBe(run.log.length);
    expect(imported.spec).toEqual(specFor(LIGHT, 'a'));
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="b"]').setInputFiles(file);
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="B "] h3 small')?.textContent?.startsWith('imported'));
    expect(await card(page, 'B', 'Throughput')).toBe(await card(page, 'A', 'Throughput'));
    expect(await card(page, 'B', 'Delay95')).toBe(await card(page, 'A', 'Delay95'));
    await page.close();
  });

  it('exports the link as a Mahimahi trace file, bundled or generated for a constant rate', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?trace=rate&link.bandwidth=6`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    await page.getByText('Export', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="link-trace"]').click()]);
    const file = join(tempDir(), 't.trace');
    await download.saveAs(file);
    const trace = parseTrace(readFileSync(file, 'utf8'));
    expect(traceMbps(trace)).toBeCloseTo(6, 1);
    await page.close();
  });

  it('an invalid trace upload and a broken CSV say what is wrong, and the page keeps working', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.down'), '1\n5\nfast\n');
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'bad.down'));
    await page.getByText('bad.down is not a Mahimahi trace: line 3: not a whole number of milliseconds: "fast"').waitFor();
    writeFileSync(join(dir, 'bad.csv'), 'time,what\n1,2\n');
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="a"]').setInputFiles(join(dir, 'bad.csv'));
    await page
      .getByText(
        'bad.csv could not be replayed: it is none of the files Import reads: a run\'s trace CSV as Export saves it (its first line "# pipefill-trace v1"), iperf3\'s JSON (--json), a qlog, a pcap capture, or a Mahimahi link log',
      )
      .waitFor();
    // A run's rows pasted after themselves: time restarts at 0 on line 6, and B keeps no impossible figures.
    const rows = '0,0,send,0,1500,1,1,\n20,0,ack,0,80,1,40,\n';
    writeFileSync(join(dir, 'twice.csv'), `# pipefill-trace v1\n# spec null\nt_ms,flow,kind,seq,bytes,window,value,detail\n${rows}${rows}`);
    await page.locator('[data-import="b"]').setInputFiles(join(dir, 'twice.csv'));
    await page.getByText('twice.csv could not be replayed: line 6: time goes backwards (t_ms 0 after 20): the rows of a trace are in time order').waitFor();
    writeFileSync(join(dir, 'good.down'), Array.from({ length: 3000 }, (_, i) => String(i + 1)).join('\n'));
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'good.down'));
    await page.waitForFunction(() => new URLSearchParams(location.search).get('trace') === 'upload:good.down');
    // an upload that fails, then one that works: the failure is past, and its notice goes with it
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'bad.down'));
    const failed = page.getByText('bad.down is not a Mahimahi trace');
    await failed.waitFor();
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'good.down'));
    await expect.poll(() => failed.count()).toBe(0);
    await page.waitForFunction(() => document.querySelector('.playback .time')?.textContent?.endsWith('/ 3 s'));
    expect(await card(page, 'A', 'Throughput')).toMatch(/^\d+\.\d\d Mbit\/s$/);
    // a trace of a few lines, played once, makes runs that short: the page says so, and how to make them longer
    writeFileSync(join(dir, 'one.down'), '1\n');
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'one.down'));
    await page.getByText('one.down lasts 1 ms, and the link plays it once, so the runs last 1 ms too').waitFor();
    await page.close();
  });

  it('bad URL state: a message naming each problem, and the defaults run', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?a.b=7&trace=Atlantis&seed=-3&b=warp`);
    await quickPlayback(page);
    await page.getByText('b must be a number from 0.05 to 0.95 (got "7")').waitFor();
    await page.getByText(/trace must be one of .* \(got "Atlantis"\)/).waitFor();
    await page.getByText('seed must be a whole number').waitFor();
    await page.getByText(/controller B: b must be one of .* \(got "warp"\)/).waitFor();
    expect(await card(page, 'A', 'Throughput')).toBe(`${headless('a').all.throughputMbps.toFixed(2)} Mbit/s`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a drag across a chart zooms every chart to that span without selecting text, and a double-click shows the whole run', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await quickPlayback(page);
    await card(page, 'A', 'Delay95');
    const chart = (side: 'a' | 'b') => page.locator(`.column[data-side="${side}"] figure.chart`).first();
    const xTicks = (side: 'a' | 'b') => chart(side).locator('svg text').allInnerTexts();
    const whole = await xTicks('a');
    const box = (await chart('a').locator('svg').boundingBox())!;
    // From well inside the axis labels to the right: the labels' text lies under the pointer's path.
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height - 8);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height - 8, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => xTicks('a')).not.toEqual(whole);
    expect(await xTicks('b'), 'B zooms with A').toEqual(await xTicks('a'));
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
    await chart('a').locator('svg').dblclick();
    await expect.poll(() => xTicks('a')).toEqual(whole);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a slider drag writes the URL a few times, not at every step, and it ends on the last value', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await quickPlayback(page);
    await page.evaluate(() => {
      const w = window as unknown as { urlWrites: number };
      w.urlWrites = 0;
      const replace = history.replaceState.bind(history);
      history.replaceState = (...args: Parameters<History['replaceState']>) => {
        w.urlWrites++;
        replace(...args);
      };
    });
    const slider = page.locator('[data-param="a.timeout"]');
    // Ten steps 20 ms apart (a drag on a loaded machine takes longer: the page renders each step).
    const drag = await slider.evaluate(async (el: HTMLInputElement) => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      const values = [410, 420, 430, 440, 450, 460, 470, 480, 490, 500];
      const t0 = performance.now();
      for (const v of values) {
        set.call(el, String(v));
        el.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 20));
      }
      return { steps: values.length, ms: performance.now() - t0 };
    });
    await expect.poll(() => new URL(page.url()).searchParams.get('a.timeout')).toBe('500');
    const writes = await page.evaluate(() => (window as unknown as { urlWrites: number }).urlWrites);
    // At most the first step at once, one write per 300 ms of the drag, and its last step after it (a busy page may fold the first into the last).
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes, `${writes} writes in a drag of ${drag.ms.toFixed(0)} ms`).toBeLessThanOrEqual(2 + Math.floor(drag.ms / 300));
    expect(writes).toBeLessThan(drag.steps);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('controls changed one after another all stay in force: the link, each side, in any order', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await quickPlayback(page);
    const changes: [string, string][] = [
      ['a.timeout', '460'],
      ['b.gain', '1.5'],
      ['link.delay', '35'],
      ['b.interval', '30'],
      ['link.delay', '40'],
    ];
    for (const [name, value] of changes) await page.locator(`[data-number="${name}"]`).fill(value);
    const want = { 'a.timeout': '460', 'b.gain': '1.5', 'b.interval': '30', 'link.delay': '40' };
    await expect.poll(() => Object.fromEntries(Object.keys(want).map((k) => [k, new URL(page.url()).searchParams.get(k)]))).toEqual(want);
    for (const [name, value] of Object.entries(want)) expect(await page.locator(`[data-number="${name}"]`).inputValue()).toBe(value);
    expect(problems).toEqual([]);
    await page.close();
  });
});
