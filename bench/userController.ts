import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { installUserScheme } from '../shared/controllers/registry.ts';
import { contest, flow, offsetServer } from '../shared/scenarios/presets.ts';
import { runScenario } from '../shared/scenarios/run.ts';
import { loadSchemeFile } from '../server/cli/flags.ts';
import { ROOT } from '../server/relay.ts';
import { loadTrace } from '../server/traces.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { testRelay } from '../tests/helpers/relay.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU time of one run of a scheme (on a shared machine, steadier than wall time): the 140 s contest run, or the offset server's fetch for its schemes. */
function runMs(scheme: string, offset: boolean): number {
  const spec = offset ? offsetServer(true, [flow(scheme, {}, 0, 1_000_000)]) : contest('Verizon-LTE-short', [flow(scheme)]);
  const c0 = process.cpuUsage();
  runScenario(spec, loadTrace);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** Each copy (shared/controllers/copies) and the built-in it copies; offset-server schemes run the offset fetch. */
const COPIES: [file: string, id: string, offset?: boolean][] = [
  ['fixed.js', 'fixed'],
  ['aimd.js', 'aimd'],
  ['delayTrigger.js', 'delay-trigger'],
  ['watermarks.js', 'watermarks'],
  ['deliveryTrend.js', 'delivery-trend'],
  ['rateBased.js', 'rate-based'],
  ['bdp.js', 'bdp'],
  ['reno.js', 'reno'],
  ['cubic.js', 'cubic'],
  ['bbr.js', 'bbr'],
  ['vegas.js', 'vegas'],
  ['copa.js', 'copa'],
  ['burstAimd.js', 'burst-aimd', true],
  ['constantBurst.js', 'constant-burst', true],
  ['tokenPacer.js', 'token-pacer', true],
];

/**
 * Each "edit a copy" module against its built-in: the cost of user code (wrapper, loop guards, ACK
 * copies). The two alternate run by run, so a busy machine slows both alike; the fastest of 12 after
 * warm-up (on a shared machine the minimum is the least disturbed figure), the median beside it.
 * `--only aimd,reno` measures those schemes alone.
 */
async function simulationTimes(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  for (const [file, id, offset = false] of COPIES) {
    if (only && !only.includes(id)) continue;
    if (!existsSync(resolve(ROOT, 'shared/controllers/copies', file))) continue;
    await loadSchemeFile(resolve(ROOT, 'shared/controllers/copies', file));
    const builtIn: number[] = [];
    const user: number[] = [];
    for (let i = 0; i < 15; i++) {
      const b = runMs(id, offset);
      const u = runMs('user', offset);
      if (i >= 3) builtIn.push(b), user.push(u);
    }
    const [u, b] = [Math.min(...user), Math.min(...builtIn)];
    out[`${offset ? 'offset' : 'contest'} run, ${id}: user copy vs built-in`] =
      `fastest ${u.toFixed(1)} ms vs ${b.toFixed(1)} ms (${(u / b).toFixed(2)}×); median ${(median(user) / median(builtIn)).toFixed(2)}×`;
  }
  installUserScheme(null);
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
  const model = await simulationTimes();
  return process.argv.includes('--no-browser') ? model : { ...model, ...(await editToRedraw()) };
}
