import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MEASUREMENT, runMeasurement } from '../../shared/scenarios/measurement.ts';
import { fixed } from '../../web/charts/format.ts';
import { estimateError } from '../../web/labs/measurement/estimateError.ts';
import { open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const query = (page: Page) => new URL(page.url()).searchParams;

/** Every text and attribute of the link's controls, where a hidden truth could show. */
const controlsText = (page: Page) =>
  page
    .locator('section[aria-label="The link to measure"]')
    .evaluate((s) => [s.textContent, ...[...s.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.value)), ...[...s.querySelectorAll('input')].map((i) => i.value)].join(' '));

describe('what each view is', () => {
  it.each([
    ['measurement', 'Estimating a link’s bandwidth and delay from ping-pong round trips'],
    ['leaderboard', 'The class leaderboard: the Submits the relay’s offset servers rank, as they arrive'],
    ['sessions', 'Every session of the relay’s offset servers, from any client, as the server records it'],
  ])('the %s view opens its guide', async (view, title) => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=${view}`);
    const guide = page.locator(`details.guide[data-guide="${view}"]`);
    await guide.getByText('What am I looking at?').click();
    await guide.getByText(title).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the measurement lab in Chromium', () => {
  it('takes exact values in the boxes beside its sliders, and refuses bad ones with the reason', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=measurement`);
    const bandwidth = page.locator('[data-number="bw"]');
    await bandwidth.fill('23.7');
    await page.locator('[data-estimate="mbps"]').getByText('truth 23.7 Mbit/s').waitFor();
    expect(await page.locator('input[type="range"][data-param="bw"]').getAttribute('aria-valuenow')).toBe('23.7');
    await expect.poll(() => query(page).get('bw')).toBe('23.7');

    await bandwidth.fill('500');
    await page.getByRole('alert').getByText('bw must be a number from 0.1 to 100 Mbit/s (got "500"); bw stays 23.7').waitFor();
    expect(await bandwidth.getAttribute('aria-invalid')).toBe('true');
    await page.locator('[data-number="delay"]').fill('12.5');
    await page.getByRole('alert').getByText('delay must be a whole number from 0 to 200 ms (got "12.5")').waitFor();
    await page.waitForTimeout(300);
    expect(query(page).get('bw')).toBe('23.7');
    expect(query(page).get('delay')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('with the truth hidden, shows nothing of it (knob, box, value, tooltip, address) until revealed', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=measurement&hide=1&bw=20&delay=30`);
    await page.locator('[data-testid="hidden-truth"]').waitFor();
    // The lab's own fit would read within a few percent of the answer: hidden with it, the samples drawn.
    await page.locator('[data-testid="estimates"][data-hidden]').waitFor();
    expect(await page.locator('[data-estimate], [data-line="fit"]').count()).toBe(0);
    expect(await page.locator('figure[aria-label="Latency against message size"] circle').count()).toBeGreaterThan(5);
    await expect.poll(() => query(page).has('secret')).toBe(true);
    expect([query(page).get('bw'), query(page).get('delay')]).toEqual([null, null]);
    expect(await page.locator('[data-param="bw"], [data-param="delay"], [data-number="bw"], [data-number="delay"]').count()).toBe(0);
    const shown = await controlsText(page);
    expect(shown).not.toMatch(/\b(20|30)\b/);
    expect(await page.locator('[data-testid="estimates"]').innerText()).not.toContain('truth');
    expect(await page.getByText('the truth', { exact: true }).count()).toBe(0); // the truth's line and its key

    // The sealed link reopens as the same hidden link, and reveals the truth it was given.
    await page.goto(page.url());
    await page.locator('[data-action="reveal"]').click();
    await page.locator('[data-estimate="mbps"]').getByText('truth 20 Mbit/s').waitFor();
    expect(await page.locator('input[type="range"][data-param="delay"]').getAttribute('aria-valuenow')).toBe('30');
    expect(await page.getByLabel('hide the truth').isChecked()).toBe(false);
    await expect.poll(() => [query(page).get('bw'), query(page).get('delay'), query(page).get('secret')]).toEqual(['20', '30', null]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the exercise’s link opens on an unknown link, and another can be drawn', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=measurement&hide=1`);
    await expect.poll(() => query(page).get('secret')).not.toBeNull();
    const first = query(page).get('secret');
    await page.locator('[data-action="draw-link"]').click();
    await expect.poll(() => query(page).get('secret')).not.toBe(first);
    await page.getByLabel('hide the truth').uncheck();
    const truth = async (estimate: string) => Number(/truth ([\d.]+)/.exec(await page.locator(`[data-estimate="${estimate}"] small`).innerText())![1]);
    const mbps = await truth('mbps');
    expect(mbps).toBeGreaterThanOrEqual(0.5);
    expect(mbps).toBeLessThanOrEqual(50);
    const delay = await truth('delay');
    expect(delay).toBeGreaterThanOrEqual(1);
    expect(delay).toBeLessThanOrEqual(100);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('hiding the truth hides a link not yet seen, and the student’s own estimates come back with their error', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=measurement&bw=20&delay=30`);
    await page.locator('[data-estimate="mbps"]').getByText('truth 20 Mbit/s').waitFor();
    await page.getByLabel('hide the truth').check();
    // what is no estimate is said beside its box as typed
    await page.locator('[data-guess="mbps"]').fill('abc');
    await page.locator('[data-guess="delay"]').fill('-3');
    const said = page.locator('.your-estimate [role="alert"]');
    expect(await said.allInnerTexts()).toEqual([
      'your bandwidth must be a number of Mbit/s above 0 (got "abc"): it is left out of the reveal',
      'your one-way delay must be a number of ms from 0 (got "-3"): it is left out of the reveal',
    ]);
    expect(await page.locator('[data-guess="mbps"]').getAttribute('aria-invalid')).toBe('true');
    await page.locator('[data-guess="mbps"]').fill('12.5');
    await page.locator('[data-guess="delay"]').fill('40');
    expect(await said.count()).toBe(0);
    await page.locator('[data-action="reveal"]').click();
    const truth = async (estimate: string) => Number(/truth ([\d.]+)/.exec(await page.locator(`[data-estimate="${estimate}"] small`).first().innerText())![1]);
    const [mbps, delay] = [await truth('mbps'), await truth('delay')];
    // the link that was on screen is not the one hidden
    expect([mbps, delay]).not.toEqual([20, 30]);
    expect(await page.locator('[data-yours="mbps"]').innerText()).toBe(`yours 12.5 Mbit/s · your error ${estimateError(12.5, mbps, 'Mbit/s', 3)}`);
    expect(await page.locator('[data-yours="delay"]').innerText()).toBe(`yours 40 ms · your error ${estimateError(40, delay, 'ms', 3)}`);
    // another unknown link starts with no estimate of the student's
    await page.getByLabel('hide the truth').check();
    expect(await page.locator('[data-guess="mbps"]').inputValue()).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('at a delay of 0, gives the delay’s error in ms, not a percentage of nothing', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=measurement&delay=0`);
    const fit = runMeasurement({ ...DEFAULT_MEASUREMENT, delayMs: 0 }).fit;
    const delay = page.locator('[data-estimate="delay"]');
    await delay.getByText('truth 0 ms').waitFor();
    expect(await delay.innerText()).toBe(`${fixed(fit.delayMs, 3)} ms truth 0 ms · error ${estimateError(fit.delayMs, 0, 'ms', 3)}`);
    expect(await delay.innerText()).not.toMatch(/%|—/);
    expect(await page.locator('[data-estimate="mbps"]').innerText()).toMatch(/error [-+]?\d+\.\d{3} Mbit\/s \([-+]?\d+\.\d%\)$/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
