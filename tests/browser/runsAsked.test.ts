import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, playground, quickPlayback } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('when the playground asks for runs', () => {
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
});
