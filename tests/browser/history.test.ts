import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeToQuery, DAMAGED_CODE } from '../../web/state/view.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { card, LIGHT_RUN, open, playground } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** Drags a slider from near its left end across half its width, in many small steps (many input events, one change). */
async function drag(page: Page, selector: string): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = (await page.locator(selector).boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 4, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 4 + (i * box.width) / 24, y);
  await page.mouse.up();
}

const query = (page: Page) => new URL(page.url()).searchParams;

describe('the address as history', () => {
  it('Back and Forward step through settled changes: a drag is one step, a typed value one, a choice one', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    const entries = () => page.evaluate(() => history.length);
    const opened = await entries();

    await drag(page, '[data-param="link.delay"]');
    const delay = await page.locator('[data-number="link.delay"]').inputValue();
    await expect.poll(() => query(page).get('link.delay')).toBe(delay);
    const seed = page.locator('[data-param="seed"]');
    await seed.fill('');
    await seed.pressSequentially('42');
    await seed.press('Enter');
    await expect.poll(() => query(page).get('seed')).toBe('42');
    await page.locator('[data-param="b.scheme"]').selectOption('cubic');
    await expect.poll(() => query(page).get('b')).toBe('cubic');
    expect(await entries()).toBe(opened + 3);

    // Back undoes one settled change at a time, and the page shows each state again.
    await page.goBack();
    await expect.poll(() => page.locator('[data-param="b.scheme"]').inputValue()).toBe('bdp');
    expect([query(page).get('seed'), query(page).get('link.delay')]).toEqual(['42', delay]);
    await page.goBack();
    await expect.poll(() => seed.inputValue()).toBe('1');
    expect(query(page).get('link.delay')).toBe(delay);
    await page.goBack();
    await expect.poll(() => query(page).get('link.delay')).toBeNull();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goForward();
    await expect.poll(() => query(page).get('link.delay')).toBe(delay);
    expect(await page.locator('[data-number="link.delay"]').inputValue()).toBe(delay);
    // A change after Back or Forward is an entry of its own, even a drag's first step.
    await page.goBack();
    await expect.poll(() => query(page).get('link.delay')).toBeNull();
    await drag(page, '[data-param="a.timeout"]');
    await expect.poll(() => query(page).get('a.timeout')).not.toBeNull();
    expect(await entries()).toBe(opened + 1);
    await page.goBack();
    await expect.poll(() => query(page).get('a.timeout')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a choice made right after a drag, before the drag is written, is an entry of its own after the drag’s', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    const opened = await page.evaluate(() => history.length);
    await drag(page, '[data-param="link.delay"]');
    const delay = await page.locator('[data-number="link.delay"]').inputValue();
    await page.locator('[data-param="b.scheme"]').selectOption('cubic');
    await expect.poll(() => query(page).get('b')).toBe('cubic');
    expect(query(page).get('link.delay')).toBe(delay);
    expect(await page.evaluate(() => history.length)).toBe(opened + 2);
    await page.goBack();
    await expect.poll(() => page.locator('[data-param="b.scheme"]').inputValue()).toBe('bdp');
    expect(query(page).get('link.delay')).toBe(delay);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a step made right after a drag is an entry of its own at once: Back at once goes to the drag’s end', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    const timeout = page.locator('[data-param="a.timeout"]');
    await timeout.scrollIntoViewIfNeeded();
    await drag(page, '[data-param="link.delay"]');
    const delay = await page.locator('[data-number="link.delay"]').inputValue();
    // within the spell the drag's end waits for (unless the machine is slow, when this passes anyway)
    await timeout.press('ArrowLeft');
    await page.goBack();
    await expect.poll(() => query(page).get('a.timeout')).toBeNull();
    expect(query(page).get('link.delay')).toBe(delay);
    expect(await page.locator('[data-number="link.delay"]').inputValue()).toBe(delay);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a choice, then a key on a slider: each is an entry of its own, and Back undoes the key alone', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    const opened = await page.evaluate(() => history.length);
    await page.locator('[data-param="b.scheme"]').selectOption('cubic');
    await expect.poll(() => query(page).get('b')).toBe('cubic');
    await page.locator('[data-param="link.delay"]').press('ArrowRight');
    await expect.poll(() => query(page).get('link.delay')).not.toBeNull();
    expect(await page.evaluate(() => history.length)).toBe(opened + 2);
    await page.goBack();
    await expect.poll(() => query(page).get('link.delay')).toBeNull();
    expect(query(page).get('b')).toBe('cubic');
    expect(await page.locator('[data-param="b.scheme"]').inputValue()).toBe('cubic');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Back right after a drag, then Forward: the drag’s end, not the step its entry began with', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    await drag(page, '[data-param="link.delay"]');
    const delay = await page.locator('[data-number="link.delay"]').inputValue();
    await page.goBack();
    await expect.poll(() => query(page).get('link.delay')).toBeNull();
    await page.goForward();
    await expect.poll(() => query(page).get('link.delay')).toBe(delay);
    expect(await page.locator('[data-number="link.delay"]').inputValue()).toBe(delay);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Copy link right after a drag copies its last step, before the address would have been written', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?${LIGHT_RUN}`, { permissions: ['clipboard-read', 'clipboard-write'] });
    await card(page, 'A', 'Throughput');
    await drag(page, '[data-param="link.delay"]');
    const delay = await page.locator('[data-number="link.delay"]').inputValue();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('The link to this experiment is on the clipboard.').waitFor();
    const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    expect(copied.searchParams.get('link.delay')).toBe(delay);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a share link whose code was cut short says so, keeps the address as it came, and keeps the rest of its settings', async () => {
    const code = `export default defineScheme({ id: 'mine', title: 'Mine', init: () => ({ cwnd: 10 }), onAck: (s) => ({ ...s, cwnd: s.cwnd + 1 }) });\n${'// padding\n'.repeat(40)}`;
    const whole = codeToQuery(code, new URLSearchParams(`${LIGHT_RUN}&a=user&b=cubic&link.delay=35`)).toString();
    const cut = `${env.relay.url}/?${whole.slice(0, whole.length - 30)}`;
    const { page } = await open(env.browser, cut);
    await card(page, 'A', 'Throughput');
    const notice = page.locator('.notices');
    await notice.getByText('controller A: the controller code in this link is damaged').waitFor();
    expect(await notice.innerText()).not.toContain('must be one of');
    // said once, in the notices; the editor says what it shows instead of the link's code
    await page.locator('.user-editor').getByText("This link's controller code is damaged, so the editor shows the example, not the link's.").waitFor();
    expect(await page.getByText(DAMAGED_CODE).count()).toBe(1);
    // what could be read stays: B, the link
    expect(await page.locator('[data-param="b.scheme"]').inputValue()).toBe('cubic');
    expect(await page.locator('[data-number="link.delay"]').inputValue()).toBe('35');
    await card(page, 'B', 'Throughput');
    expect(page.url()).toBe(cut);
    await page.close();
  });

  it('during a live fetch, a scheme change says the fetch goes on as it started, and a view switch asks first', async () => {
    const relay = await testRelay({ fileSize: 1_500_000, distDir: TEST_BUNDLE });
    const { page } = await open(env.browser, `${relay.url}/?s=offset&live=1&a=token-pacer`);
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent?.includes('…'), null, { timeout: 20_000 });
    await page.locator('[data-param="a.scheme"]').selectOption('aimd');
    expect(await page.locator('[data-hint="live-settings"]').innerText()).toMatch(/This fetch goes on with Token pacer as it started; A’s new settings apply from the next Start live fetch\./);
    const asked: string[] = [];
    page.once('dialog', (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('link', { name: 'Contest lab' }).click();
    expect(asked).toEqual(['A live fetch is under way: opening another view stops it. Open the other view anyway?']);
    expect(query(page).get('view')).toBeNull();
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.close();
    await relay.close();
  });
});

describe('the page as it settles', () => {
  it('keeps the charts in place as the runs arrive; Edit a copy over the starter asks nothing; Import folds its menu, keeps one banner, dims the side it replaced', async () => {
    const page = await env.context.newPage();
    // Where the first chart row stands, every frame from the page's first until both runs are in.
    await page.addInitScript(() => {
      const tops: number[] = [];
      (window as unknown as { tops: number[] }).tops = tops;
      const look = () => {
        const row = document.querySelector('.columns');
        if (row) tops.push(Math.round(row.getBoundingClientRect().top + window.scrollY));
        if (document.querySelectorAll('[data-card="Throughput"] dd').length < 2 || !document.querySelector('[data-caption="plane"]')) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${env.relay.url}/?a=aimd`);
    await card(page, 'A', 'Throughput');
    await card(page, 'B', 'Throughput');
    await page.locator('[data-caption="plane"]').waitFor();
    const tops = await page.evaluate(() => (window as unknown as { tops: number[] }).tops);
    expect(tops.length).toBeGreaterThan(0);
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(2);

    await page.getByRole('region', { name: 'Controller A' }).getByRole('button', { name: 'Edit a copy' }).click();
    await page.locator('.user-editor').waitFor();
    expect(dialogs).toEqual([]);

    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="b"]').setInputFiles({ name: 'nothing.csv', mimeType: 'text/csv', buffer: Buffer.from('not a trace\n') });
    await page.locator('.notices').getByText('nothing.csv').waitFor();
    expect(await page.locator('details.menu:has([data-import="b"])').getAttribute('open')).toBeNull();
    // a second failure takes the place of the first: banners do not pile up
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="a"]').setInputFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from('no trace either\n') });
    await page.locator('.notices').getByText('other.csv').waitFor();
    expect(await page.locator('.notices p').count()).toBe(1);
    // a run imported into A: A's settings, which did not make it, are dimmed and say so
    await page.getByText('Export', { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="trace-b"]').click()]);
    const file = join(tempDir(), 'b.csv');
    await download.saveAs(file);
    const csv = readFileSync(file);
    await page.getByText('Import', { exact: true }).click();
    await page.locator('[data-import="a"]').setInputFiles({ name: 'b.csv', mimeType: 'text/csv', buffer: csv });
    const sideA = page.getByRole('region', { name: 'Controller A' });
    await sideA.locator('[data-hint="imported"]').waitFor();
    expect(await sideA.getAttribute('class')).toContain('imported');
    expect(await page.getByRole('region', { name: 'Controller B' }).locator('[data-hint="imported"]').count()).toBe(0);
    await page.close();
  });
});
