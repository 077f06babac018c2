import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeToQuery } from '../../web/state/view.ts';
import { card, open } from '../helpers/page.ts';
import { escapingController, playgroundAndSpy, storageOf } from '../helpers/escapes.ts';

const t = playgroundAndSpy();

/** A link that opens the offset scenario in live mode with the user's controller `code` as side A. */
const liveLinkWith = (code: string) => `${t.env.relay.url}/?${codeToQuery(code, new URLSearchParams({ s: 'offset', live: '1', a: 'user' }))}`;

/**
 * Presses Start live fetch with the link's controller on side A; once the server's verdict is on the Result
 * card, or the page says the run failed, resolves with what the page says and the card.
 */
async function fetchLive(page: Page): Promise<{ alerts: string[]; result: string }> {
  await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('select[data-param="a.scheme"]')?.value === 'user', null, { timeout: 30_000 });
  await page.locator('[data-action="start-live"]').click();
  await page.waitForFunction(
    () => /true|false/.test(document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent ?? '') || document.querySelector('[role="alert"]') !== null,
    null,
    { timeout: 60_000 },
  );
  const result = await page.evaluate(() => document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent?.trim() ?? '');
  return { alerts: await page.getByRole('alert').allInnerTexts(), result };
}

/**
 * A controller (a fixed window of 8) that forges messages on every port it finds: on each as the worker
 * first posts on it (the one to the worker that draws), and on each the worker starts listening on after
 * the module loads (the socket's). It asks the socket's side to connect to the spy, to open, to send what
 * is no frame; it hands the drawing side rows, ends and checks of shapes it does not take.
 */
const forgingController = (target: string) => `const W = ${JSON.stringify(target.replace('http', 'ws'))} + '/bridge';
const forged = [
  { kind: 'connect', url: W }, { kind: 'open', url: W }, { kind: 'start', url: W, socket: null }, { url: W },
  { kind: 'send', data: 7 }, { kind: 'send', data: { byteLength: 4 } }, { kind: 'send' }, 'send', null,
  { kind: 'rows', columns: 'all of them', now: 1 }, { kind: 'rows', columns: { t: [1] }, now: 1 }, { kind: 'end', end: null, columns: {}, now: 0 },
  { kind: 'checked', params: { w: { n: 1 } } }, { kind: 'failed', message: 42 }, { id: 0, kind: 'need-trace', name: '../index.html' },
];
const forge = (port) => { for (const m of forged) send.call(port, m); };
const send = MessagePort.prototype.postMessage;
const forgedOn = new Set();
// each a way to catch the ports as they are used; one that is not refused fails the fetch
const ways = [
  () => {
    MessagePort.prototype.postMessage = function (m, transfer) {
      if (!forgedOn.has(this)) forgedOn.add(this), forge(this);
      return send.call(this, m, transfer);
    };
  },
  () => {
    const listen = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
    Object.defineProperty(MessagePort.prototype, 'onmessage', {
      configurable: true,
      get() { return listen.get.call(this); },
      set(f) { listen.set.call(this, f); if (!forgedOn.has(this)) forgedOn.add(this), forge(this); },
    });
  },
];
const caught = ways.filter((way) => { try { way(); return true; } catch { return false; } }).length;
export default {
  title: 'Forges port messages',
  params: [{ name: 'w', unit: 'packets', min: 1, max: 50, step: 1, default: 8, doc: 'Packets in flight' }],
  create(p) {
    return { windowSize() { return p.w; }, onAck(ack) { if (caught > 0) throw new Error('caught a port ' + caught + ' ways'); }, onTimeout(now) {} };
  },
};
`;

describe('a live fetch of a link’s controller reaches nothing but its own socket', () => {
  it('its controller tries every escape as the fetch starts and on its first reply; nothing gets out, and the server’s Result is shown', async () => {
    const context = await t.env.browser.newContext();
    const code = escapingController(t.spy.url, 8).replace('onAck(ack) {}', 'onAck(ack) { if (!late) late = outcomes(attempts()); }').replace('export default', 'let late = null;\nexport default');
    const { page, problems } = await open(context, liveLinkWith(code));
    // the module body runs every attempt again in the live controller's worker and throws if one got anything back
    expect(await fetchLive(page)).toEqual({ alerts: [], result: 'true' });
    expect(await page.locator('section.cards[data-side^="A "] h3').innerText()).toContain('live, done');
    expect(t.spy.connections).toBe(0);
    expect(await storageOf(page)).toEqual({ databases: [], caches: [], local: ['pipefill.controller'] });
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('it catches none of its worker’s ports to forge messages on: the socket’s side connects nowhere else, and the fetch completes', async () => {
    const context = await t.env.browser.newContext();
    const { page, problems } = await open(context, liveLinkWith(forgingController(t.spy.url)));
    expect(await fetchLive(page)).toEqual({ alerts: [], result: 'true' });
    expect(await page.locator('section.cards[data-side^="A "] h3').innerText()).toContain('live, done');
    expect(Number((await card(page, 'A', 'Time')).replace(/\D/g, ''))).toBeGreaterThan(0);
    expect(t.spy.connections).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('a controller that throws as a reply arrives ends the fetch, and the page says so', async () => {
    const context = await t.env.browser.newContext();
    const code = `export default {
  title: 'Throws live',
  params: [],
  create() {
    let acks = 0;
    return { windowSize() { return 8; }, onAck() { if (self.name.startsWith('live') && ++acks > 20) throw new Error('no more'); }, onTimeout() {} };
  },
};
`;
    const { page } = await open(context, liveLinkWith(code));
    // the simulated run beside it never throws: only the live controller's worker is named so
    expect((await fetchLive(page)).alerts).toEqual(['A · Throws live: Uncaught Error: your controller in onAck at line 6, column 107: Error: no more']);
    await page.locator('[data-action="start-live"]').waitFor(); // Stop gave way to Start again
    await context.close();
  }, 90_000);
});
