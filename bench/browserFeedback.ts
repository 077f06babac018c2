import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { ROOT } from '../server/relay.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { testRelay } from '../tests/helpers/relay.ts';
import { FIRST_CHART_MARK } from '../web/charts/painter.ts';
import { runCBaseline } from './cBaseline.ts';

/**
 * The three feedback figures, in Chromium with a real pointer: first chart after navigation,
 * slider drag and trace change → both sides re-simulated and redrawn. Self-contained (it needs only the
 * test helpers and the relay), so the same steps can be run against an older tree of the code.
 */

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (xs: number[], what: string) => `median ${median(xs).toFixed(0)} ms over ${xs.length} ${what} (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
/** tsx keeps function names with a helper that functions sent to the page refer to. */
const KEEP_NAMES = 'globalThis.__name = (f) => f';

/** One measured change, ms: from its first input, from its last, and the slower side's own time in its worker. */
type DragTimes = [number, number, number];

/**
 * Resolves (in the page) with the ms from the next `input` event of `selector`, and from the last such
 * event (the value's last change: a drag's release sets no new value), until the frame in which both
 * sides show a finished run newer than the one shown before has been drawn. Times run from when
 * each input reached the page (its timeStamp), so a page too busy to handle it at once pays for the wait.
 * The first figure holds the drag's own length, which is the pointer's pace; the second is what the page
 * owes once the value stops moving.
 */
function armBothSides(page: Page, selector: string): Promise<void> {
  return page.evaluate((sel) => {
    const w = window as unknown as { bothDone: Promise<DragTimes> };
    // Read afresh each frame: a side's cards may be drawn anew. A side has a new run once its note said
    // "updating…" or changed (two runs can take the same number of milliseconds), and no longer says so.
    const note = (side: string) => document.querySelector(`section.cards[data-side^="${side} "] h3 small`)?.textContent ?? '';
    const sides = ['A', 'B'];
    const before = sides.map(note);
    const changed = sides.map(() => false);
    const input = document.querySelector(sel)!;
    w.bothDone = new Promise<DragTimes>((resolve) => {
      let t0 = 0;
      let last = 0;
      const moved = (ev: Event) => {
        last = ev.timeStamp;
        t0 ||= last;
      };
      input.addEventListener('input', moved);
      const check = () => {
        const now = sides.map(note);
        now.forEach((text, i) => {
          if (text.includes('updating') || text !== before[i]) changed[i] = true;
        });
        const fresh = now.every((text, i) => changed[i] && !text.includes('updating'));
        if (!t0 || !fresh) return requestAnimationFrame(check);
        input.removeEventListener('input', moved);
        // This frame shows both runs (the charts are painted as their runs are committed): the time is
        // taken once it is drawn, ahead of any task that was waiting. With it, the longer of the two
        // runs' own times in their workers ("in N ms": the run, its figures and its view).
        const worker = Math.max(...now.map((text) => Number(/ in (\d+) ms/.exec(text)?.[1] ?? Number.NaN)));
        scheduler.postTask(() => resolve([performance.now() - t0, performance.now() - last, worker]), { priority: 'user-blocking' });
      };
      requestAnimationFrame(check);
    });
  }, selector);
}

/** Until neither side is updating, so the next measurement starts from two finished runs. */
const settled = (page: Page) => page.waitForFunction(() => [...document.querySelectorAll('section.cards h3 small')].every((n) => !n.textContent!.includes('updating')));

/** The armed measurement; a side that never finishes fails the bench after 10 s instead of stalling it. */
const awaitBothSides = (page: Page) =>
  page.evaluate(() =>
    Promise.race([
      (window as unknown as { bothDone: Promise<DragTimes> }).bothDone,
      new Promise<DragTimes>((_, reject) => setTimeout(() => reject(new Error('both sides did not finish within 10 s')), 10_000)),
    ]),
  );

/**
 * A reader of the page thread's time since now, s: `busy`, Chromium's TaskDuration (the wall time of its
 * tasks, scripts, style, layout and paint), and `cpu`, its ThreadTime (the CPU time it used, which other
 * users of a loaded machine do not stretch): the page's own share of a figure, without the waits on
 * the workers.
 */
async function busyClock(page: Page): Promise<() => Promise<{ busy: number; cpu: number }>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const of = (name: string) => metrics.find((m) => m.name === name)!.value;
    return { busy: of('TaskDuration'), cpu: of('ThreadTime') };
  };
}

/** The page thread's time between two readings, ms each of `n` actions. */
const pageWork = (from: { busy: number; cpu: number }, to: { busy: number; cpu: number }, n: number) =>
  `${(((to.busy - from.busy) * 1000) / n).toFixed(0)} ms of page-thread work each (${(((to.cpu - from.cpu) * 1000) / n).toFixed(0)} ms of its CPU)`;

/** Drags measured in each half of the drag bench. */
const DRAGS = 15;

/**
 * A drag bench half's figures: from the drag's first step and from its last, and of the latter, the time
 * the slower side's last run took in its worker (its run, figures and view), the rest being the wait for
 * the worker, the hand-over and the page's drawing.
 */
const dragFigures = (drags: DragTimes[], what: string) =>
  `from its first step ${line(
    drags.map((d) => d[0]),
    what,
  )}; from its last step ${line(
    drags.map((d) => d[1]),
    what,
  )}, of which the slower side's last run in its worker median ${median(drags.map((d) => d[2])).toFixed(0)} ms`;

