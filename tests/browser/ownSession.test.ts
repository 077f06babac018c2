import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../shared/relay/sessions.ts';
import { open, playground } from '../helpers/page.ts';
import { asOperator } from '../helpers/relay.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const resultShown = () => /true|false/.test(document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent ?? '');

/**
 * Another client of the constant-rate server: asks the size and a first chunk (again, at most 50 times,
 * while the server drops the request as it drops some), and says from which port.
 */
async function otherClient(server: string): Promise<number> {
  const [host, port] = server.split(':');
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.connect(Number(port), host, resolve));
  const answered = (message: string) =>
    new Promise<void>((resolve, reject) => {
      let tries = 0;
      const ask = () => (++tries > 50 ? reject(new Error(`no answer to ${JSON.stringify(message)}`)) : s.send(message));
      const timer = setInterval(ask, 100);
      s.once('message', () => {
        clearInterval(timer);
        resolve();
      });
      ask();
    });
  await answered('SendSize\n\n');
  await answered('Offset: 0\nNumBytes: 1448\n\n');
  const own = s.address().port;
  s.close();
  return own;
}

describe('the Sessions view and the page’s own sessions', () => {
  it('marks the session of this page’s live fetch “this page”, and neither another client’s nor another tab’s', async () => {
    // The operator's page, which the relay shows every client's records (a student's sees its own with --share-records).
    const { page, problems } = await open(env.context, `${env.relay.url}/?s=offset&live=1&a=token-pacer`);
    await page.locator('[data-action="start-live"]').click();
    await page.waitForFunction(resultShown, null, { timeout: 40_000 });
    const otherPort = await otherClient(env.relay.info.offsetConstant);
    const records = (await (await fetch(`${env.relay.url}/api/sessions`, asOperator(env.relay))).json()) as SessionSummary[];
    const other = records.find((r) => r.key === `127.0.0.1:${otherPort}`)!;
    const fetched = records.filter((r) => r !== other);
    expect(other).toBeDefined();
    expect(fetched).toHaveLength(1);
    // The fetch's records name the relay's socket; the page behind it is this browser's address.
    expect(fetched[0]).toMatchObject({ key: expect.stringMatching(/^127\.0\.0\.1:\d+$/), browser: '127.0.0.1' });
    expect(other.browser).toBeUndefined();

    // In the same tab, as a student would go there.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Sessions' }).click();
    await page.locator(`tr[data-session="${other.id}"]`).waitFor();
    const own = page.locator(`tr[data-session="${fetched[0].id}"]`);
    expect(await own.locator('td').first().innerText()).toBe('127.0.0.1 (page) this page');
    expect(await own.locator('td button').getAttribute('title')).toBe(`a page at 127.0.0.1, through the relay's socket ${fetched[0].key}`);
    expect(await page.locator('tr[data-own]').count()).toBe(1);
    expect(await page.locator(`tr[data-session="${other.id}"] td`).first().innerText()).toBe(other.key);
    for (const size of [
      { width: 1440, height: 900 },
      { width: 1280, height: 720 },
      { width: 1024, height: 768 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(tmpdir(), `pipefill-sessions-own-${size.width}.png`) });
    }

    // Another tab of the same browser has run no fetch: it marks nothing.
    const second = await page.context().newPage();
    await second.goto(`${env.relay.url}/?view=sessions`);
    await second.locator(`tr[data-session="${fetched[0].id}"]`).waitFor();
    expect(await second.locator('tr[data-own]').count()).toBe(0);
    expect(await second.getByText('this page').count()).toBe(0);
    expect(problems).toEqual([]);
    await second.close();
    await page.close();
  }, 90_000);
});
