import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, description, LIGHT_RUN, open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

async function openAt(browser: Browser, url: string, width: number, height: number) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(url);
  // Each side runs in its own worker: both cards, so neither side's charts still show its preview.
  await card(page, 'A', 'Throughput');
  await card(page, 'B', 'Throughput');
  await page.waitForSelector('.column[data-side="b"] figure.chart canvas');
  return page;
}

describe('one glance at projector sizes, in Chromium', () => {
  for (const [width, height] of [
    [1280, 720],
    [1024, 768],
  ] as const) {
    it(`${width}×${height}: A and B side by side, cards, plane and the first chart row without scrolling`, async () => {
      const page = await openAt(env.browser, env.relay.url, width, height);
      const box = (selector: string) =>
        page
          .locator(selector)
          .first()
          .boundingBox()
          .then((b) => b!);
      const [cardsA, cardsB, plane] = await Promise.all([box('section.cards[data-side^="A "]'), box('section.cards[data-side^="B "]'), box('figure.plane')]);
      const [chartA, chartB] = await Promise.all([box('.column[data-side="a"] figure.chart'), box('.column[data-side="b"] figure.chart')]);
      for (const b of [cardsA, cardsB, plane, chartA, chartB]) {
        expect(b.y + b.height, JSON.stringify(b)).toBeLessThanOrEqual(height);
        expect(b.x + b.width, JSON.stringify(b)).toBeLessThanOrEqual(width);
      }
      expect(cardsB.x).toBeGreaterThan(cardsA.x + cardsA.width - 1);
      expect(chartB.x).toBeGreaterThan(chartA.x + chartA.width - 1);
      // their plots level, whichever legend takes more lines
      const [plotA, plotB] = await Promise.all([box('.column[data-side="a"] figure.chart .plot'), box('.column[data-side="b"] figure.chart .plot')]);
      expect(Math.abs(plotA.y - plotB.y)).toBeLessThan(2);
      expect(await page.evaluate(() => document.scrollingElement!.scrollLeft === 0 && document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
      // Every card's label is there whole, not cut to "Per-packet on…".
      expect(await page.locator('.card dt').evaluateAll((dts) => dts.filter((d) => d.scrollWidth > d.clientWidth + 1).map((d) => d.textContent))).toEqual([]);
      // the settings are folded away, and the sliders' number boxes stand beside them when opened
      expect(await page.locator('.sidebar').isVisible()).toBe(false);
      await page.locator('[data-action="settings"]').click();
      const [slider, number] = await Promise.all([box('[data-param="link.delay"]'), box('[data-number="link.delay"]')]);
      expect(Math.abs(slider.y + slider.height / 2 - (number.y + number.height / 2))).toBeLessThan(4);
      expect(number.x).toBeGreaterThan(slider.x + slider.width - 1);
      await page.close();
    });
  }

  it('the settings fold away and come back; folded by default on a narrow screen', async () => {
    const page = await openAt(env.browser, env.relay.url, 1024, 768);
    expect(await page.locator('.sidebar').isVisible()).toBe(false);
    await page.locator('[data-action="settings"]').click();
    await page.locator('[data-param="a.timeout"]').waitFor({ state: 'visible' });
    await page.locator('[data-action="settings"]').click();
    expect(await page.locator('.sidebar').isVisible()).toBe(false);
    await page.close();
    const wide = await openAt(env.browser, env.relay.url, 1500, 1000);
    expect(await wide.locator('.sidebar').isVisible()).toBe(true);
    await wide.close();
  });

  it('each card explains itself on keyboard focus, and the guide opens', async () => {
    const page = await openAt(env.browser, env.relay.url, 1280, 720);
    const tip = page.locator('section.cards[data-side^="A "] [data-card="Score"] [role="tooltip"]');
    expect(await tip.isVisible()).toBe(false);
    await page.locator('section.cards[data-side^="A "] [data-card="Score"]').focus();
    expect(await tip.isVisible()).toBe(true);
    expect(await tip.innerText()).toBe('ln(throughput Mbit/s ÷ delay95 ms), the contest score');
    await page.getByText('What am I looking at?').click();
    const panel = page.getByText('Two congestion controllers, A and B, send over the same cellular link');
    await panel.waitFor();
    // It folds away as a popover does, so it does not stay over the cards: on Escape, and on a press elsewhere.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await page.getByText('What am I looking at?').click();
    await panel.waitFor();
    await panel.click(); // a press inside keeps it open
    expect(await panel.isVisible()).toBe(true);
    await page.mouse.click(1270, 710); // far from the toolbar, on the page below the panel
    await panel.waitFor({ state: 'hidden' });
    await page.close();
  });

  it('captions under the plane and each row follow the runs', async () => {
    const page = await openAt(env.browser, env.relay.url, 1280, 720);
    const plane = page.locator('[data-caption="plane"]');
    await plane.waitFor();
    const delay = await card(page, 'A', 'Delay95');
    expect(await plane.innerText()).toContain(`AIMD: ${await card(page, 'A', 'Throughput')}`.replace(' Mbit/s', ''));
    expect(await plane.innerText()).toContain(`at delay95 ${delay}`);
    expect(await page.locator('[data-caption="window"]').innerText()).toMatch(/^The dashed line is the pipe, capacity × minimum RTT ≈ \d+ packets/);
    await page.goto(`${env.relay.url}/?a=fixed&a.w=1`);
    await page.locator('[data-caption="plane"]').getByText("Look out: Fixed window's window is stuck at 1 packet").waitFor();
    await page.close();
  });

  it('number boxes beside sliders take exact values and refuse bad ones; the delay slides on a log scale', async () => {
    const page = await openAt(env.browser, env.relay.url, 1500, 1000);
    const box = page.locator('[data-number="link.delay"]');
    await box.fill('333');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('link.delay') === '333');
    await box.fill('9000');
    await page.getByText('delay must be a whole number from 0 to 5000 ms (got "9000")').waitFor();
    expect(new URLSearchParams(new URL(page.url()).search).get('link.delay')).toBe('333');
    // Leaving the box shows the value in force again; the reason stays.
    await box.blur();
    expect(await box.inputValue()).toBe('333');
    // What the box takes, a link reproduces: a fraction of a whole-number parameter is refused as the URL refuses it.
    await box.fill('0.5');
    await page.getByText('delay must be a whole number from 0 to 5000 ms (got "0.5")').waitFor();
    expect(new URLSearchParams(new URL(page.url()).search).get('link.delay')).toBe('333');
    const slider = page.locator('[data-param="link.delay"]');
    expect(await slider.getAttribute('data-scale')).toBe('log');
    // The middle of the track is about 70 ms (√5001 − 1), not 2,500 ms.
    await slider.evaluate((el: HTMLInputElement) => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(el, String(Number(el.max) / 2));
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => new URLSearchParams(location.search).get('link.delay') === '70');
    expect(await box.inputValue()).toBe('70');
    expect(await slider.getAttribute('aria-valuenow')).toBe('70'); // the delay, not its place on the log scale
    await page.close();
  });

  it('a value typed key by key and refused leaves the one in force before it, not what the typing passed through', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    const setting = (key: string) => new URL(page.url()).searchParams.get(key);
    const box = page.locator('[data-number="link.delay"]');
    const before = setting('link.delay');
    await box.click();
    await box.press('Control+a');
    await box.pressSequentially('6000');
    await box.press('Enter');
    // "600" checked on the way: it was applied, then put back
    await page.getByText(`delay must be a whole number from 0 to 5000 ms (got "6000"); delay stays ${before ?? 20}`).waitFor();
    // the value in force again (written out now, as the box put it back)
    await expect.poll(() => setting('link.delay') ?? '20').toBe(before ?? '20');
    expect(await page.locator('[data-param="link.delay"]').getAttribute('aria-valuenow')).toBe(before ?? '20');
    const seed = page.locator('[data-param="seed"]');
    await seed.click();
    await seed.press('Control+a');
    await seed.pressSequentially('99999999999');
    await page.getByText('seed must be a whole number from 0 to 2147483647 (got "99999999999"); seed stays 1').waitFor();
    await expect.poll(() => setting('seed') ?? '1').toBe('1');
    await seed.blur();
    expect(await seed.inputValue()).toBe('1');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a number box refuses a value out of range with its reason, keeps the reason beside the value in force, and drops it once that value changes', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    const box = page.locator('[data-number="a.a"]');
    const reason = page.getByText('a must be a number from 0.1 to 10 packets (got "99"); a stays 1');
    await box.fill('99');
    await box.press('Enter');
    await reason.waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await description(box)).toBe('a must be a number from 0.1 to 10 packets (got "99"); a stays 1');
    // leaving the box shows the value in force, which is valid, with the reason it was kept
    await page.locator('[data-param="seed"]').click();
    await expect.poll(() => box.inputValue()).toBe('1');
    expect(await box.getAttribute('aria-invalid')).toBe('false');
    expect(await reason.count()).toBe(1);
    // a new value in force: the reason was about another
    await page.locator('[data-param="a.a"]').press('ArrowRight');
    await expect.poll(() => box.inputValue()).toBe('1.1');
    await expect.poll(() => reason.count()).toBe(0);
    expect(await box.getAttribute('aria-invalid')).toBe('false');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('A’s and B’s charts of a kind share their y axis', async () => {
    const page = await openAt(env.browser, env.relay.url, 1280, 720);
    await page.getByRole('button', { name: 'Show all' }).click();
    // Both columns read at once, each chart's y tick labels as one text, once every chart of A has its ticks.
    const yTicks = () =>
      page.evaluate(() => {
        const side = (s: string) =>
          [...document.querySelectorAll(`.column[data-side="${s}"] figure.chart`)].map((f) => [...f.querySelectorAll('g.tick text[x="-6"]')].map((t) => t.textContent).join(' '));
        return { a: side('a'), b: side('b') };
      });
    await expect.poll(async () => (await yTicks()).a.filter(Boolean).length, { timeout: 5000 }).toBeGreaterThanOrEqual(5);
    const { a, b } = await yTicks();
    expect(a.every(Boolean)).toBe(true);
    // Every row both sides draw (the rate estimates are B's alone).
    expect(b.slice(0, a.length)).toEqual(a);
    await page.close();
  });

  it('overlay mode draws A and B on one set of charts, in their two colours', async () => {
    const page = await openAt(env.browser, env.relay.url, 1280, 720);
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.locator('[data-action="overlay"]').check();
    const window = page.locator('[data-overlay="window"] figure.chart');
    await window.waitFor();
    // The link carries it: a page opened from it overlays too.
    await page.waitForFunction(() => new URLSearchParams(location.search).get('overlay') === '1');
    const again = await env.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await again.goto(page.url());
    await again.locator('[data-overlay="window"] figure.chart').waitFor();
    expect(await again.locator('[data-action="overlay"]').isChecked()).toBe(true);
    await again.close();
    expect(await page.locator('.column[data-side="a"] figure.chart').count()).toBe(0);
    const keys = await window.locator('.legend .key').allInnerTexts();
    expect(keys).toContain('A window');
    expect(keys).toContain('B window');
    await page.waitForTimeout(300);
    // Each side's colour on the one canvas: over all of it, and over its top 4 px.
    const colours = await window.locator('canvas').evaluate((c: HTMLCanvasElement) => {
      const count = (rows: number) => {
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, rows).data;
        let blue = 0;
        let vermillion = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (d[i] === 0x00 && d[i + 1] === 0x72 && d[i + 2] === 0xb2) blue++;
          if (d[i] === 0xd5 && d[i + 1] === 0x5e && d[i + 2] === 0x00) vermillion++;
        }
        return { blue, vermillion };
      };
      return { all: count(c.height), top: count(Math.round(4 * (devicePixelRatio || 1))) };
    });
    expect(colours.all.blue).toBeGreaterThan(50);
    expect(colours.all.vermillion).toBeGreaterThan(50);
    // Whose event a tick is: both runs' timers fire (AIMD's timeouts, the BDP estimator's re-estimates, named
    // so); A's ticks are blue and rise from the axis, B's are vermillion and hang from the top edge, where no
    // line of the window reaches (the y axis is padded).
    const tickKeys = await window
      .locator('.legend .key', { hasText: /timeout|re-estimate/ })
      .evaluateAll((keys) => keys.map((k) => [k.textContent, getComputedStyle(k.querySelector('i')!).backgroundColor, k.querySelector('i')!.classList.contains('hang')]));
    expect(tickKeys).toEqual([
      ['A timeout', 'rgb(0, 114, 178)', false],
      ['B re-estimate (its timer)', 'rgb(213, 94, 0)', true],
    ]);
    expect(colours.top.vermillion, JSON.stringify(colours)).toBeGreaterThan(10);
    expect(colours.top.blue, JSON.stringify(colours)).toBe(0);
    await page.locator('[data-action="overlay"]').uncheck();
    await page.locator('.column[data-side="a"] figure.chart').first().waitFor();
    await page.close();
  });

  it('an exercise is checked on each side’s run, and offers the next challenge once met', async () => {
    // Both sides tuned a little: the page's own sides, as it opens, are the worked example and score no goal.
    const page = await openAt(env.browser, `${env.relay.url}/?a.timeout=600&b.gain=1.7`, 1280, 720);
    await page.getByText('Exercises', { exact: true }).click();
    await page.locator('[data-param="exercise"]').selectOption('delay');
    const b = `✓ B · BDP estimator: ${(await card(page, 'B', 'Throughput')).replace(' Mbit/s', '')} Mbit/s at ${await card(page, 'B', 'Delay95')}`;
    expect(await page.locator('[data-check="B · BDP estimator"]').innerText()).toBe(b);
    expect(await page.locator('[data-check="A · AIMD"]').innerText()).toMatch(/^✗ A · AIMD: needs \d+ ms less delay95$/);
    // The link carries the exercise: a page opened from it shows it, checked on its runs.
    await page.waitForFunction(() => new URLSearchParams(location.search).get('ex') === 'delay');
    const again = await openAt(env.browser, page.url(), 1280, 720);
    expect(await again.locator('[data-check="B · BDP estimator"]').innerText()).toBe(b);
    await again.close();
    // The next challenge opens ready to do, on its own scenario: the page's own sides there are the worked
    // example, said without a verdict.
    await page.getByRole('button', { name: 'Next challenge: The offset server' }).click();
    await page.locator('[data-check="A · Token pacer"]').getByText('– A · Token pacer: the page’s own example, as it opens').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get('ex')).toBe('offset');
    expect(await page.locator('[data-param="scenario"]').inputValue()).toBe('offset');
    await page.close();
  });

  it('a link to an exercise opens it ready to do, its panel pushing the page down rather than covering it', async () => {
    const page = await openAt(env.browser, `${env.relay.url}/?ex=window&trace=rate`, 1280, 720);
    await page.locator('[data-check="B · BDP estimator"]').waitFor({ timeout: 30_000 });
    expect([await page.locator('[data-param="a.scheme"]').inputValue(), await page.locator('[data-param="trace"]').inputValue()]).toEqual(['fixed', 'Verizon-LTE-short']);
    expect(await page.locator('[data-check="A · Fixed window"]').innerText()).toMatch(/^[✓✗] A · Fixed window: /);
    const panel = (await page.locator('details.exercises > div').boundingBox())!;
    for (const below of ['[data-caption="plane"]', '.column[data-side="b"]']) {
      const box = (await page.locator(below).first().boundingBox())!;
      expect(box.y, below).toBeGreaterThanOrEqual(panel.y + panel.height);
    }
    await page.close();
    const offset = await env.browser.newPage({ viewport: { width: 1280, height: 720 } });
    await offset.goto(`${env.relay.url}/?ex=offset`);
    await offset.locator('[data-check="B · Burst AIMD"]').waitFor({ timeout: 30_000 });
    expect(await offset.locator('[data-param="scenario"]').inputValue()).toBe('offset');
    await offset.close();
  });

  it('the window chart draws the pipe while the run plays back', async () => {
    const page = await openAt(env.browser, env.relay.url, 1280, 720);
    await page.waitForFunction(() => Number(document.querySelector<HTMLInputElement>('.playback input[type=range]')?.value) > 30_000);
    // The dashed pipe is the only dark mark there (an infinite queue drops nothing; the window is blue).
    const chart = page.locator('.column[data-side="a"] figure.chart').nth(1);
    // A chart off screen paints once the page is idle; on screen at once.
    await chart.scrollIntoViewIfNeeded();
    await page.waitForTimeout(100);
    const ink = await chart.locator('canvas').evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 90 && d[i + 1] < 90 && d[i + 2] < 110 && d[i + 3] > 150) n++;
      return n;
    });
    expect(ink).toBeGreaterThan(20);
    await page.close();
  });
});
