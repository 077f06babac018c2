import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** Where the exported files are kept, so they can be looked at after the run. */
const OUT = join(tmpdir(), 'pipefill-export-test');
mkdirSync(OUT, { recursive: true });

async function exportFigure(page: Page, kind: 'svg' | 'png'): Promise<Buffer> {
  await page.getByText('Export', { exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-export="${kind}"]`).click()]);
  const file = join(OUT, `figure.${kind}`);
  await download.saveAs(file);
  return readFileSync(file);
}

/** The page once both runs are in and played to the end, so every chart holds the whole run. */
async function ready(url: string): Promise<Page> {
  const { page } = await open(env.browser, url);
  // Each side runs in its own worker: both cards, so neither side's charts still show its preview.
  await card(page, 'A', 'Throughput');
  await card(page, 'B', 'Throughput');
  await page.getByRole('button', { name: 'Show all' }).click();
  await page.waitForTimeout(300);
  return page;
}

const unescapeXml = (s: string) => s.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));

describe('the figure an instructor puts on a slide', () => {
  it('SVG: headings, cards, captions, legends and the settings as text; every mark a vector path, no bitmaps', { timeout: 90_000 }, async () => {
    const page = await ready(`${env.relay.url}/?a=aimd&b=bdp&seed=7&link.delay=30`);
    const headings = await page.locator('.column-head h2').allInnerTexts();
    const values = [await card(page, 'A', 'Throughput'), await card(page, 'A', 'Delay95'), await card(page, 'B', 'Score')];
    const caption = await page.locator('[data-caption="window"]').innerText();
    // both runs time out at this seed: every chart carries their ticks
    const charts = await page.locator('figure.chart').count();
    const svg = (await exportFigure(page, 'svg')).toString('utf8');
    const text = unescapeXml(svg);
    for (const h of headings) expect(text).toContain(h);
    for (const v of values) expect(text).toContain(v.split(' ')[0]);
    // Captions wrap: each of their words is in the figure, in order, one text per line.
    expect(text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')).toContain(caption.split(' ').slice(0, 6).join(' '));
    expect(text).toContain('Throughput vs delay');
    // The settings line: both schemes with their parameters, the trace, the delay and the seed.
    const settings = [...text.matchAll(/<text[^>]*data-settings[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]).join(' · ');
    expect(settings).toMatch(/^A: AIMD \(.*\) · B: BDP estimator \(.*\) · trace Verizon LTE .* · delay 30 ms each way · seed 7$/);
    // No bitmaps of any kind.
    expect(svg).not.toMatch(/<image|foreignObject|data:image/);
    // The canvas marks came back as paths: sends and ACKs on both sides, the window lines, the pipe.
    const layers = [...svg.matchAll(/<path data-layer="([^"]+)" d="([^"]*)"/g)].map((m) => ({ label: m[1], length: m[2].length }));
    // Timer ticks on every chart of both sides: AIMD's timeouts on A's, the BDP estimator's re-estimates (named so) on B's.
    const timers = ['timeout', 're-estimate (its timer)'];
    expect(timers.map((t) => layers.filter((l) => l.label === t).length).reduce((x, y) => x + y)).toBe(charts);
    for (const label of ['send', 'ack', 'window', 'pipe: capacity × min RTT', 'throughput', 'queued', ...timers]) {
      const of = layers.filter((l) => l.label === label);
      if (timers.includes(label)) expect(of.length, label).toBeGreaterThan(0);
      else expect(of.length, label).toBe(2);
      // the pipe is one straight segment, a few timer firings a few ticks; the rest follow the run
      for (const l of of) expect(l.length, label).toBeGreaterThan(label.startsWith('pipe') || timers.includes(label) ? 10 : 200);
    }
    // Thinned to about the pixels they cover, not one point per event.
    expect(svg.length).toBeLessThan(2_000_000);
    // Well-formed, and the browser draws it.
    const drawn = await page.evaluate(async (s) => {
      if (new DOMParser().parseFromString(s, 'image/svg+xml').querySelector('parsererror')) return 'parse error';
      const img = new Image();
      img.src = URL.createObjectURL(new Blob([s], { type: 'image/svg+xml' }));
      await img.decode();
      return `${img.naturalWidth}×${img.naturalHeight}`;
    }, svg);
    expect(drawn).toMatch(/^\d+×\d+$/);
    await page.close();
  });

  it('a figure exported while the run plays shows the whole run the cards describe, and no playhead', { timeout: 90_000 }, async () => {
    const { page } = await open(env.browser, `${env.relay.url}/?a=aimd&b=bdp&seed=3`);
    await card(page, 'B', 'Throughput');
    const marks = (svg: string) => [...svg.matchAll(/<path data-layer="[^"]+" d="[^"]*"/g)].map((m) => m[0]);
    const playing = (await exportFigure(page, 'svg')).toString('utf8');
    expect(await page.locator('.playback .time').innerText()).not.toMatch(/^140(\.0)? s/); // still playing when exported
    await page.getByText('Export', { exact: true }).click(); // folds the menu the export opened
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.waitForTimeout(300);
    const played = (await exportFigure(page, 'svg')).toString('utf8');
    expect(marks(playing).length).toBeGreaterThan(20);
    expect(marks(playing)).toEqual(marks(played));
    await page.close();
  });

  it('SVG of overlaid charts: each side’s event ticks in its colour, B’s hanging from the top edge', { timeout: 90_000 }, async () => {
    const page = await ready(env.relay.url);
    await page.locator('[data-action="overlay"]').check();
    await page.locator('[data-overlay="window"] figure.chart').waitFor();
    const svg = (await exportFigure(page, 'svg')).toString('utf8');
    const ticks = (layer: string) => [...svg.matchAll(new RegExp(`<path data-layer="${layer}" d="([^"]*)" fill="([^"]*)"`, 'g'))].map((m) => ({ d: m[1], fill: m[2] }));
    // AIMD's timeouts; the BDP estimator's timer firing is its re-estimate, named so
    const [a, b] = [ticks('A timeout'), ticks('B re-estimate \\(its timer\\)')];
    // the five charts every run has carry both sides' timer ticks
    expect(a.length).toBeGreaterThanOrEqual(5);
    expect(b.length).toBeGreaterThanOrEqual(5);
    for (const t of a) expect(t.fill).toBe('#0072B2');
    for (const t of b) expect(t.fill).toBe('#D55E00');
    // each tick a rectangle "Mx,yh…v…h…Z": B's start at the top (y 0), A's below it, on the time axis
    const tops = (ts: { d: string }[]) => ts.flatMap((t) => [...t.d.matchAll(/M[\d.-]+,([\d.-]+)h/g)].map((m) => Number(m[1])));
    expect(new Set(tops(b))).toEqual(new Set([0]));
    expect(Math.min(...tops(a))).toBeGreaterThan(50);
    await page.close();
  });

  it('SVG: a card label the page breaks after a hyphen keeps each part on its line, whole', { timeout: 90_000 }, async () => {
    const page = await ready(`${env.relay.url}/?trace=rate&link.bandwidth=1`);
    // At this width the cards are narrow enough that "Per-packet one-way p95" breaks after "one-".
    await page.setViewportSize({ width: 1080, height: 1100 });
    const label = page.locator('section.cards[data-side^="A "] [data-card="One-way p95"] dt');
    const lines = await label.evaluate((dt) => {
      const node = dt.firstChild as Text;
      const range = document.createRange();
      range.setStart(node, node.data.indexOf('one-way'));
      range.setEnd(node, node.data.indexOf('one-way') + 'one-way'.length);
      return range.getClientRects().length;
    });
    expect(lines, 'the page breaks "one-way" across two lines').toBe(2);
    const texts = [...unescapeXml((await exportFigure(page, 'svg')).toString('utf8')).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    const parts = texts.filter((t) => /one-|^way p95/.test(t));
    expect(parts.slice(0, 2)).toEqual(['Per-packet one-', 'way p95']);
    expect(texts.filter((t) => t.includes('…'))).toEqual([]);
    await page.close();
  });

  it('PNG: twice the figure’s size, with both sides’ colours and the charts’ marks', { timeout: 90_000 }, async () => {
    const page = await ready(env.relay.url);
    const width = await page.locator('.runs').evaluate((m) => Math.ceil(m.getBoundingClientRect().width));
    const png = await exportFigure(page, 'png');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20
    expect(png.readUInt32BE(16)).toBe(2 * width);
    const height = png.readUInt32BE(20);
    expect(height).toBeGreaterThan(2 * 600);
    const pixels = await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let inked = 0;
      let blue = 0;
      let vermillion = 0;
      let orange = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) inked++;
        if (d[i] === 0x00 && d[i + 1] === 0x72 && d[i + 2] === 0xb2) blue++;
        if (d[i] === 0xd5 && d[i + 1] === 0x5e && d[i + 2] === 0x00) vermillion++;
        if (d[i] === 0xaa && d[i + 1] === 0x82 && d[i + 2] === 0x3c) orange++;
      }
      return { inked: inked / (d.length / 4), blue, vermillion, orange };
    }, png.toString('base64'));
    expect(pixels.inked).toBeGreaterThan(0.03);
    expect(pixels.blue).toBeGreaterThan(1000);
    expect(pixels.vermillion).toBeGreaterThan(1000);
    // the ACK dots of both sequence charts (a legend's swatches alone are a few hundred pixels)
    expect(pixels.orange, JSON.stringify(pixels)).toBeGreaterThan(4000);
    await page.close();
  });
});
