import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarize } from '../../shared/metrics/summary.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { CALLBACK_BUDGET_MS } from '../../shared/controllers/userInstalled.ts';
import { HANG_MS } from '../../web/worker/watchdog.ts';
import { CHECK_BUDGET_MS } from '../../web/editor/userCode.ts';
import { loadTrace } from '../../server/traces.ts';
import { loadSchemeFile } from '../../server/cli/schemeFlags.ts';
import { withUserScheme } from '../../shared/controllers/registry.ts';
import { withUserCode } from '../../shared/controllers/userInstalled.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { DEFAULT_EXPERIMENT } from '../../web/state/experiment.ts';
import { specFor } from '../../web/state/spec.ts';
import { card, open, orSideShown, playground } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** The built-in fixed window's throughput card for window w, as the headless runner computes it. */
const fixedThroughput = (w: number) => {
  const e = { ...DEFAULT_EXPERIMENT, a: { scheme: 'fixed', params: { w } } };
  return `${summarize(runScenario(specFor(e, 'a'), loadTrace)).all.throughputMbps.toFixed(2)} Mbit/s`;
};

const FIXED = `export default {
  title: 'Typed fixed window',
  params: [{ name: 'w', unit: 'packets', min: 1, max: 500, step: 1, default: 30, doc: 'Packets in flight' }],
  create(p) {
    return { windowSize() { return p.w; }, onAck(ack) {}, onTimeout(now) {} };
  },
};
`;

/** Replaces the editor's text as typing would (one input event) and runs it. */
async function typeAndRun(page: Page, text: string): Promise<void> {
  const content = page.locator('.user-editor .cm-content');
  await content.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
  await page.getByRole('button', { name: 'Run ▶' }).click();
}

const throughputA = (page: Page) => card(page, 'A', 'Throughput');

/** Waits until side A's throughput card reads `want` (a run finished and was drawn). */
async function waitForA(page: Page, want: string): Promise<void> {
  await orSideShown(
    page,
    'A',
    page.waitForFunction((w) => document.querySelector('section.cards[data-side^="A "] [data-card="Throughput"] dd')?.textContent?.trim() === w, want, { timeout: 20_000 }),
  );
}

