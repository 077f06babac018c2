import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { LIGHT_RUN, open, playground } from '../helpers/page.ts';
import { VIEW_IDS } from '../../web/state/view.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const BAD_VALUE = 'The link asked for something this page cannot do, so it uses the default instead: ';
const UNKNOWN_KEY = 'The link asked for something this page does not know: ';

/** The notices a view shows once it shows one, each without its dismiss button. */
async function notices(page: Page): Promise<string[]> {
  await page.locator('.notices p').first().waitFor();
  return page.locator('.notices p').evaluateAll((ps) => ps.map((p) => p.firstChild?.textContent ?? ''));
}

/** Waits for the view to write its state back into the URL as `expected`, or to leave `key` out of it. */
async function writtenBack(page: Page, expected: string | { without: string }): Promise<URLSearchParams> {
  const query = () => new URL(page.url()).searchParams;
  if (typeof expected === 'string') await expect.poll(() => query().toString()).toBe(expected);
  else await expect.poll(() => query().has(expected.without)).toBe(false);
  return query();
}

describe('what a link carries that a view cannot use, in Chromium', () => {
  it('the playground names an unknown key once, among bad values, and leaves it out of the URL it writes', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?sed=5&${LIGHT_RUN}&a.w=abc&sed=6`);
    expect(await notices(page)).toEqual([
      `${BAD_VALUE}controller A: aimd has no parameter "w" (its parameters: a, increase, decrease, b, timeout, loss)`,
      `${UNKNOWN_KEY}unknown setting "sed" ignored`,
    ]);
    await writtenBack(page, 'trace=rate&a=aimd&b=bdp&link.bandwidth=1');
    expect(problems).toEqual([]);
    await page.close();
  });

  it.each(['contest-lab', 'transport-lab', 'shared-lab', 'measurement', 'leaderboard', 'sessions'])(
    'the %s view names an unknown key the same way, and leaves it out of the URL it writes',
    async (view) => {
      const { page, problems } = await open(env.context, `${env.relay.url}/?view=${view}&sed=5`);
      expect(await notices(page)).toEqual([`${UNKNOWN_KEY}unknown setting "sed" ignored`]);
      expect([...(await writtenBack(page, { without: 'sed' })).keys()][0]).toBe('view');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it('a discipline’s setting without that discipline is named as the command line names it, and leaves the URL', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?a=aimd&b=bdp&link.codelTarget=20&${LIGHT_RUN}`);
    expect(await notices(page)).toEqual([`${BAD_VALUE}the link's codelTarget would change nothing: it is a setting of codel, and the queue's discipline is drop-tail`]);
    await writtenBack(page, 'trace=rate&a=aimd&b=bdp&link.bandwidth=1');
    await page.screenshot({ path: join(ROOT, 'build/url-notice-idle-discipline.png') });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a bad scenario is one notice', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?s=bogus&${LIGHT_RUN}`);
    expect(await notices(page)).toEqual([`${BAD_VALUE}s must be one of contest, offset (got "bogus")`]);
    // no second notice on its way
    await page.locator('section.cards[data-side^="A "]').waitFor();
    expect(await notices(page)).toHaveLength(1);
    await page.close();
  });

  it('a 20 KB value is quoted by its first 40 characters and its length, and the notice fits the page', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?${LIGHT_RUN}&seed=${'7x'.repeat(10_000)}`);
    expect(await notices(page)).toEqual([`${BAD_VALUE}seed must be a whole number from 0 to 2147483647 (got "${'7x'.repeat(20)}…" (20000 characters))`]);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    await writtenBack(page, 'trace=rate&a=aimd&b=bdp&link.bandwidth=1');
    await page.close();
  });

  it('a view the page does not have opens the playground, which says so', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?view=nowhere&${LIGHT_RUN}`);
    expect(await notices(page)).toEqual([`${BAD_VALUE}view must be one of (none), ${VIEW_IDS.filter(Boolean).join(', ')} (got "nowhere")`]);
    expect(await page.locator('nav.views a[aria-current="page"]').innerText()).toBe('Playground');
    await page.close();
  });
});

describe('the sessions view’s link, in Chromium', () => {
  it('a session that is no session’s id, and a watch address on another machine, are named and not asked for', async () => {
    // 20 KB that would have the page ask the relay for another path than a session's trace
    const badSession = `../../api/info${'/..'.repeat(6662)}`;
    const query = new URLSearchParams({ view: 'sessions', session: badSession, watch: 'http://10.0.0.1:9000' });
    const { page, problems } = await open(env.context, `${env.relay.url}/?${query}`);
    expect(await notices(page)).toEqual([
      `${BAD_VALUE}session "${badSession.slice(0, 40)}…" (20000 characters) is not a session's id, which looks like CLIENT@START_MS`,
      `${BAD_VALUE}watch "http://10.0.0.1:9000" is not an emulated link's watch address on this machine: start one with \`npm run link -- … --watch 127.0.0.1:PORT\` and give http://127.0.0.1:PORT`,
    ]);
    await page.getByText('Live: every session').waitFor();
    expect(await page.locator('figure.chart').count()).toBe(0);
    expect(await page.getByText(/^Loading |^Asking the link/).count()).toBe(0);
    await writtenBack(page, 'view=sessions');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a session’s id the relay no longer records stays in the link, with no notice', async () => {
    const { page } = await open(env.context, `${env.relay.url}/?view=sessions&session=127.0.0.1%3A40000%401700000000000`);
    await page.getByText('Live: every session').waitFor();
    await page.locator('.lab-body p.error', { hasText: '127.0.0.1:40000@1700000000000' }).waitFor();
    expect(await page.locator('.notices').count()).toBe(0);
    await writtenBack(page, 'view=sessions&session=127.0.0.1%3A40000%401700000000000');
    await page.close();
  });
});
