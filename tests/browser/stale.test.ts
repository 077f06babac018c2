import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textsDrawn, card, LIGHT_RUN, open, PAGE_OPTIONS, quickPlayback, playground } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const heading = (page: Page, side: 'A' | 'B') => page.locator(`section.cards[data-side^="${side} "] h3`).innerText();
const sideNote = (page: Page, side: 'A' | 'B') => page.locator(`section.cards[data-side^="${side} "] h3 small`).innerText();

describe('no stale state in Chromium', () => {
  it('an imported CSV replays under its own scheme’s name, not the selected one, and on its own link', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?a=fixed&${LIGHT_RUN}`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    await page.getByText('Export', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="trace-a"]').click()]);
    const file = join(tempDir(), 'fixed.csv');
    await download.saveAs(file);
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="b"]').setInputFiles(file);
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="B "] h3 small')?.textContent?.startsWith('imported'));
    expect(await heading(page, 'B')).toMatch(/^B · Fixed window/);
    expect(await page.locator('.column[data-side="b"] h2').innerText()).toMatch(/^B · Fixed window/);
    expect(await page.locator('[data-param="b.scheme"]').inputValue()).toBe('bdp');
    // made on this link, it compares with A; imported beside a run on another link, the page says the two do not compare
    const plane = page.locator('[data-caption="plane"]');
    await expect.poll(() => plane.innerText()).toMatch(/^A · Fixed window: /);
    await page.locator('[data-number="link.delay"]').fill('50');
    await page.waitForFunction(() => /^simulated in \d+ ms$/.test(document.querySelector('section.cards[data-side^="B "] h3 small')?.textContent ?? ''));
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="b"]').setInputFiles(file);
    await expect.poll(() => plane.innerText()).toMatch(/^Look out: A and B ran on different links \(delay 50 ms against 20 ms\), so their figures do not compare like for like\./);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a failed upload marks the runs on the screen, cards and charts, as the previous ones, until the settings change', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    expect(await page.locator('section.cards.stale').count()).toBe(0);
    const dir = tempDir();
    writeFileSync(join(dir, 'huge.down'), '1\n5\nnot a time\n');
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'huge.down'));
    await page.waitForSelector('section.cards.stale[data-side^="A "]');
    expect(await sideNote(page, 'A')).toBe('previous run: the upload of huge.down failed; this is the run on the trace before it');
    expect(await page.locator('section.cards.stale').count()).toBe(2);
    // the charts of those runs are dimmed as their cards are
    const dimmed = () => page.locator('.column[data-side] .plot').evaluateAll((plots) => plots.map((p) => getComputedStyle(p).opacity));
    expect(new Set(await dimmed())).toEqual(new Set(['0.4']));
    // the long note wraps under its heading: the plane stays on the page
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    const plane = (await page.locator('figure.plane').boundingBox())!;
    expect(plane.x + plane.width).toBeLessThanOrEqual(1500);
    await page.locator('[data-param="seed"]').fill('2');
    await page.waitForFunction(() => document.querySelectorAll('section.cards.stale').length === 0);
    expect(new Set(await dimmed())).toEqual(new Set(['1']));
    await page.close();
  });

  it('a controller of the user’s that fails marks the run before it as the previous one, with the error; the next try clears both', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await quickPlayback(page);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    const runCode = async (text: string) => {
      await page.locator('.user-editor .cm-content').click();
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText(text);
      await page.getByRole('button', { name: 'Run ▶' }).click();
    };
    const fixed = (w: number, onAck = '') => `export default { title: 'Mine', params: [], create() { return { windowSize() { return ${w}; }, onAck(ack) { ${onAck} }, onTimeout() {} }; } };`;
    await runCode(fixed(10));
    await page.waitForFunction(() => /^simulated in \d+ ms$/.test(document.querySelector('section.cards[data-side^="A · Mine"] h3 small')?.textContent ?? ''));
    const good = await card(page, 'A', 'Throughput');
    const alerts = page.locator('.runs > p.error');
    // a run that throws after its first seconds: the page still shows the run before it, marked
    await runCode(fixed(10, "if (ack.seq > 300) throw new Error('boom');"));
    await alerts.filter({ hasText: 'Error: boom' }).waitFor();
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "]')?.classList.contains('stale'));
    expect(await sideNote(page, 'A')).toBe('previous run: the latest run failed (its error is below); this is the run before it');
    expect(await card(page, 'A', 'Throughput')).toBe(good);
    // code that does not load fails its check: its error replaces the last one's
    await runCode(fixed(10).replace('params: []', 'params: [,,'));
    await alerts.filter({ hasText: 'syntax error' }).waitFor();
    expect(await alerts.allInnerTexts()).toEqual([expect.stringMatching(/^A · Mine: your controller at line 1, column \d+: syntax error/)]);
    expect(await page.locator('section.cards.stale').count()).toBe(1);
    // a controller that runs: the side is current again, with no error
    await runCode(fixed(1));
    await page.waitForFunction((g) => document.querySelector('section.cards[data-side^="A "] [data-card="Throughput"] dd')?.textContent?.trim() !== g, good);
    await page.waitForFunction(() => document.querySelectorAll('section.cards.stale').length === 0);
    expect(await alerts.count()).toBe(0);
    await page.close();
  }, 90_000);

  it('overlaid, runs the settings no longer describe are drawn faded', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}&overlay=1`);
    await quickPlayback(page);
    await card(page, 'A', 'Throughput');
    const swatch = () =>
      page
        .locator('[data-overlay="sequence"] .key', { hasText: 'A send' })
        .locator('i')
        .evaluate((i) => getComputedStyle(i).backgroundColor);
    expect(await swatch()).toBe('rgb(0, 114, 178)');
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.down'), 'not a time\n');
    await page.locator('[data-param="upload"]').setInputFiles(join(dir, 'bad.down'));
    await page.waitForSelector('section.cards.stale[data-side^="A "]');
    // A's sends in its blue made light
    expect(await swatch()).toBe('rgb(153, 199, 224)');
    await page.close();
  });

  it('after the relay dies and the settings change, the cards and labels belong to the current settings', async () => {
    const relay = await testRelay({ fileSize: 30_000, distDir: TEST_BUNDLE });
    const { page } = await open(env.context, `${relay.url}/?s=offset&live=1`);
    await quickPlayback(page);
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent?.includes('true'), null, { timeout: 20_000 });
    expect(await sideNote(page, 'A')).toBe('live, done');
    await relay.close();
    // Another controller for A: the live run on the screen is Token pacer's, and says so.
    await page.locator('[data-param="a.scheme"]').selectOption('burst-aimd');
    await page.waitForSelector('section.cards.stale[data-side^="A "]');
    expect(await heading(page, 'A')).toMatch(/^A · Token pacer/);
    expect(await sideNote(page, 'A')).toMatch(/^previous run: a live run of Token pacer, not of /);
    // The contest: its trace cannot load from the dead relay, so each side says why under the contest's
    // scheme, and no offset card stays on the screen.
    await page.locator('[data-param="scenario"]').selectOption('contest');
    const cannotLoad = (side: string) => new RegExp(`^${side}: the trace Verizon-LTE-short\\.(down|up) could not be loaded: the page’s server at 127\\.0\\.0\\.1:\\d+ does not answer$`);
    for (const side of ['A · AIMD', 'B · BDP estimator']) {
      const alert = page.getByRole('alert').filter({ hasText: new RegExp(`^${side}: `) });
      await alert.waitFor();
      expect(await alert.innerText()).toMatch(cannotLoad(side));
    }
    expect(await page.locator('section.cards h3').allInnerTexts()).toEqual(['A · AIMD', 'B · BDP estimator']);
    expect(await page.locator('section.cards [data-card]').count()).toBe(0);
    expect(await page.locator('.column h2').allInnerTexts()).toEqual(['A · AIMD', 'B · BDP estimator']);
    await page.close();
  });

  it('a bundled trace served damaged is named on each side, and a new run says so again instead of waiting for it', async () => {
    const context = await env.browser.newContext(PAGE_OPTIONS);
    await context.route('**/traces/Verizon-LTE-short.*', (r) => r.fulfill({ status: 200, contentType: 'text/plain', body: '<html>moved</html>\n' }));
    const { page } = await open(context, `${env.relay.url}/?s=contest`);
    const said = (side: string) => `${side}: the trace Verizon-LTE-short.down is not a Mahimahi trace: line 1: not a whole number of milliseconds: "<html>moved</html>"`;
    const sides = [said('A · AIMD'), said('B · BDP estimator')];
    const alerts = () =>
      page
        .getByRole('alert')
        .filter({ hasText: /^[AB] · / })
        .allInnerTexts();
    await expect.poll(alerts, { timeout: 30_000 }).toEqual(sides);
    // each run asks its worker for the trace again; the page sends a trace once, so the worker refuses it at once
    for (const ms of ['50', '60']) {
      const drawn = await textsDrawn(page, 'alert');
      await page.locator('[data-number="link.delay"]').fill(ms);
      await expect.poll(drawn, { timeout: 30_000 }).toEqual(sides);
    }
    await context.close();
  });

  it('a typed seed outside its range is refused with a message, and neither runs nor reaches the URL', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await quickPlayback(page);
    const before = await card(page, 'A', 'Delay95');
    const seed = page.locator('[data-param="seed"]');
    await seed.fill('-3');
    await page.getByText('seed must be a whole number from 0 to 2147483647 (got "-3"); seed stays 1').waitFor();
    await seed.fill('3000000000');
    await page.locator('[data-problem="seed"]').getByText('(got "3000000000")').waitFor();
    await seed.fill('1.5');
    await page.locator('[data-problem="seed"]').getByText('whole number').waitFor();
    expect(new URL(page.url()).searchParams.get('seed')).toBeNull();
    expect(await card(page, 'A', 'Delay95')).toBe(before);
    await seed.fill('7');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('seed') === '7');
    expect(await page.locator('[data-problem="seed"]').count()).toBe(0);
    await page.close();
  });

  it('the contest offers no offset-server scheme, and a URL asking for one is told so', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?a=token-pacer`);
    await quickPlayback(page);
    await page.getByText(/a must be one of .* \(got "token-pacer"\)/).waitFor();
    const offered = await page.locator('[data-param="a.scheme"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain('aimd');
    for (const burst of ['token-pacer', 'burst-aimd', 'constant-burst']) expect(offered).not.toContain(burst);
    await page.close();
  });

  it('a 20 KB link opens the page; a link past what the server reads gets a page that says so', async () => {
    const junk = 'x'.repeat(20_000);
    const { page, problems } = await open(env.context, `${env.relay.url}/?seed=4&${LIGHT_RUN}&note=${junk}`);
    await quickPlayback(page);
    expect(await card(page, 'A', 'Throughput')).toMatch(/Mbit\/s$/);
    expect(problems).toEqual([]);
    const huge = await fetch(`${env.relay.url}/?note=${'x'.repeat(300_000)}`);
    expect(huge.status).toBe(431);
    expect(await huge.text()).toContain('This link is longer than the 256 KiB this server reads');
    await page.close();
  });

  it('axis ticks never repeat a label, and link rates read as numbers', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=90s`);
    const option = await page.locator('[data-param="preset"] option[value="90s"]').innerText();
    expect(option).toContain('56.6 kbit/s');
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    // Each axis on its own: y ticks stand left of the axis (x=-6), x ticks below it (y=15).
    const axes = await page.evaluate(() =>
      [...document.querySelectorAll('svg')].flatMap((svg) => ['text[x="-6"]', 'text[y="15"]'].map((which) => [...svg.querySelectorAll(`g.tick ${which}`)].map((t) => t.textContent ?? ''))),
    );
    expect(axes.length).toBeGreaterThan(2);
    for (const labels of axes) expect(new Set(labels).size, labels.join(' ')).toBe(labels.length);
    await page.close();
  });
});

