import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, LIGHT_RUN, open, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('a parameter’s exact-value box', () => {
  it('refuses a value out of range with its reason, keeps the reason beside the value in force, and drops it once that value changes', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}`);
    await card(page, 'A', 'Throughput');
    const box = page.locator('[data-number="a.a"]');
    const reason = page.getByText('a must be a number from 0.1 to 10 packets (got "99")');
    await box.fill('99');
    await box.press('Enter');
    await reason.waitFor();
    expect(await box.getAttribute('aria-invalid')).toBe('true');
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
});
