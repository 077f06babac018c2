import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRun } from '../../shared/formats/detect.ts';
import { parseIperf3 } from '../../shared/formats/iperf3.ts';
import { K } from '../../shared/log/kinds.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';
import { DEFAULT_EXPERIMENT } from '../../web/state/experiment.ts';
import { specFor } from '../../web/state/spec.ts';
import { schemeTitle } from '../../web/app/freshness.ts';
import { iperf3Json } from '../helpers/iperf3.ts';
import { card, LIGHT_RUN, open, paintedPixels, playground, quickPlayback } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

/** The experiment LIGHT_RUN opens. */
const LIGHT = { ...DEFAULT_EXPERIMENT, trace: 'rate', link: { bandwidth: 1 } };

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const sideHeading = (side: 'A' | 'B') => `section.cards[data-side^="${side} "] h3`;

describe('exporting a run for another tool', () => {
  it('saves a side’s run as pcap and qlog that read back as its packets', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    const run = runScenario(specFor(LIGHT, 'a'), loadTrace);
    const dir = tempDir();
    await page.getByText('Export', { exact: true }).click();
    for (const format of ['pcap', 'qlog'] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${format}-a"]`).click()]);
      const file = join(dir, download.suggestedFilename());
      await download.saveAs(file);
      const back = readRun(readFileSync(file));
      expect(back.format).toBe(format);
      expect([back.log.count(K.send), back.log.count(K.ack)]).toEqual([run.log.count(K.send), run.log.count(K.ack)]);
    }
    // the capture imported beside the run: named by what it is, its bottleneck figures unknown, not zero
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="b"]').setInputFiles(join(dir, readdirSync(dir).find((f) => f.endsWith('.pcap'))!));
    await page.waitForFunction((h) => document.querySelector(h)?.textContent?.includes('pcap capture'), sideHeading('B'));
    expect(await card(page, 'B', 'Throughput')).toBe('— Mbit/s');
    await expect.poll(() => page.locator('.overview').innerText()).toContain('pcap capture: its file holds the sender alone, not the bottleneck, so it has no throughput, delay or score.');
    expect(await page.locator('.overview').innerText()).not.toContain('stuck at 1');
    await page.close();
  });
});

describe('importing another tool’s run', () => {
  it('draws a real iperf3 transfer of the kernel beside a simulated run of its congestion control on the page’s link', async () => {
    // iperf3 paced at 10 Mbit/s over loopback; the page's link is 10 Mbit/s too.
    const json = await iperf3Json(['-t', '2', '-i', '0.2', '-b', '10M']);
    const kernel = parseIperf3(json).scheme!;
    const file = join(tempDir(), 'kernel.json');
    writeFileSync(file, json);
    const { page, problems } = await open(env.context, `${env.relay.url}/?trace=rate&link.bandwidth=10&link.delay=20`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="a"]').setInputFiles(file);
    await page.waitForFunction((h) => document.querySelector(h)?.querySelector('small')?.textContent?.startsWith('imported'), sideHeading('A'));
    // A is the kernel's run under its own scheme's name; B simulates that scheme on the same link.
    await expect.poll(() => page.locator(sideHeading('A')).innerText()).toContain(schemeTitle(kernel));
    await expect.poll(() => page.locator(sideHeading('B')).innerText()).toContain(schemeTitle(kernel));
    await page.waitForFunction(() => new URLSearchParams(location.search).get('b') !== 'bdp');
    const mbps = Number.parseFloat(await card(page, 'A', 'Throughput'));
    expect(mbps).toBeGreaterThan(8);
    expect(mbps).toBeLessThan(12);
    await page.getByRole('button', { name: 'Show all' }).click();
    // The kernel's 2 s beside the simulated run's 60 s: its marks are few, but on every chart.
    const drawn = (px: number[], least: number) => px.length >= 5 && px.every((p) => p >= least);
    const painted = async () => drawn(await paintedPixels(page, 'a'), 10) && drawn(await paintedPixels(page, 'b'), 200);
    await expect.poll(painted, { timeout: 15_000 }).toBe(true);
    // B's new scheme ran without taking A's import away
    expect(await page.locator(`${sideHeading('A')} small`).innerText()).toMatch(/^imported/);
    expect(await page.locator(`${sideHeading('B')} small`).innerText()).toMatch(/^simulated/);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('says what is wrong with a bad iperf3 file, naming the field', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ start: { test_start: { protocol: 'TCP' } }, intervals: [{ streams: [{ start: 0, end: 1, bytes: 1, bits_per_second: 8, retransmits: 0, rtt: 5 }] }] }),
    );
    const { page } = await open(env.context, `${env.relay.url}/?trace=rate&link.bandwidth=1`);
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="b"]').setInputFiles(join(dir, 'bad.json'));
    await page
      .getByText('bad.json could not be replayed: iperf3 JSON: intervals[0].streams[0].snd_cwnd is missing: the receiver’s output has none, use the sender’s (iperf3 -c … -J, without -R)')
      .waitFor();
    await page.close();
  });
});