describe('the labs keep their state current in Chromium', () => {
  it('contest lab: choosing another swept parameter resets the range to that parameter’s', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?view=contest-lab&sw=aimd:a:0.25..4*2`);
    const values = page.locator('[data-param="sweep0"]');
    expect(await values.inputValue()).toBe('0.25..4*2');
    await page.getByLabel('sweep 1 parameter').selectOption('timeout');
    expect(await values.inputValue()).toBe('20..1000*2');
    await page.getByLabel('sweep 1 parameter').selectOption('b');
    expect(await values.inputValue()).toBe('0.05..0.95*2');
    await page.close();
  });

  it('shared-bottleneck lab: says it is busy while the flows run, and marks the previous results', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=cdn`);
    // the flows' status, not the fairness grid's below them
    const flowsStatus = '.lab-status:not([data-testid="grid-status"])';
    await page.waitForSelector('[data-testid="flow-results"]', { timeout: 30_000 });
    await page.waitForSelector(`${flowsStatus}:not([data-busy])`);
    // Watched from before the change, at every change of the page: a quick run is busy for less than a
    // frame, and a look at each frame may come after it is done.
    await page.evaluate(() => {
      const w = window as unknown as { firstBusy: Promise<{ text: string; stale: number }> };
      w.firstBusy = new Promise((resolve) => {
        const look = () => {
          const status = document.querySelector<HTMLElement>('.lab-status[data-busy]');
          if (!status) return;
          observer.disconnect();
          resolve({ text: status.innerText, stale: document.querySelectorAll('.lab-body.stale').length });
        };
        const observer = new MutationObserver(look);
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      });
    });
    await page.locator('[data-param="preset"]').selectOption('moon');
    const seen = await page.evaluate(() => (window as unknown as { firstBusy: Promise<{ text: string; stale: number }> }).firstBusy);
    expect(seen.text).toMatch(/^running \d flows on the link… \(the results below are the previous run’s\)$/);
    expect(seen.stale).toBe(1);
    await page.waitForSelector(`${flowsStatus}:not([data-busy])`, { timeout: 30_000 });
    expect(await page.locator(flowsStatus).innerText()).toMatch(/^\d flows simulated in \d+ ms$/);
    await page.close();
  });

  it('every lab names a bad URL value, as the playground does', async () => {
    for (const [query, message] of [
      ['view=shared-lab&preset=mars', /preset must be one of .* \(got "mars"\)/],
      ['view=transport-lab&scheme=warp', /scheme must be one of .* \(got "warp"\)/],
      ['view=contest-lab&trace=Atlantis', /trace must be one of .* \(got "Atlantis"\)/],
    ] as const) {
      const { page } = await open(env.context, `${env.relay.url}/?${query}`);
      await page.getByText(message).waitFor();
      await page.close();
    }
  });
});
