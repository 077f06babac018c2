import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { Page } from 'playwright-core';
import { launchChromium } from '../tests/helpers/browser.ts';
import { testRelay } from '../tests/helpers/relay.ts';
import { ROOT } from '../server/relay.ts';
import { dragAndTrace, firstChart, inMachineUnits } from './browserFeedback.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The page's JavaScript heap after a contest A/B run, garbage collected first, through the DevTools
 * protocol: the page thread only (the runs' logs live in the workers).
 */
async function pageHeapMb(page: Page): Promise<{ used: number; total: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, totalSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return { used: usedSize / 2 ** 20, total: totalSize / 2 ** 20 };
}

function bundleSize(dir: string): { raw: number; gzip: number; files: number } {
  let raw = 0;
  let gzip = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) {
        if (f !== 'traces') walk(p);
      } else if (/\.(js|css|html)$/.test(f)) {
        const b = readFileSync(p);
        raw += b.length;
        gzip += gzipSync(b, { level: 9 }).length;
        files++;
      }
    }
  };
  walk(dir);
  return { raw, gzip, files };
}

/** Playback: replays from 40% in at ×20 and counts frames over three seconds; where the playhead then is. */
async function playbackFps(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Show all' }).click();
  await page.locator('.playback select').selectOption('20');
  const fps = await page.evaluate(async () => {
    const scrub = document.querySelector<HTMLInputElement>('.playback input[type=range]')!;
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    set.call(scrub, String(Number(scrub.max) * 0.4));
    scrub.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => setTimeout(r, 300));
    (document.querySelector('.playback button') as HTMLButtonElement).click();
    let frames = 0;
    const start = performance.now();
    await new Promise<void>((done) => {
      const tick = () => {
        frames++;
        if (performance.now() - start < 3000) requestAnimationFrame(tick);
        else done();
      };
      requestAnimationFrame(tick);
    });
    return (frames / (performance.now() - start)) * 1000;
  });
  const playheadAt = await page.evaluate(() => document.querySelector('.playback .time')!.textContent!);
  return `${fps.toFixed(1)} frames/s (playhead then at ${playheadAt})`;
}

/** Slider moves → both sides' numbers re-run and charts redrawn: from the key press to the frame after A's card changed, ms, over 20 moves. */
async function sliderReruns(page: Page): Promise<number[]> {
  await page.getByRole('button', { name: 'Show all' }).click();
  const slider = page.locator('[data-param="a.a"]');
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    await slider.focus();
    const key = i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft';
    const ms = await page.evaluate(
      (k) =>
        new Promise<number>((resolve) => {
          const el = document.querySelector('section.cards[data-side^="A "] [data-card="Delay95"] dd')!;
          const before = el.textContent;
          const input = document.querySelector<HTMLInputElement>('[data-param="a.a"]')!;
          const t0 = performance.now();
          const obs = new MutationObserver(() => {
            if (el.textContent === before) return;
            obs.disconnect();
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
          });
          obs.observe(el, { childList: true, subtree: true, characterData: true });
          input.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
          const step = Number(input.step);
          const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
          set.call(input, String(Number(input.value) + (k === 'ArrowRight' ? step : -step)));
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      key,
    );
    times.push(ms);
  }
  return times;
}

export async function benchBrowser(): Promise<Record<string, string>> {
  await build({ configFile: resolve(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  const size = bundleSize(resolve(ROOT, 'dist'));
  const relay = await testRelay();
  const browser = await launchChromium();
  // tsx keeps function names with a helper that functions sent to the page refer to.
  const keepNames = 'globalThis.__name = (f) => f';
  const figures: Record<string, string> = {
    'production bundle (JS, CSS, HTML; traces apart)': `${(size.gzip / 1024).toFixed(1)} kB gzipped (${(size.raw / 1024).toFixed(0)} kB raw, ${size.files} files)`,
  };
  try {
    const [first] = await firstChart(browser, [relay.url]);
    figures['first chart on screen after navigation'] = first.text;

    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await page.addInitScript(keepNames);
    await page.goto(relay.url);
    await page.waitForSelector('section.cards[data-side^="B "] [data-card="Delay95"]');
    await page.waitForSelector('section.cards[data-side^="A "] [data-card="Delay95"]');
    const heap = await pageHeapMb(page);
    figures['page heap after a contest A/B run (after GC)'] = `${heap.used.toFixed(1)} MB used (${heap.total.toFixed(1)} MB allocated)`;
    figures['playback frame rate at ×20 from 40% in (both runs)'] = await playbackFps(page);
    const times = await sliderReruns(page);
    figures['slider move → contest re-simulated and redrawn'] = `median ${median(times).toFixed(0)} ms over 20 moves (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`;
    const drag = await dragAndTrace(page);
    Object.assign(figures, drag.figures, inMachineUnits(first.medianMs, drag.compiledDragMs));
  } finally {
    await browser.close();
    await relay.close();
  }
  return figures;
}