/** A real pointer drag of the link's delay slider, and trace changes: each re-runs both sides. */
export async function dragAndTrace(page: Page): Promise<{ figures: Record<string, string>; compiledDragMs: number }> {
  const drags: DragTimes[] = [];
  const pageTime = await busyClock(page);
  const before = await pageTime();
  const slider = page.locator('[data-param="link.delay"]');
  await slider.scrollIntoViewIfNeeded();
  const box = (await slider.boundingBox())!;
  const y = box.y + box.height / 2;
  // 30 drags: the first 15 after the page opens (V8 still compiles the model and the page: tens of ms of
  // compiler threads per drag on two cores), then 15 more once it has settled.
  for (let i = 0; i < 2 * DRAGS; i++) {
    // Press on the thumb's current spot, then drag a few pixels right or left.
    const at = await slider.evaluate((el: HTMLInputElement) => (Number(el.value) - Number(el.min)) / (Number(el.max) - Number(el.min)));
    const x = box.x + 8 + (box.width - 16) * at;
    await page.mouse.move(x, y);
    // Armed before the press, which may already move the value: the drag's time runs from its first input.
    await settled(page);
    await armBothSides(page, '[data-param="link.delay"]');
    await page.mouse.down();
    await page.mouse.move(x + (i % 2 === 0 ? 6 : -6), y, { steps: 3 });
    await page.mouse.up();
    drags.push(await awaitBothSides(page));
  }
  const afterDrags = await pageTime();
  const traces: number[] = [];
  const names = ['TMobile-LTE-short', 'Verizon-LTE-short'];
  for (let i = 0; i < 6; i++) {
    await settled(page);
    await armBothSides(page, '[data-param="trace"]');
    await page.locator('[data-param="trace"]').selectOption(names[i % 2]);
    traces.push((await awaitBothSides(page))[0]);
  }
  const afterTraces = await pageTime();
  const figures = {
    'pointer drag of the link delay slider → both sides re-simulated and redrawn': dragFigures(drags.slice(0, DRAGS), 'drags, the first after the page opens'),
    'the same, 15 drags more (the code compiled)': `${dragFigures(drags.slice(DRAGS), 'drags after those')}; ${pageWork(before, afterDrags, drags.length)} over all 30`,
    'trace change → both sides re-simulated and redrawn': `${line(traces, 'changes')}; ${pageWork(afterDrags, afterTraces, traces.length)}`,
  };
  return { figures, compiledDragMs: median(drags.slice(DRAGS).map((d) => d[1])) };
}

/**
 * Tells the bench of the page's first-chart mark with a console line as the mark is set: waiting for it
 * from the bench's side would inject and run the bench's own script in the page as it loads.
 */
const REPORT_FIRST_CHART = `new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === ${JSON.stringify(FIRST_CHART_MARK)}) console.log('first-chart ' + e.startTime); }).observe({ type: 'mark' });`;

/** Navigation to the first chart on screen in a fresh context: the page's own user-timing mark, ms. */
async function firstChartOnce(browser: Browser, url: string): Promise<number> {
  const ctx = await browser.newContext({ viewport: { width: 1500, height: 1000 } });
  const page = await ctx.newPage();
  await page.addInitScript(REPORT_FIRST_CHART);
  const told = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('first-chart '), timeout: 15_000 });
  await page.goto(url);
  const ms = Number((await told).text().split(' ')[1]);
  await ctx.close();
  return ms;
}

/**
 * Navigation to the first chart on screen, in fresh contexts: the page's own user-timing mark, set once
 * the frame showing a chart with marks has been drawn (code that set it when the pixels were written is
 * measured from its own mark plus that frame). With several builds (`urls`), their loads alternate, each
 * first in turn, so a machine whose speed drifts during the bench weighs on each alike.
 */
export async function firstChart(browser: Browser, urls: string[], times = 5): Promise<{ text: string; medianMs: number }[]> {
  const firsts: number[][] = urls.map(() => []);
  for (let i = 0; i < times; i++) {
    // Each build goes first in turn: a load that follows another's close finds the machine busier.
    const order = [...urls.keys()];
    if (i % 2) order.reverse();
    for (const k of order) firsts[k].push(await firstChartOnce(browser, urls[k]));
  }
  return firsts.map((f) => ({ text: `median ${median(f).toFixed(0)} ms (runs ${f.map((x) => x.toFixed(0)).join(', ')})`, medianMs: median(f) }));
}

