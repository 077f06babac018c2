import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, open, paintedPixels, playground } from '../helpers/page.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { testRelay } from '../helpers/relay.ts';
import { DEFAULT_POLICY } from '../../shared/offset/policy.ts';
import { schemeCopy } from '../../scripts/schemeCopies.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const resultShown = (side: string) => /true|false/.test(document.querySelector(`section.cards[data-side^="${side} "] [data-card="Result"] dd`)?.textContent ?? '');
const sideNote = (page: import('playwright-core').Page) => page.locator('section.cards[data-side^="A "] h3').innerText();

describe('live mode in Chromium', () => {
  it('fetches the file through the bridge: Result: true, the server’s Time and Penalty on the cards, every chart drawn', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?s=offset&live=1&a=token-pacer`);
    await page.getByText('live: no fetch yet (press Start live fetch)').waitFor();
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(resultShown, 'A', { timeout: 40_000 });
    expect(await card(page, 'A', 'Result')).toBe('true');
    expect(Number((await card(page, 'A', 'Time')).replace(/\D/g, ''))).toBeGreaterThan(0);
    expect(Number(await card(page, 'A', 'Penalty'))).toBeGreaterThanOrEqual(0);
    expect(await sideNote(page)).toContain('live, done');
    // Offsets, window, throughput and delay from the replies (charts off screen paint when the page is idle);
    // the queue chart has only its axes (no simulated bottleneck).
    await expect.poll(async () => (await paintedPixels(page, 'a')).slice(0, 4).every((n) => n > 0), { timeout: 5000 }).toBe(true);
    expect(await card(page, 'B', 'Result')).toBe('true'); // the simulated comparison alongside
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('runs the user’s own controller live: its code reaches the worker that runs the fetch', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?s=offset&live=1&a=token-pacer`);
    await page.getByRole('button', { name: 'Write your own controller…' }).click();
    const content = page.locator('.user-editor .cm-content');
    await content.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText((await schemeCopy('token-pacer'))!);
    await page.getByRole('button', { name: 'Run ▶' }).click();
    await page.waitForFunction(() => (document.querySelector('select[data-param="a.scheme"]') as HTMLSelectElement | null)?.value === 'user');
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(resultShown, 'A', { timeout: 40_000 });
    expect(await card(page, 'A', 'Result')).toBe('true');
    expect(await sideNote(page)).toContain('live, done');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('a Submit the relay cannot keep (its records refuse every write): the run says what the server answered', async () => {
    const dir = tempDir('pipefill-live-records-');
    const relay = await testRelay({ dataDir: dir, distDir: TEST_BUNDLE });
    try {
      // a folder where the records file goes: every write fails (EISDIR), as root too
      rmSync(join(dir, 'records.jsonl'), { force: true });
      mkdirSync(join(dir, 'records.jsonl'));
      const { page, problems } = await open(env.browser, `${relay.url}/?s=offset&live=1&a=token-pacer`);
      await page.locator('[data-action="start-live"]').click();
      await page.getByText('the server answered each of 50 Submits with an error').waitFor({ timeout: 40_000 });
      // the run ends saying why, and its caption tells what the server answered
      expect(await page.locator('p.error[role="alert"]').innerText()).toMatch(
        /^A · Token pacer: live fetch ended: the server answered each of 50 Submits with an error, the last: ERROR: Submit not kept: the relay cannot write its records \(EISDIR: [^)]+\); Submit again later$/,
      );
      expect(await page.locator('[data-caption="offset"]').innerText()).toMatch(
        /^A · Token pacer: the whole file, no Result from the server, .+? The server answered “ERROR: Submit not kept: the relay cannot write its records \(EISDIR: [^)]+\); Submit again later”\. B · /,
      );
      expect(await sideNote(page)).toContain('live, stopped');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await relay.close();
    }
  }, 60_000);

  it('shows the squish a burst scheme earns, and its trace CSV has the squish and penalty rows', async () => {
    const relay = await testRelay({ fileSize: 400_000, distDir: TEST_BUNDLE });
    const { page } = await open(env.browser, `${relay.url}/?s=offset&live=1&a=constant-burst&a.size=20`);
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(resultShown, 'A', { timeout: 60_000 });
    expect(Number(await card(page, 'A', 'Squishes'))).toBeGreaterThan(0);
    await page.locator('.column[data-side="a"]').getByText('squished', { exact: true }).waitFor();
    await page.getByText('Export', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="trace-a"]').click()]);
    const file = join(tempDir(), 'live.csv');
    await download.saveAs(file);
    const csv = readFileSync(file, 'utf8');
    expect(csv).toMatch(/,squish,.*,on\b/);
    expect(csv.split('\n').filter((l) => l.includes(',penalty,'))).toHaveLength(1);
    await page.close();
    await relay.close();
  }, 90_000);

  it('ends the run with a plain message and a correct label when the relay dies mid-fetch', async () => {
    const relay = await testRelay({ fileSize: 1_000_000, distDir: TEST_BUNDLE });
    const { page } = await open(env.browser, `${relay.url}/?s=offset&live=1&a=token-pacer`);
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent?.includes('…'), null, { timeout: 20_000 });
    await relay.close();
    await page.getByRole('alert').filter({ hasText: 'live fetch ended: the relay' }).waitFor({ timeout: 10_000 });
    expect(await sideNote(page)).toContain('live, stopped');
    expect(await page.locator('[data-action="start-live"]').count()).toBe(1); // Stop gave way to Start again
    // no figure the server never told: no "NaN" in the caption or the cards
    expect(await page.locator('[data-caption="offset"]').innerText()).toMatch(/^A · Token pacer: no whole file yet, no penalty told/);
    expect(await page.locator('main').innerText()).not.toContain('NaN');
    await page.close();
  }, 30_000);

  it('fetches from the variable-rate server too, its bound on the card', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?s=offset&live=1&var=1&a=token-pacer`);
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(resultShown, 'A', { timeout: 40_000 });
    expect(await card(page, 'A', 'Result')).toBe('true');
    expect(await sideNote(page)).toContain('live, done');
    expect(await card(page, 'A', 'Bound')).toMatch(/^\d+ ms$/);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('says plainly when the relay is not there, and simulated mode keeps working', async () => {
    const { page } = await open(env.browser, `${env.relay.url}/?s=offset&live=1`);
    await page.route('**/api/relay', (r) => r.abort());
    await page.reload();
    await page.getByText('Live mode needs the relay (npm start), and it cannot be reached from this page.').waitFor();
    expect(await card(page, 'B', 'Result')).toBe('true');
    await page.locator('[data-param="mode"]').selectOption('sim');
    expect(await card(page, 'A', 'Result')).toBe('true');
    await page.close();
  });

  it('shows the relay’s policy in live mode, and says when the page’s own settings apply live', async () => {
    const strict = await testRelay({ distDir: TEST_BUNDLE, policy: { ...DEFAULT_POLICY, rate: 100 } });
    const { page, problems } = await open(env.browser, `${strict.url}/?s=offset&live=1`);
    const shown = page.locator('[data-relay-policy="relay"]');
    await shown.waitFor();
    expect(await shown.locator('summary').innerText()).toBe('Policy — the relay’s');
    expect(await shown.locator('[data-param="relay.rate"] dd').innerText()).toBe('100 tokens/s');
    expect(await page.locator('[data-hint="simulated-path"]').innerText()).toMatch(/loopback path \(1 Gbit\/s, 0\.05 ms each way; this relay’s own UDP round trip is \d+\.\d\d ms\)/);
    await page.locator('[data-param="mode"]').selectOption('sim');
    expect(await shown.count()).toBe(0); // a simulated run meets the sidebar's policy only
    expect(problems).toEqual([]);
    await page.close();
    await strict.close();

    const lenient = await testRelay({ distDir: TEST_BUNDLE, allowSessionPolicy: true });
    const second = await open(env.browser, `${lenient.url}/?s=offset&live=1`);
    await second.page.locator('[data-relay-policy="session"]').getByText('the settings below apply to the live fetch too').waitFor();
    expect(await second.page.locator('[data-relay-policy="relay"]').count()).toBe(0);
    await second.page.close();
    await lenient.close();
  }, 60_000);
});
