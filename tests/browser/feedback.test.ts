import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, playground, quickPlayback } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('what the playground does at a setting’s change', () => {
  it('a slider’s step reaches both workers before the page renders it', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await quickPlayback(page);
    await page.waitForFunction(() => document.querySelectorAll('section.cards [data-card="Delay95"]').length === 2);
    const asked = await page.evaluate(() => {
      const slider = document.querySelector<HTMLInputElement>('[data-param="link.delay"]')!;
      const shown = () => slider.closest('.param')!.querySelector('output')!.textContent;
      // Each run asked of a worker, with the delay its spec runs and the delay the page shows as it is asked.
      const runs: { delayMs: number; shown: string | null }[] = [];
      const post = MessagePort.prototype.postMessage;
      MessagePort.prototype.postMessage = function (this: MessagePort, m: unknown, transfer?: Transferable[] | StructuredSerializeOptions) {
        const req = m as { kind?: string; spec?: { link: { delayMs: number } } };
        if (req?.kind === 'run') runs.push({ delayMs: req.spec!.link.delayMs, shown: shown() });
        return post.call(this, m, transfer as StructuredSerializeOptions);
      };
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(slider, String(Number(slider.value) + 0.25));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      return new Promise<typeof runs>((resolve) => requestAnimationFrame(() => resolve(runs)));
    });
    const output = page.locator('[data-param="link.delay"]').locator('xpath=ancestor::div[contains(@class,"param")]//output');
    await expect.poll(() => output.textContent()).not.toBe('20');
    const delay = Number(await output.textContent());
    expect(asked).toEqual([
      { delayMs: delay, shown: '20' },
      { delayMs: delay, shown: '20' },
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a new run’s chart is drawn as its figures are shown, not a frame after them', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await page.waitForFunction(() => document.querySelectorAll('section.cards [data-card="Delay95"]').length === 2);
    await page.getByRole('button', { name: 'Show all' }).click();
    const drawn = await page.evaluate(() => {
      const canvas = document.querySelector<HTMLCanvasElement>('.columns .column[data-side="a"] canvas')!;
      const pixels = () =>
        Array.from(
          canvas
            .getContext('2d')!
            .getImageData(0, 0, canvas.width, canvas.height)
            .data.filter((_, i) => i % 4 === 3),
        ).join();
      const card = document.querySelector('section.cards[data-side^="A "] [data-card="Delay95"] dd')!;
      const before = { card: card.textContent, canvas: pixels() };
      const slider = document.querySelector<HTMLInputElement>('[data-param="link.delay"]')!;
      return new Promise<{ cardChanged: boolean; canvasChanged: boolean }>((resolve) => {
        // Called once the task that changed the card is done, before the browser draws a frame.
        const seen = new MutationObserver(() => {
          if (card.textContent === before.card) return;
          seen.disconnect();
          resolve({ cardChanged: true, canvasChanged: pixels() !== before.canvas });
        });
        seen.observe(card, { subtree: true, childList: true, characterData: true });
        const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        set.call(slider, String(Number(slider.value) + 60));
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      });
    });
    expect(drawn).toEqual({ cardChanged: true, canvasChanged: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a slider’s drag writes its first step at once and its last a spell after it is let go, not as it settles nor at its click', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await page.waitForFunction(() => document.querySelectorAll('section.cards [data-card="Delay95"]').length === 2);
    await page.evaluate(() => {
      const w = window as unknown as { writes: number; inSettle: number[]; beforeSettle: number[] };
      w.writes = 0;
      w.inSettle = [];
      w.beforeSettle = [];
      for (const name of ['pushState', 'replaceState'] as const) {
        const write = history[name].bind(history);
        history[name] = (...args: Parameters<History['pushState']>) => {
          w.writes++;
          write(...args);
        };
      }
      // the writes made while the drag goes on (from its press), and while its change event is dispatched
      let before = 0;
      window.addEventListener('pointerdown', () => (before = w.writes), true);
      window.addEventListener('change', () => w.beforeSettle.push(w.writes - before), true);
      window.addEventListener('change', () => (before = w.writes), true);
      window.addEventListener('change', () => w.inSettle.push(w.writes - before));
      // and while the click that ends it is
      window.addEventListener('click', () => w.inSettle.push(w.writes - before));
    });
    const slider = page.locator('[data-param="link.delay"]');
    await slider.scrollIntoViewIfNeeded();
    const box = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 4, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, y, { steps: 4 });
    await page.mouse.up();
    const value = await page.locator('[data-number="link.delay"]').inputValue();
    await expect.poll(() => new URL(page.url()).searchParams.get('link.delay')).toBe(value);
    // the first step starts the drag's entry, so Back undoes the drag even before its last step is written
    const [beforeSettle] = await page.evaluate(() => (window as unknown as { beforeSettle: number[] }).beforeSettle);
    expect(beforeSettle).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate(() => (window as unknown as { inSettle: number[] }).inSettle)).toEqual([0, 0]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('writing the address decodes no image: the page’s icon is not an SVG, which the browser parses anew at each write', async () => {
    const { page, problems } = await open(env.context, env.relay.url);
    await page.waitForFunction(() => document.querySelectorAll('section.cards [data-card="Delay95"]').length === 2);
    const browser = env.context.browser()!;
    await browser.startTracing(page, { categories: ['blink'] });
    const written = await page.evaluate(async () => {
      for (let i = 0; i < 3; i++) {
        history.replaceState(null, '', `${location.pathname}?seed=${i + 2}`);
        await new Promise((r) => requestAnimationFrame(r));
      }
      return location.search;
    });
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: { name: string }[] };
    expect(written).toBe('?seed=4');
    expect(trace.traceEvents.filter((e) => e.name.startsWith('SVGImage')).map((e) => e.name)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('what the playground hands its workers as it opens', () => {
  it('each worker gets the bundled traces of the first runs as bytes of its own, handed over rather than copied by the page', async () => {
    const page = await env.context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { traces: { name: string; bytes: number; handedOver: boolean }[] };
      w.traces = [];
      const post = MessagePort.prototype.postMessage;
      MessagePort.prototype.postMessage = function (this: MessagePort, m: unknown, transfer?: Transferable[] | StructuredSerializeOptions) {
        const a = m as { kind?: string; name?: string; bytes?: ArrayBuffer };
        if (a?.kind === 'trace') w.traces.push({ name: a.name!, bytes: a.bytes?.byteLength ?? -1, handedOver: Array.isArray(transfer) && transfer.includes(a.bytes!) });
        return post.call(this, m, transfer as StructuredSerializeOptions);
      };
    });
    await page.goto(env.relay.url);
    await page.waitForFunction(() => document.querySelectorAll('section.cards [data-card="Delay95"]').length === 2);
    const sent = await page.evaluate(() => (window as unknown as { traces: { name: string; bytes: number; handedOver: boolean }[] }).traces);
    const sizes = Object.fromEntries(
      await Promise.all(['Verizon-LTE-short.down', 'Verizon-LTE-short.up'].map(async (n) => [n, (await (await fetch(`${env.relay.url}/traces/${n}`)).arrayBuffer()).byteLength])),
    );
    // Both sides' workers, both directions of the contest's trace; a run that asked before they came gets them again.
    for (const name of Object.keys(sizes)) expect(sent.filter((t) => t.name === name).length, name).toBeGreaterThanOrEqual(2);
    for (const t of sent) expect(t).toEqual({ name: t.name, bytes: sizes[t.name], handedOver: true });
    await page.close();
  });

  it('the page’s scripts come in one round: a few files, fewer than the browser’s six connections to its server', async () => {
    const page = await env.context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      // the page's server's files (the workers' scripts come to the sandbox frame as blob: URLs)
      if (r.resourceType() === 'script' && r.url().startsWith(env.relay.url)) scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(env.relay.url);
    await page.waitForFunction(() => document.querySelectorAll('section.cards [data-card="Delay95"]').length === 2);
    expect(scripts.length, scripts.join(' ')).toBeGreaterThan(0);
    expect(scripts.length, scripts.join(' ')).toBeLessThanOrEqual(4);
    await page.close();
  });
});