/**
 * The page thread's busy share while both runs play back at ×10 (the page's opening state), over three
 * seconds from the moment both runs are whole: what is left of the page for a slider's drag or a new run.
 */
export async function playbackBusy(page: Page): Promise<string> {
  const pageTime = await busyClock(page);
  const clock = page.locator('[data-testid="playhead"]');
  const before = await pageTime();
  const t0 = Date.now();
  const from = await clock.innerText();
  await page.waitForTimeout(3000);
  const after = await pageTime();
  const wall = (Date.now() - t0) / 1000;
  const share = (x: number) => `${((x / wall) * 100).toFixed(0)}%`;
  return `${share(after.busy - before.busy)} busy, ${share(after.cpu - before.cpu)} of a CPU (playhead ${from.split(' /')[0]} → ${(await clock.innerText()).split(' /')[0]})`;
}

/**
 * Where the page's targets were set (first chart ≤ 300 ms, drag → redraw from its last step ≤ 60 ms), the
 * C plain loop of the model (bench/c/contest.c, keeping no log) took this long, ms.
 */
const REFERENCE_C_MS = 5.8;

/**
 * The first chart and the compiled drag from its last step in units of this machine's C plain loop, taken
 * now (the page is closed, the machine as quiet as the bench leaves it), and so at the speed of the
 * machine the targets were set on: a machine twice as slow doubles both figures and the loop alike.
 */
export function inMachineUnits(firstMs: number, dragMs: number): Record<string, string> {
  const c = runCBaseline(41, true);
  const what = "the same in this machine's C plain loops";
  if ('missing' in c) return { [what]: String(c.missing) };
  const loops = (ms: number) => ms / c.fastestMs;
  const there = (ms: number) => `${loops(ms).toFixed(1)} loops, ${(loops(ms) * REFERENCE_C_MS).toFixed(0)} ms`;
  return {
    [what]: `one loop ${c.fastestMs.toFixed(1)} ms (gcc -O2, fastest of 41); at the ${REFERENCE_C_MS} ms of the machine the targets were set on: first chart ${there(firstMs)} (target ${(300 / REFERENCE_C_MS).toFixed(1)} loops, 300 ms), drag from its last step ${there(dragMs)} (target ${(60 / REFERENCE_C_MS).toFixed(1)} loops, 60 ms)`,
  };
}

/**
 * The three figures and the page's load while playing, on a fresh production build of this tree.
 * With BENCH_BASE=<another checkout>, that tree's build too, for the first chart: the two alternate.
 */
export async function benchFeedback(): Promise<Record<string, string>> {
  await build({ configFile: resolve(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  const base = process.env.BENCH_BASE;
  const baseDist = base ? mkdtempSync(join(tmpdir(), 'pipefill-base-')) : null;
  // Its root named too: a config's relative root is read from the working directory, which would build this tree's page.
  if (base) await build({ configFile: resolve(base, 'vite.config.ts'), root: resolve(base, 'web'), logLevel: 'warn', build: { outDir: baseDist!, emptyOutDir: true } });
  const relay = await testRelay();
  // That tree's own relay serves its build: the policy it sends names that tree's sandbox frame script by its hash.
  const baseHelpers: typeof import('../tests/helpers/relay.ts') | null = base ? await import(resolve(base, 'tests/helpers/relay.ts')) : null;
  const baseRelay = baseDist && baseHelpers ? await baseHelpers.testRelay({ distDir: baseDist }) : null;
  const browser = await launchChromium();
  try {
    const [first, baseFirst] = await firstChart(browser, baseRelay ? [relay.url, baseRelay.url] : [relay.url], baseRelay ? 12 : 5);
    const figures: Record<string, string> = { 'first chart on screen after navigation': first.text };
    if (baseFirst) figures[`first chart, ${base} (loads alternating with the above)`] = baseFirst.text;
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await page.addInitScript(KEEP_NAMES);
    await page.goto(relay.url);
    await page.waitForSelector('section.cards[data-side^="A "] [data-card="Delay95"]');
    await page.waitForSelector('section.cards[data-side^="B "] [data-card="Delay95"]');
    figures['page thread while both runs play at ×10'] = await playbackBusy(page);
    await page.getByRole('button', { name: 'Show all' }).click();
    const drag = await dragAndTrace(page);
    return { ...figures, ...drag.figures, ...inMachineUnits(first.medianMs, drag.compiledDragMs) };
  } finally {
    await browser.close();
    await relay.close();
    await baseRelay?.close();
    if (baseDist) rmSync(baseDist, { recursive: true, force: true });
  }
}
