import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, open, paintedPixels, playground } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

describe('live mode in Chromium', () => {
  it('fetches the file from the relay’s real server through the bridge, with Result: true, and draws its dots', async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?s=offset&live=1`);
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(() => document.querySelector('section.cards[data-side^="A "] [data-card="MD5"] dd')?.textContent?.includes('match'), null, { timeout: 20_000 });
    expect(await card(page, 'A', 'MD5')).toBe('✓ match');
    expect(Number(await card(page, 'A', 'Requests'))).toBeGreaterThanOrEqual(Math.ceil(100_000 / 1448));
    await page.waitForTimeout(200);
    const [sequence] = await paintedPixels(page, 'a');
    expect(sequence).toBeGreaterThan(300);
    expect(await card(page, 'B', 'MD5')).toBe('✓ match'); // the simulated comparison alongside
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says plainly when the relay is not there, and simulated mode keeps working', async () => {
    const { page } = await open(env.browser, `${env.relay.url}/?s=offset&live=1`);
    await page.route('**/api/relay', (r) => r.abort());
    await page.reload();
    await page.getByText('Live mode needs the relay (npm start), and it cannot be reached from this page.').waitFor();
    expect(await card(page, 'B', 'MD5')).toBe('✓ match');
    await page.locator('[data-param="mode"]').selectOption('sim');
    expect(await card(page, 'A', 'MD5')).toBe('✓ match');
    await page.close();
  });
});
