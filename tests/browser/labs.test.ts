import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkMetrics } from '../../shared/metrics/linkMetrics.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { contest, flow, MATRIX, matrixRun, SHARED_PRESETS, sharedBottleneck } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { starvation } from '../../shared/scenarios/starvation.ts';
import { loadTrace } from '../../server/traces.ts';
import { description, open, playground } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('the labs in Chromium', () => {
  it('contest lab: a sweep fills the plane and the table with the headless numbers, and can be cancelled', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=contest-lab&sw=fixed:w:2..64*2`);
    await page.locator('[data-action="sweep"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="sweep-progress"]')?.textContent?.includes('6 / 6 runs in'), null, { timeout: 20_000 });
    expect(await page.locator('figure.plane circle').count()).toBeGreaterThanOrEqual(6);
    const row = page.locator('[data-testid="sweep-table"] tr', { hasText: 'fixed w=16' });
    const m = linkMetrics(runScenario(contest('Verizon-LTE-short', [flow('fixed', { w: 16 })]), loadTrace).log);
    await expect(row.locator('td').nth(1).innerText()).resolves.toBe(m.throughputMbps.toFixed(2));
    await expect(row.locator('td').nth(2).innerText()).resolves.toBe(m.delay95.toFixed(0));
    expect(await row.innerText()).toContain('★ power'); // w=16 is the best of these by power (see the CLI's sweep)
    expect(await page.locator('figure.plane polyline').count()).toBe(1);

    await page.locator('[data-param="sweep0"]').fill('1..1000+5');
    await page.locator('[data-action="sweep"]').click();
    await page.locator('[data-action="cancel"]').click();
    const text = await page.locator('[data-testid="sweep-progress"]').innerText();
    expect(text).toContain('(cancelled)');
    const done = Number(/^(\d+) \//.exec(text)![1]);
    expect(done).toBeLessThan(100);
    await page.waitForTimeout(500);
    expect(await page.locator('[data-testid="sweep-progress"]').innerText()).toBe(text); // nothing more arrives
    expect(problems).toEqual([]);
    await page.close();
  });

  it('contest lab: scores an uploaded trace, and says what is wrong with a bad one', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=contest-lab&sw=fixed:w:4,8`);
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.up'), '3\n2\n');
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'bad.up'));
    await page.getByText('bad.up is not a Mahimahi trace: line 2: timestamps must not decrease (2 after 3)').waitFor();
    // 6 Mbit/s for 5 s: one 1504-byte opportunity every 2 ms
    writeFileSync(join(dir, 'steady.down'), Array.from({ length: 2500 }, (_, i) => String(2 * (i + 1))).join('\n'));
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'steady.down'));
    await page.waitForFunction(() => (document.querySelector('[data-param="trace"]') as HTMLSelectElement)?.value === 'upload:steady.down');
    await page.locator('[data-action="sweep"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="sweep-progress"]')?.textContent?.includes('2 / 2 runs in'), null, { timeout: 20_000 });
    const omni = page.locator('figure.plane text', { hasText: 'omniscient' });
    expect(await omni.textContent()).toMatch(/^omniscient \(6\.0\d Mbit\/s/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('contest lab: a sweep value outside the parameter’s range is refused with its reason, from the URL or typed', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?view=contest-lab&sw=fixed:w:2..5000*2&trace=Atlantis`);
    await page.getByText('uses the default instead: sw "fixed:w:2..5000*2": w must be a whole number from 1 to 1000 packets (got "1024")').waitFor();
    await page.getByText(/uses the default instead: trace must be one of .* \(got "Atlantis"\)/).waitFor();
    await page.locator('[data-param="sweep0"]').fill('2..5000*2');
    // Said as typed, beside the field; the link keeps the last sweep typed right.
    await page.locator('fieldset').getByText('w must be a whole number from 1 to 1000 packets (got "1024")').waitFor();
    expect(await description(page.locator('[data-param="sweep0"]'))).toBe('w must be a whole number from 1 to 1000 packets (got "1024")');
    await page.locator('[data-action="sweep"]').click();
    await page.getByText('sweep 1: w must be a whole number from 1 to 1000 packets (got "1024")').waitFor();
    await page.locator('[data-param="sweep0"]').fill('4..64*2');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('sw') === 'fixed:w:4..64*2');
    // the refusal was of the sweep as it was run: typed right, nothing says it is wrong
    await page.getByText('sweep 1: w must be').waitFor({ state: 'detached' });
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    await page.locator('[data-param="sweep0"]').fill('abc');
    expect(await page.locator('[data-param="sweep0"]').getAttribute('aria-invalid')).toBe('true');
    await page.waitForTimeout(400);
    expect(new URLSearchParams(new URL(page.url()).search).get('sw')).toBe('fixed:w:4..64*2');
    await page.close();
  });

  it('contest lab: a hand-typed FROM..TO+STEP, its `+` a space once decoded, opens as typed and is written back as the page writes it', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=contest-lab&sw=fixed:w:2..512*2&sw=bdp:gain:1..3+0.25`);
    await expect.poll(() => page.locator('[data-param="sweep1"]').inputValue(), { timeout: 5_000 }).toBe('1..3+0.25');
    expect(await page.locator('.notices').count()).toBe(0);
    await expect.poll(() => new URL(page.url()).search).toBe('?view=contest-lab&sw=fixed%3Aw%3A2..512*2&sw=bdp%3Again%3A1..3%2B0.25');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('transport lab: every row but the 50%-drop one passes with Reno on every seed, and a row opens its run', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=transport-lab`);
    await page.waitForFunction(() => document.querySelector('[data-testid="matrix-status"]')?.textContent?.startsWith('20 / 21 rows pass'), null, { timeout: 30_000 });
    expect(await page.locator('td.pass').count()).toBe(MATRIX.length - 1);
    expect(await page.locator('tr[data-row="12"] td').nth(3).innerText()).toBe('TIMEOUT');
    await page.locator('tr[data-row="19"]').click();
    await page.getByText('Row 19: large, 5 Mbit/s, 10 ms, 10% drop').waitFor();
    await page.waitForSelector('.row-run canvas');
    const pixels = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLCanvasElement>('.row-run canvas')].map((c) => {
          const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
          return n;
        }),
      );
    await expect.poll(async () => (await pixels()).every((p) => p > 100), { timeout: 10_000 }).toBe(true);
    const r = summarize(runScenario(matrixRun(MATRIX[18], 'reno', {}, 1, 'netem'), loadTrace)).flows[0].reliable!;
    expect(await page.locator('tr[data-row="19"] td').nth(9).innerText()).toBe(r.grade!.label);
    expect(page.url()).toContain('row=19');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shared-bottleneck lab: flows, fairness over time and per-flow points', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=moon`);
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="flow-results"] tbody tr').count()).toBe(3);
    expect(await page.locator('[data-testid="flow-results"] tbody tr td:nth-child(4)').allInnerTexts()).toEqual(['yes', 'yes', 'yes']);
    expect(await page.getByText("Jain's fairness index").count()).toBe(1);
    expect(await page.locator('figure.plane circle').count()).toBe(3);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shared-bottleneck lab: another preset keeps the controllers chosen, with the file sizes and start times made for its link', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=moon`);
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    const flows = () => new URL(page.url()).searchParams.getAll('f');
    await page.getByLabel('flow 2 scheme').selectOption('cubic');
    await expect.poll(() => flows()[1]).toMatch(/^cubic:/);
    await page.locator('select[data-param="preset"]').selectOption('90s');
    const expected = sharedBottleneck(SHARED_PRESETS.find((p) => p.id === '90s')!, ['reno', 'cubic', 'reno']).flows.map((f) => `${f.scheme}:${f.startMs}:${f.bytes}`);
    await expect.poll(flows).toEqual(expected);
    await expect.poll(() => page.getByLabel('flow 2 scheme').inputValue()).toBe('cubic');
    // the new preset's own run (moon's table stays until it comes), with the command line's figures
    const want = summarize(runScenario(sharedBottleneck(SHARED_PRESETS.find((p) => p.id === '90s')!, ['reno', 'cubic', 'reno']), loadTrace)).flows.map((f) => f.link.delay95.toFixed(0));
    const delays = () => page.locator('[data-testid="flow-results"] tbody tr td:nth-last-child(2)').allInnerTexts();
    await expect.poll(delays, { timeout: 30_000 }).toEqual(want);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shared-bottleneck lab: a flow’s box refuses what its link would refuse, saying why, and keeps the link reopenable', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=moon`);
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    const flows = () => new URL(page.url()).searchParams.getAll('f');
    const before = flows();
    const start = page.getByLabel('flow 2 start');
    const kept = await start.inputValue();
    for (const [typed, why] of [
      ['12.5', 'start must be a whole number from 0 to 3600000 ms (got "12.5")'],
      ['1000000000', 'start must be a whole number from 0 to 3600000 ms (got "1000000000")'],
      ['e', 'start must be a whole number from 0 to 3600000 ms (got "e")'],
    ]) {
      await start.fill(typed);
      await expect.poll(() => page.getByRole('alert').allInnerTexts()).toContain(`${why}; start stays ${kept}`);
      expect(flows()).toEqual(before);
    }
    await start.fill('1500');
    await expect.poll(() => flows()[1]).toMatch(/^[a-z-]+:1500:\d+$/);
    // The link it wrote reopens with the same flows, and no complaint.
    const again = await open(env.context, page.url());
    await again.page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    expect(new URL(again.page.url()).searchParams.getAll('f')).toEqual(flows());
    expect(await again.page.getByRole('alert').count()).toBe(0);
    expect([...problems, ...again.problems]).toEqual([]);
    await again.page.close();
    await page.close();
  });

  it('shared-bottleneck lab: the starvation preset, picked, shows the jittered Copa flow starved, with the CLI’s figures and a caption saying why', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=shared-lab`);
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 60_000 });
    // the page opens on other flows: picking the preset runs the two flows its name promises
    expect(await page.locator('[data-testid="flow-results"] tbody tr').first().locator('td').first().innerText()).not.toContain('Copa');
    await page.locator('[data-param="preset"]').selectOption('starvation');
    const rows = page.locator('[data-testid="flow-results"] tbody tr');
    // the preset's own run, shown whole: Copa's rows, and no run under way
    await page.waitForFunction(
      () => {
        const names = [...document.querySelectorAll('[data-testid="flow-results"] tbody tr td:first-child')].map((td) => td.textContent ?? '');
        return names.length === 2 && names.every((n) => n.includes('Copa')) && !document.querySelector('.lab-status[data-busy]');
      },
      null,
      { timeout: 60_000 },
    );
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(1).locator('td').first().innerText()).toContain('(ACKs jittered)');
    expect(await rows.nth(0).locator('td').first().innerText()).not.toContain('jittered');
    const throughput = async (i: number) => Number(await rows.nth(i).locator('td').last().innerText());
    const expected = summarize(runScenario(starvation(), loadTrace)).flows.map((f) => f.link.throughputMbps.toFixed(2));
    expect([(await throughput(0)).toFixed(2), (await throughput(1)).toFixed(2)]).toEqual(expected);
    expect(await throughput(1)).toBeLessThanOrEqual((await throughput(0)) / 10);
    expect(await page.locator('[data-caption="starvation"]').innerText()).toMatch(/reads that delay as queueing/);
    // long-lived flows: no file sizes to set, no completion to show
    expect(await page.getByLabel('flow 1 bytes').count()).toBe(0);
    expect(await page.locator('[data-testid="flow-results"] th').allInnerTexts()).toEqual(['flow', 'delay95 ms', 'throughput Mbit/s']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shared-bottleneck lab: the throughput axes read a 56.6 kbit/s link’s flows in kbit/s', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=90s`);
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    const chart = page.locator('figure[aria-label="Throughput of each flow"]');
    await expect.poll(() => chart.locator('text.ylabel').textContent()).toBe('kbit/s');
    expect(await chart.locator('g.tick text[x="-6"]').allTextContents()).toEqual(['0', '20', '40', '60']);
    // the table and the plane read the flows in the same unit
    const heads = await page.locator('[data-testid="flow-results"] th').allInnerTexts();
    expect([heads[2], heads[5]]).toEqual(['goodput kbit/s', 'throughput kbit/s']);
    const goodput = Number(await page.locator('[data-testid="flow-results"] tbody tr').first().locator('td').nth(2).innerText());
    expect(goodput).toBeGreaterThan(1);
    expect(goodput).toBeLessThan(56.6);
    const plane = page.locator('figure.plane');
    expect(await plane.locator('text.ylabel').allTextContents()).toContain('throughput (kbit/s)');
    expect(await plane.locator('g.tick text[x="-6"]').allTextContents()).toEqual(['0', '10', '20', '30', '40']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shared-bottleneck lab: each flow’s completion time, and when it finished on the charts’ clock', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=cdn`);
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    const spec = sharedBottleneck(SHARED_PRESETS.find((p) => p.id === 'cdn')!);
    const seconds = summarize(runScenario(spec, loadTrace)).flows.map((f) => f.reliable!.seconds);
    const header = page.locator('[data-testid="flow-results"] th').nth(1);
    expect(await header.innerText()).toBe('completed in');
    expect(await header.getAttribute('title')).toMatch(/^Flow completion time: from the flow's start until every byte of its file is acknowledged/);
    const cells = page.locator('[data-testid="flow-results"] tbody td:nth-child(2)');
    expect(await cells.allInnerTexts()).toEqual(seconds.map((s) => `${s.toFixed(3)} s`));
    const second = spec.flows[1].startMs / 1000;
    expect(await cells.nth(1).getAttribute('title')).toBe(`started at ${second.toFixed(3)} s, finished at ${(second + seconds[1]).toFixed(3)} s`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('measurement lab: the estimate is within 10% of the simulated truth, and the live echo server is measured', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=measurement&bw=20&delay=30`);
    const est = page.locator('[data-estimate="mbps"]');
    await est.waitFor();
    await page.waitForFunction(() => document.querySelector('[data-estimate="mbps"]')?.textContent?.includes('truth 20'));
    const mbps = Number(/^([\d.]+) Mbit\/s/.exec(await est.innerText())![1]);
    const delay = Number(/^([\d.]+) ms/.exec(await page.locator('[data-estimate="delay"]').innerText())![1]);
    expect(Math.abs(mbps - 20) / 20).toBeLessThan(0.1);
    expect(Math.abs(delay - 30) / 30).toBeLessThan(0.1);
    await page.locator('[data-action="measure-live"]').click();
    await page.waitForSelector('[data-testid="live-estimates"]', { timeout: 30_000 });
    expect(await page.locator('figure.plane').nth(1).locator('circle').count()).toBe(7 * 20);
    // A loopback's bandwidth reads in the unit that fits it (Gbit/s), never as thousands of Mbit/s.
    expect(await page.locator('[data-testid="live-estimates"] [data-estimate="mbps"]').innerText()).toMatch(/^(too fast to see|[\d.]+ (kbit|Mbit|Gbit)\/s$)/);
    expect(await page.locator('[data-testid="live-estimates"]').innerText()).not.toMatch(/\dk Mbit/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
