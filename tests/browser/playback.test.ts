import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, LIGHT_RUN, open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('a run playing back in Chromium', () => {
  it('a run plays back with no work of the page frame by frame: a cover slides off the whole run, and stops where the playhead stops', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await card(page, 'A', 'Delay95');
    await card(page, 'B', 'Delay95');
    const chart = page.locator('.column[data-side="a"] figure.chart').first();
    const coverAt = () => chart.locator('.future > div').evaluate((d) => new DOMMatrix(getComputedStyle(d).transform).m41);
    // Played from a tenth of the run at ×1, so that a loaded machine's slow steps still pause it before the middle.
    const scrub = page.locator('.playback input[type=range]');
    const endMs = Number(await scrub.getAttribute('max'));
    await scrub.evaluate((el: HTMLInputElement, t) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, String(t));
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, endMs / 10);
    await page.getByLabel('Playback speed').selectOption('1');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    // While it plays, nothing on the page's charts changes (no component renders, no mark is painted)...
    const mutations = await page.evaluate(async () => {
      let n = 0;
      const seen = new MutationObserver((records) => {
        n += records.length;
      });
      seen.observe(document.querySelector('.columns')!, { subtree: true, attributes: true, childList: true, characterData: true });
      await new Promise((r) => setTimeout(r, 1000));
      seen.disconnect();
      return n;
    });
    expect(mutations).toBe(0);
    // ...yet the cover over what comes after the playhead moves on.
    const first = await coverAt();
    await page.waitForTimeout(1000);
    expect(await coverAt()).toBeGreaterThan(first);
    // Paused, it stands where the playhead does: x(t) on the chart's own time axis.
    await page.getByRole('button', { name: 'Pause' }).click();
    const t = Number(await scrub.inputValue());
    const innerW = await chart.locator('canvas').evaluate((c) => c.getBoundingClientRect().width);
    expect(await coverAt()).toBeCloseTo((innerW * t) / endMs, 0);
    // The canvas holds the whole run: marks on its right half, which the cover hides until the playhead comes.
    expect(t / endMs).toBeLessThan(0.5);
    const rightHalf = await chart.locator('canvas').evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(c.width / 2, 0, c.width / 2, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
      return n;
    });
    expect(rightHalf).toBeGreaterThan(200);
    // On screen, right of the playhead's line, the plot shows no mark (only the faint grid).
    const shot = (await chart.locator('.plot').screenshot()).toString('base64');
    const from = 48 + Math.ceil((innerW * t) / endMs) + 3;
    const inked = await page.evaluate(
      async ([b64, x0, w, h]) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        [c.width, c.height] = [img.naturalWidth, img.naturalHeight];
        const ctx = c.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(x0, 10, w - x0, h).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.min(d[i], d[i + 1], d[i + 2]) < 200) n++;
        return n;
      },
      [shot, from, 48 + Math.floor(innerW) - 1, 170 - 8 - 22 - 4] as const,
    );
    expect(inked).toBe(0);
    await page.getByRole('button', { name: 'Show all' }).click();
    expect(await coverAt()).toBeGreaterThan(innerW);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('for a reader whose system asks for reduced motion, a run opens whole and stands still until Play', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?${LIGHT_RUN}`, { reducedMotion: 'reduce' });
    await card(page, 'B', 'Throughput');
    const chart = page.locator('.column[data-side="a"] figure.chart').first();
    const coverAt = () => chart.locator('.future > div').evaluate((d) => new DOMMatrix(getComputedStyle(d).transform).m41);
    const innerW = await chart.locator('canvas').evaluate((c) => c.getBoundingClientRect().width);
    // the clock reads "the run's end / the run's end", and stays there
    const clock = async () => (await page.getByTestId('playhead').innerText()).split(' / ');
    const [at, end] = await clock();
    expect([at, Number.parseFloat(end) >= 60]).toEqual([end, true]);
    expect(await coverAt()).toBeGreaterThan(innerW);
    await page.waitForTimeout(300);
    expect(await clock()).toEqual([end, end]);
    // Play plays it from the start, as on any page
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    expect(await coverAt()).toBeLessThan(innerW);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('while a side waits for its new run, the covers over its charts stand still, and slide on once it comes', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await card(page, 'A', 'Delay95');
    await card(page, 'B', 'Delay95');
    // Playing at ×1, so the playback outlasts the re-run by far.
    await page.getByLabel('Playback speed').selectOption('1');
    // Frame by frame: whether A says it is updating, and how many of its covers slide.
    await page.evaluate(() => {
      const w = window as unknown as { frames: [boolean, number][] };
      w.frames = [];
      const note = () => document.querySelector('section.cards[data-side^="A "] h3 small')?.textContent ?? '';
      const sliding = () => [...document.querySelectorAll('.column[data-side="a"] .future > div')].filter((d) => d.getAnimations().some((a) => a.playState === 'running')).length;
      const sample = () => {
        w.frames.push([note().includes('updating'), sliding()]);
        if (w.frames.length < 3000) requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    const frames = () => page.evaluate(() => (window as unknown as { frames: [boolean, number][] }).frames);
    // A changed speed restarts the covers' animations: wait until they are seen sliding before the re-run.
    await expect.poll(async () => (await frames()).some(([, n]) => n > 0)).toBe(true);
    await page.locator('[data-param="trace"]').selectOption('TMobile-LTE-short');
    // Until A has been updating and is done, and a few frames more.
    await expect.poll(async () => (await frames()).slice((await frames()).findIndex(([u]) => u)).findIndex(([u]) => !u) > 5, { timeout: 20_000 }).toBe(true);
    const seen = await frames();
    const start = seen.findIndex(([u]) => u);
    const end = start + seen.slice(start).findIndex(([u]) => !u);
    expect(seen.slice(0, start).some(([, n]) => n > 0)).toBe(true);
    // The frame that shows "updating…" may still slide (the covers stop in the effects after it).
    const waiting = seen.slice(start + 1, end);
    expect(waiting.length, `${end - start} frames updating`).toBeGreaterThan(0);
    expect(waiting.every(([, n]) => n === 0)).toBe(true);
    // Once the run has come the covers slide again: on a busy machine its charts may take more than a few frames to paint first.
    await expect.poll(async () => (await frames()).slice(end + 2).some(([, n]) => n > 0), { timeout: 10_000 }).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('when both sides re-run, a side waiting for its new run is not repainted for the other side’s first', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    // Each full paint of a chart clears its canvas first: count them per canvas.
    await page.addInitScript(() => {
      const clear = CanvasRenderingContext2D.prototype.clearRect;
      CanvasRenderingContext2D.prototype.clearRect = function (...args) {
        const c = this.canvas as HTMLCanvasElement & { paints?: number };
        c.paints = (c.paints ?? 0) + 1;
        return clear.apply(this, args);
      };
    });
    await page.reload();
    await card(page, 'A', 'Delay95');
    await card(page, 'B', 'Delay95');
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.waitForTimeout(1000);
    // Each side's new run is in once its throughput is the new trace's, and it no longer says it is updating
    // (its "simulated in … ms" may read as before).
    const shown = async () => ({
      throughput: [await card(page, 'A', 'Throughput'), await card(page, 'B', 'Throughput')],
      updating: (await page.locator('section.cards h3 small').allInnerTexts()).some((n) => n.includes('updating')),
    });
    const before = (await shown()).throughput;
    await page.evaluate(() => {
      for (const c of document.querySelectorAll<HTMLCanvasElement & { paints?: number }>('.columns canvas')) c.paints = 0;
    });
    await page.locator('[data-param="trace"]').selectOption('TMobile-LTE-short');
    await expect
      .poll(
        async () => {
          const now = await shown();
          return !now.updating && now.throughput.every((t, i) => t !== before[i]);
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    // Charts off screen paint when the page is idle.
    await page.waitForTimeout(1500);
    const paints = (side: 'a' | 'b') => page.locator(`.column[data-side="${side}"] canvas`).evaluateAll((cs) => cs.map((c) => (c as HTMLCanvasElement & { paints?: number }).paints ?? 0));
    const [a, b] = [await paints('a'), await paints('b')];
    expect(a.length).toBeGreaterThanOrEqual(5);
    // Both sides' charts show their new runs; the side that finished second was painted once, for its own run.
    for (let row = 0; row < a.length; row++) {
      expect(Math.min(a[row], b[row]), `row ${row}: A ${a}, B ${b}`).toBe(1);
      expect(Math.max(a[row], b[row]), `row ${row}: A ${a}, B ${b}`).toBeLessThanOrEqual(2);
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
