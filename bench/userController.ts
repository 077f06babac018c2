import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { madeForOffsetServer, SCHEMES } from '../shared/controllers/registry.ts';
import { ROOT } from '../server/relay.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { testRelay } from '../tests/helpers/relay.ts';

/** The q-quantile of xs (nearest rank). */
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const median = (xs: number[]) => quantile(xs, 0.5);

/** Each built-in, whose copy is measured against it; offset-server schemes run the offset fetch. */
const COPIES: [id: string, offset: boolean][] = SCHEMES.map((s) => [s.id, madeForOffsetServer(s)]);

/** Runs of each side left out first, and pairs measured after them. */
const WARM_RUNS = 4;
const PAIRS = 20;

/**
 * Each "edit a copy" module against its built-in: the cost of user code (wrapper, loop guards, ACK
 * copies). Each copy runs in a process of its own (bench/userCopyRuns.ts), its runs in pairs taken back
 * to back, so a busy machine slows both runs of a pair alike: the figure is the median of the pairs'
 * ratios, with their middle half (25th–75th percentile) as the spread, beside the median times.
 * `--only=aimd,reno` measures those schemes alone.
 */
function simulationTimes(): Record<string, string> {
  const out: Record<string, string> = {};
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  for (const [id, offset] of COPIES) {
    if (only && !only.includes(id)) continue;
    const args = [resolve(ROOT, 'bench/userCopyRuns.ts'), id, offset ? 'offset' : 'contest', String(WARM_RUNS), String(PAIRS)];
    const child = spawnSync(process.execPath, [...process.execArgv, ...args], { encoding: 'utf8', cwd: ROOT });
    if (child.status !== 0) throw new Error(`${id}: ${child.stderr}`);
    const { builtIn, user } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { builtIn: number[]; user: number[] };
    const ratios = user.map((u, i) => u / builtIn[i]);
    out[`${offset ? 'offset' : 'contest'} run, ${id}: user copy / built-in`] =
      `median ${median(ratios).toFixed(2)}× (middle half ${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)}×); ` +
      `${median(user).toFixed(1)} vs ${median(builtIn).toFixed(1)} ms`;
  }
  return out;
}

const controllerWith = (w: number) =>
  `export default { title: 'Bench', params: [{ name: 'w', unit: 'packets', min: 1, max: 500, step: 1, default: ${w}, doc: 'window' }], create(p) { return { windowSize() { return p.w; }, onAck() {}, onTimeout() {} }; } };`;

const cardOf = (side: 'A' | 'B') => `section.cards[data-side^="${side} "] [data-card="Throughput"] dd`;

/**
 * Time from an action to side's throughput card showing a new run, polled at each animation frame (so the
 * frame that shows it is painted); the round trips to the page add a few ms to every figure alike.
 */
async function untilRedrawn(page: Page, side: 'A' | 'B', act: () => Promise<void>): Promise<number> {
  const before = await page.locator(cardOf(side)).innerText();
  const t0 = performance.now();
  await act();
  await page.waitForFunction(
    ([sel, was]) => {
      if (document.querySelector(sel)?.textContent === was) return false;
      (window as unknown as Record<string, number>).redrawnAt = performance.now();
      return true;
    },
    [cardOf(side), before] as const,
    { polling: 'raf', timeout: 30_000 },
  );
  return performance.now() - t0;
}

/**
 * In the page: the time from the Run click until the button is enabled again (the check is done), as
 * `checkedMs`; the click's time as `clickedAt` (untilRedrawn sets `redrawnAt`).
 */
function watchCheck(): void {
  const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('Run ▶'))!;
  const w = window as unknown as Record<string, number>;
  let clicked = 0;
  button.addEventListener('click', () => (w.clickedAt = clicked = performance.now()), { once: true, capture: true });
  new MutationObserver((_, o) => {
    if (button.disabled) return;
    w.checkedMs = performance.now() - clicked;
    o.disconnect();
  }).observe(button, { attributes: true });
}

/** Edits whose figures are left out: the first runs of a page's code are its slowest. */
const WARM_UP = 3;

/**
 * In headless Chromium: the editor's text changed, Run clicked, until side A's card shows the new run
 * (check in a worker, the run, the redraw), 12 times after warm-up; measured from the test's click and
 * from the click the page got (without the test's own round trips); beside it, the same for a
 * built-in's slider.
 */
async function editToRedraw(): Promise<Record<string, string>> {
  await build({ configFile: resolve(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  const relay = await testRelay();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await page.goto(relay.url);
    await page.waitForSelector(cardOf('A'));
    await page.waitForSelector(cardOf('B'));
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    const edits: number[] = [];
    const inPage: number[] = [];
    const checks: number[] = [];
    for (let i = 0; i < WARM_UP + 12; i++) {
      await page.locator('.user-editor .cm-content').click();
      await page.keyboard.press('Control+a');
      // windows small enough that each gives the link a different throughput, so the card changes
      await page.keyboard.insertText(controllerWith(8 + 4 * i));
      await page.evaluate(watchCheck);
      const edit = await untilRedrawn(page, 'A', () => page.getByRole('button', { name: 'Run ▶' }).click());
      const w = await page.evaluate(() => {
        const { checkedMs, clickedAt, redrawnAt } = window as unknown as Record<string, number>;
        return { checkedMs, clickedAt, redrawnAt };
      });
      if (i < WARM_UP) continue;
      edits.push(edit);
      checks.push(w.checkedMs);
      inPage.push(w.redrawnAt - w.clickedAt);
    }
    await page.locator('select[data-param="b.scheme"]').selectOption('fixed');
    await page.waitForTimeout(2000);
    const slider: number[] = [];
    for (let i = 0; i < 9; i++) slider.push(await untilRedrawn(page, 'B', () => page.locator('input[data-param="b.w"]').fill(String(Math.log(20 + 7 * i)))));
    const show = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (runs ${xs.map((t) => t.toFixed(0)).join(', ')})`;
    return {
      'edit → re-run → redrawn, contest run (Chromium)': show(edits),
      '  the same from the click the page got': show(inPage),
      '  of which the check (Run clicked → enabled again)': show(checks),
      'built-in slider → re-run → redrawn, same run': show(slider),
    };
  } finally {
    await browser.close();
    await relay.close();
  }
}

export async function benchUserController(): Promise<Record<string, string>> {
  const model = simulationTimes();
  return process.argv.includes('--no-browser') ? model : { ...model, ...(await editToRedraw()) };
}
