import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, open, playground, quickPlayback } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('queue disciplines in the sidebar', () => {
  it('CoDel, picked in the sidebar, shows its parameters, reaches the URL and changes the run', async () => {
    // AIMD on the contest's infinite queue builds seconds of queue: CoDel's drops keep it short
    const { page, problems } = await open(env.browser, `${env.relay.url}/?a=aimd&b=fixed&b.w=40`);
    const before = await card(page, 'A', 'Queueing p95');
    expect(await page.locator('[data-param="link.discipline"]').inputValue()).toBe('drop-tail');
    expect(await page.locator('[data-param="link.codelTarget"]').count()).toBe(0);
    await page.locator('[data-param="link.discipline"]').selectOption('codel');
    await page.waitForFunction((old) => {
      const dd = document.querySelector('section.cards[data-side^="A "] [data-card="Queueing p95"] dd');
      return dd !== null && dd.textContent?.trim() !== old && !document.querySelector('section.cards.stale');
    }, before);
    const after = await card(page, 'A', 'Queueing p95');
    expect(Number.parseFloat(after)).toBeLessThan(Number.parseFloat(before));
    expect(new URL(page.url()).searchParams.get('link.discipline')).toBe('codel');
    expect(await page.locator('[data-param="link.codelTarget"]').count()).toBe(1);
    expect(await page.locator('[data-param="link.codelInterval"]').count()).toBe(1);
    expect(await page.locator('[data-param="link.pieTarget"]').count()).toBe(0);
    expect(problems).toEqual([]);

    // The link carries the discipline and its parameters: opened again, the page runs the same.
    const again = await open(env.browser, `${page.url()}&link.codelTarget=20`);
    expect(await again.page.locator('[data-param="link.discipline"]').inputValue()).toBe('codel');
    expect(await again.page.locator('[data-number="link.codelTarget"]').inputValue()).toBe('20');
    const looser = await card(again.page, 'A', 'Queueing p95');
    expect(Number.parseFloat(looser)).toBeGreaterThan(Number.parseFloat(after));
    expect(again.problems).toEqual([]);
    await again.page.close();
    await page.close();
  });

  it('ECN, switched on in the sidebar, reaches the URL, and CoDel marks Reno’s packets CE, ticked on its charts, not AIMD’s', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?a=reno&b=aimd&link.discipline=codel`);
    await quickPlayback(page);
    await card(page, 'A', 'Queueing p95');
    const ceKey = (side: 'a' | 'b') => page.locator(`.column[data-side="${side}"] .legend .key`, { hasText: 'CE mark' });
    expect(await ceKey('a').count()).toBe(0);
    await page.locator('[data-param="link.ecn"]').selectOption('on');
    await ceKey('a').first().waitFor();
    expect(new URL(page.url()).searchParams.get('link.ecn')).toBe('on');
    await card(page, 'B', 'Queueing p95');
    // AIMD declares no ECN capability: its packets are Not-ECT, and CoDel drops them as before
    expect(await ceKey('b').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a discipline the link does not know is named and replaced by drop-tail', async () => {
    const { page } = await open(env.browser, `${env.relay.url}/?link.discipline=blue`);
    await card(page, 'A', 'Throughput');
    expect(await page.locator('[data-param="link.discipline"]').inputValue()).toBe('drop-tail');
    expect(await page.getByText(/discipline must be one of drop-tail, drop-head, codel, pie, red, fq-codel, dualpi2 \(got "blue"\)/).count()).toBeGreaterThan(0);
    await page.close();
  });
});