describe('the controller editor in Chromium', () => {
  it('runs a typed controller as A, keeps it across a reload and in the share link', async () => {
    const { page, problems } = await open(env.browser, env.relay.url);
    const before = await throughputA(page);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    await typeAndRun(page, FIXED);
    const want = fixedThroughput(30);
    expect(want).not.toBe(before);
    await waitForA(page, want);
    expect(await page.locator('select[data-param="a.scheme"]').inputValue()).toBe('user');

    // its own slider, generated from params, re-runs it
    const slider = page.locator('[data-param="a.w"]').first();
    await slider.fill('12');
    await slider.dispatchEvent('change');
    await waitForA(page, fixedThroughput(12));
    // The page writes a drag's steps to the URL at most every 300 ms; a reload takes the address as it stands.
    await page.waitForFunction(() => new URLSearchParams(location.search).get('a.w') === '12');

    await page.reload();
    await waitForA(page, fixedThroughput(12));
    expect(await page.evaluate(() => localStorage.getItem('pipefill.controller'))).toBe(FIXED);

    // a fresh browser context (no storage) opening the share link gets the code from the link
    const link = page.url();
    expect(new URL(link).searchParams.get('code')).toBeTruthy();
    const other = await env.browser.newContext();
    const shared = await other.newPage();
    await shared.goto(link);
    await waitForA(shared, fixedThroughput(12));
    expect(await shared.evaluate(() => localStorage.getItem('pipefill.controller'))).toBe(FIXED);
    await other.close();
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('opens a readable copy of the selected built-in, which runs to the built-in’s figures', async () => {
    const { page, problems } = await open(env.browser, env.relay.url);
    const builtIn = await throughputA(page);
    // the copy replaces the untouched example in the editor without asking (only the user's own text is asked about)
    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await page.locator('.edit-copy').first().click();
    await page.locator('.user-editor .cm-content', { hasText: 'AIMD (my copy)' }).waitFor();
    expect(asked).toEqual([]);
    // nor is an untouched copy: B's copy replaces it at once, and A's comes back the same way
    await page.locator('.edit-copy').nth(1).click();
    await page.locator('.user-editor .cm-content', { hasText: 'BDP estimator (my copy)' }).waitFor();
    await page.locator('.edit-copy').first().click();
    await page.locator('.user-editor .cm-content', { hasText: 'AIMD (my copy)' }).waitFor();
    expect(asked).toEqual([]);
    await page.getByRole('button', { name: 'Run ▶' }).click();
    await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[data-param="a.scheme"]')?.value === 'user');
    // the copy's own run: A's cards show the built-in's run until it comes
    const copyCard = page.locator('section.cards[data-side^="A · AIMD (my copy)"] [data-card="Throughput"] dd');
    await orSideShown(page, 'A', copyCard.waitFor({ timeout: 20_000 }));
    expect((await copyCard.innerText()).trim()).toBe(builtIn);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('takes the keyboard as it opens, names its code for a screen reader, and gives the keyboard back as Escape closes it', async () => {
    const { page, problems } = await open(env.browser, env.relay.url);
    const opener = page.getByRole('button', { name: 'Write your own controller…' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const code = page.getByRole('textbox', { name: 'controller code' });
    await expect.poll(() => code.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('// 2 + 2');
    await page.locator('.user-editor .cm-content', { hasText: '// 2 + 2' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.user-editor').waitFor({ state: 'hidden' });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a syntax error with its line, underlined, and keeps the previous run', async () => {
    const { page } = await open(env.browser, env.relay.url);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    await typeAndRun(page, FIXED);
    await waitForA(page, fixedThroughput(30));
    await typeAndRun(page, FIXED.replace("title: 'Typed fixed window',", "title: 'Typed' 'oops',"));
    const error = page.getByTestId('editor-error');
    await error.waitFor();
    expect(await error.innerText()).toMatch(/^your controller at line 2, column \d+: syntax error/);
    expect(await page.locator('.user-editor .cm-lintRange-error').count()).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    expect(await throughputA(page)).toBe(fixedThroughput(30));
    await page.close();
  }, 60_000);

  it('stops an endless loop within the budget and names the callback', async () => {
    const { page } = await open(env.browser, env.relay.url);
    // the page's first runs, the editor's loading and the worker's first user code (its code checker loads then)
    // are not part of the time taken: a controller of another window runs first
    await card(page, 'A', 'Throughput');
    await card(page, 'B', 'Throughput');
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    await typeAndRun(page, FIXED.replace('default: 30', 'default: 20'));
    await waitForA(page, fixedThroughput(20));
    const content = page.locator('.user-editor .cm-content');
    await content.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(FIXED.replace('onAck(ack) {}', 'onAck(ack) { while (true) {} }'));
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Run ▶' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'ran longer than' });
    await alert.waitFor({ timeout: 10_000 });
    const elapsed = Date.now() - t0;
    expect(await alert.innerText()).toBe(`A · Typed fixed window: your controller in onAck: ran longer than its ${CALLBACK_BUDGET_MS} ms budget (an endless loop?) and was stopped`);
    expect(elapsed).toBeLessThan(CALLBACK_BUDGET_MS + 3000);
    // the page keeps working: a good controller runs again
    await typeAndRun(page, FIXED);
    await waitForA(page, fixedThroughput(30));
    await page.screenshot({ path: '/tmp/pipefill-editor.png' });
    await page.close();
  }, 60_000);

  it('ends a worker hung where the loop guard cannot reach, names the callback, and keeps working', async () => {
    const { page, problems } = await open(env.browser, env.relay.url);
    const b = await card(page, 'B', 'Throughput');
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    // two calls per level, 2⁶⁰ calls in all: no loop for the guard, no stack deep enough to overflow
    const hang = FIXED.replace('onAck(ack) {}', 'onAck(ack) { if (ack.seq === 100) twice(60); }').replace(
      'export default',
      'function twice(n) { if (n > 0) { twice(n - 1); twice(n - 1); } }\nexport default',
    );
    const t0 = Date.now();
    await typeAndRun(page, hang);
    const alert = page.getByRole('alert').filter({ hasText: 'did not return' });
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.innerText()).toBe(
      `A · Typed fixed window: your controller in onAck: did not return for ${HANG_MS} ms (a hang the loop guard cannot stop, such as a regular expression that backtracks for ever): its worker was stopped and replaced`,
    );
    // one hang to notice, a second one in the run that names the callback
    expect(Date.now() - t0).toBeGreaterThan(2 * HANG_MS);
    expect(await card(page, 'B', 'Throughput')).toBe(b);
    // the replaced worker runs the next controller
    await typeAndRun(page, FIXED);
    await waitForA(page, fixedThroughput(30));
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('a saved controller whose module never finishes loading: stopped within the budget, named in the editor, and the page runs on', async () => {
    const { page, problems } = await open(env.browser, env.relay.url);
    // two calls per level, 2⁶⁰ calls in all, as the module body runs: nothing the loop guard can stop
    const hang = `function twice(n) { if (n > 0) { twice(n - 1); twice(n - 1); } }\ntwice(60);\n${FIXED}`;
    await page.evaluate((code) => localStorage.setItem('pipefill.controller', code), hang);
    const t0 = Date.now();
    await page.goto(`${env.relay.url}/?a=user`);
    const error = page.getByTestId('editor-error');
    await error.waitFor({ timeout: 30_000 });
    expect(Date.now() - t0).toBeGreaterThan(CHECK_BUDGET_MS);
    expect(await error.innerText()).toBe(`your controller did not finish loading within ${CHECK_BUDGET_MS} ms: its worker was stopped and replaced`);
    // the text stays in the editor to mend; the runs use the built-ins, A the default scheme in its place
    expect(await page.locator('.user-editor .cm-content').innerText()).toContain('twice(60);');
    expect(await page.locator('select[data-param="a.scheme"] option[value="user"]').count()).toBe(0);
    expect(await card(page, 'A', 'Throughput')).toMatch(/^\d+\.\d+ Mbit\/s$/);
    // a mended text runs in the worker that replaced the stopped one
    await typeAndRun(page, FIXED);
    await waitForA(page, fixedThroughput(30));
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);

  it('gives a controller no network: fetch throws a clear error', async () => {
    const { page } = await open(env.browser, env.relay.url);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    await typeAndRun(page, FIXED.replace('onAck(ack) {}', `onAck(ack) { fetch('${env.relay.url}/api/relay'); }`));
    const alert = page.getByRole('alert').filter({ hasText: 'blocked' });
    await alert.waitFor({ timeout: 20_000 });
    expect(await alert.innerText()).toMatch(/^A · Typed fixed window: your controller in onAck at line 5, column \d+: Error: fetch is blocked: a controller runs with no network$/);
    const refused: [call: string, message: string][] = [
      ['new WebSocket("ws://127.0.0.1:9")', 'WebSocket is blocked: a controller runs with no network'],
      ['new XMLHttpRequest()', 'XMLHttpRequest is blocked'],
      ['new EventSource("/x")', 'EventSource is blocked'],
      ['importScripts("/x.js")', 'importScripts is blocked'],
      ['self.fetch("/x")', 'fetch is blocked'],
      ['eval("1")', 'eval is blocked in a controller: code compiled at run time would escape its checks'],
      ['(() => 0).constructor("return 1")', 'the Function constructor is blocked in a controller'],
      ['setTimeout("1")', 'setTimeout with text is blocked'],
    ];
    for (const [call, message] of refused) {
      await typeAndRun(page, FIXED.replace('onAck(ack) {}', `onAck(ack) { ${call}; }`));
      await page.getByRole('alert').filter({ hasText: message }).waitFor({ timeout: 20_000 });
    }
    await page.close();
  }, 90_000);

  it('restores the code of an imported run of a user controller into the editor', async () => {
    // the run as `npm run sim -- --scheme FILE` makes it: its CSV's spec line carries the code
    const dir = tempDir('pipefill-import-');
    writeFileSync(join(dir, 'fixed.js'), FIXED);
    const schemes = withUserScheme(await loadSchemeFile(join(dir, 'fixed.js')));
    const spec = withUserCode(specFor({ ...DEFAULT_EXPERIMENT, a: { scheme: 'user', params: { w: 12 } } }, 'a'), schemes);
    writeFileSync(join(dir, 'run.csv'), formatTraceCsv(runScenario(spec, loadTrace, schemes).log, spec));
    expect(spec.code).toBe(FIXED);

    const { page, problems } = await open(env.browser, env.relay.url);
    await card(page, 'A', 'Throughput');
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="b"]').setInputFiles(join(dir, 'run.csv'));
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="B "] h3 small')?.textContent?.startsWith('imported'));
    await page.locator('.user-editor .cm-content').waitFor();
    await page.waitForFunction(() => localStorage.getItem('pipefill.controller')?.includes('Typed fixed window'));
    expect(await page.evaluate(() => localStorage.getItem('pipefill.controller'))).toBe(FIXED);
    expect(await page.locator('.user-editor .cm-content').innerText()).toContain("title: 'Typed fixed window'");
    // installed: the pickers offer it, and it runs as A with the imported parameters' numbers
    await page.locator('select[data-param="a.scheme"] option[value="user"]').waitFor({ state: 'attached' });
    expect(await page.locator('select[data-param="a.scheme"] option[value="user"]').innerText()).toBe('Typed fixed window');
    await page.locator('select[data-param="a.scheme"]').selectOption('user');
    await page.locator('[data-param="a.w"]').first().fill('12');
    await page.locator('[data-param="a.w"]').first().dispatchEvent('change');
    await waitForA(page, fixedThroughput(12));
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
