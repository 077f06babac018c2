import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { chromiumFor } from './browser.ts';
import { TEST_BUNDLE } from './bundle.ts';
import { testRelay } from './relay.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where tests/globalSetup.ts's Chromium listens. */
    chromiumEndpoint: string;
  }
}

/**
 * URL state for a light run: both sides on a constant 1 Mbit/s link for a minute (a few thousand packets
 * instead of the contest trace's 56,000), for tests whose point is not the trace's figures.
 */
export const LIGHT_RUN = 'trace=rate&link.bandwidth=1';

export const PAGE_OPTIONS: BrowserContextOptions = { viewport: { width: 1500, height: 1100 }, acceptDownloads: true };

/**
 * A relay serving the production bundle tests/globalSetup.ts built, on free ports, and the shared Chromium
 * to look at it. `context` is one browser context for a file's pages that need nothing of their own (no
 * storage another test wrote): its pages open faster than fresh contexts, and reuse the bundle's cache.
 * It holds the operator's cookie, so its pages see every record.
 */
export async function playground(): Promise<{ relay: Relay; browser: Browser; context: BrowserContext; close(): Promise<void> }> {
  const relay = await testRelay({ fileSize: 100_000, distDir: TEST_BUNDLE });
  const browser = await chromiumFor(inject('chromiumEndpoint'));
  const context = await browser.newContext(PAGE_OPTIONS);
  // The shared context is the operator's, signed in as the relay's printed URL signs one in.
  await context.request.get(relay.operator.url(relay.url));
  return {
    relay,
    browser,
    context,
    async close() {
      await context.close();
      await browser.close();
      await relay.close();
    },
  };
}

/**
 * Opens the page, in a context of its own (given the browser, with `options` over the usual ones) or in a
 * shared one, and collects console errors and uncaught exceptions.
 */
export async function open(where: Browser | BrowserContext, url: string, options: BrowserContextOptions = {}): Promise<{ page: Page; problems: string[] }> {
  if (!('newContext' in where) && Object.keys(options).length) throw new Error('a shared context has its options already: open the page in a context of its own');
  const page = 'newContext' in where ? await where.newPage({ ...PAGE_OPTIONS, ...options }) : await where.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  return { page, problems };
}

/**
 * Plays the runs back at ×100 (the playground's top speed) instead of ×10, so a test that is not about
 * playback sees each run's whole picture at once instead of waiting out its play (a contest run plays 14 s
 * at ×10). The playhead ends where it would have.
 */
export async function quickPlayback(page: Page): Promise<void> {
  await page.getByLabel('Playback speed').selectOption('100');
}

/** The text of a summary card of side "A" or "B" once it holds a number. */
export async function card(page: Page, side: 'A' | 'B', label: string): Promise<string> {
  const loc = page.locator(`section.cards[data-side^="${side} "] [data-card="${label}"] dd`);
  await orSideShown(page, side, loc.waitFor());
  return (await loc.innerText()).trim();
}

/** Waits for `wait`; if it fails, fails with its first line and what the page shows of `side` instead. */
export async function orSideShown<T>(page: Page, side: 'A' | 'B', wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (e) {
    throw new Error(`${(e as Error).message.split('\n')[0]}\n${await sideShown(page, side)}`, { cause: e });
  }
}

/**
 * What the page shows of a side whose card never came, for the failure's message: its cards, its column,
 * what the page said, its sandbox frame, and what it fetched with when each was done (ms from navigation).
 */
async function sideShown(page: Page, side: 'A' | 'B'): Promise<string> {
  const shown = await page
    .evaluate((s) => {
      const text = (selector: string) =>
        document
          .querySelector<HTMLElement>(selector)
          ?.innerText.replace(/\s*\n\s*/g, ' · ')
          .slice(0, 400) ?? '(none)';
      const fetched = performance.getEntriesByType('resource').map((r) => `${r.name.replace(location.origin, '')} ${Math.round((r as PerformanceResourceTiming).responseEnd)}`);
      return [
        `the page at ${location.pathname}${location.search} (${document.readyState}, ${Math.round(performance.now())} ms after navigation)`,
        `its ${s} cards: ${text(`section.cards[aria-label^="Summary of run ${s}"]`)}`,
        `its ${s} column: ${text(`.column[data-side="${s.toLowerCase()}"]`)}`,
        `its notices: ${
          [...document.querySelectorAll('[role="alert"], [role="status"]')]
            .map((e) => e.textContent?.trim())
            .filter(Boolean)
            .join(' | ') || '(none)'
        }`,
        `fetched: ${fetched.join(', ')}`,
      ].join('\n');
    }, side)
    .catch((e: Error) => `(the page could not be read: ${e.message})`);
  const frame = page.frames().find((f) => f.url().endsWith('/sandbox.html'));
  const frameState = frame ? await Promise.race([frame.evaluate(() => document.readyState).catch((e: Error) => e.message), new Promise((r) => setTimeout(() => r('no answer in 2 s'), 2000))]) : null;
  return `${shown}\nits sandbox frame: ${
    frame
      ? `loaded (${frameState})`
      : `not loaded (frames: ${page
          .frames()
          .map((f) => f.url() || '(blank)')
          .join(', ')})`
  }`;
}

/** How many pixels of each chart canvas of a side are painted. */
export function paintedPixels(page: Page, side: 'a' | 'b'): Promise<number[]> {
  return page.evaluate((s) => {
    return [...document.querySelectorAll<HTMLCanvasElement>(`.column[data-side="${s}"] canvas`)].map((c) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
      return n;
    });
  }, side);
}

/** What a screen reader reads with a control as its description: the text of the elements its aria-describedby names. */
export const description = (control: Locator): Promise<string> =>
  control.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );

/**
 * Records the text of every element of `role` drawn from now on (a run that fails again with the same
 * words draws its alert anew); the function returned reads them, sorted.
 */
export async function textsDrawn(page: Page, role: 'alert' | 'status'): Promise<() => Promise<string[]>> {
  await page.evaluate((role) => {
    const w = window as unknown as { drawn: string[]; drawnWatch?: MutationObserver };
    // one record at a time: a second call starts afresh instead of counting each text twice
    w.drawnWatch?.disconnect();
    w.drawn = [];
    w.drawnWatch = new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n instanceof HTMLElement && n.getAttribute('role') === role) w.drawn.push(n.innerText);
    });
    w.drawnWatch.observe(document.body, { childList: true, subtree: true });
  }, role);
  return () => page.evaluate(() => (window as unknown as { drawn: string[] }).drawn.sort());
}

/**
 * Records every change of what the elements of `testids` show together (their texts joined by " | "): in a
 * page from now on, or in a context's pages from their first render. The function returned reads them, in
 * order, from `page` (the page given, when it was one).
 */
export async function textsShown(where: Page | BrowserContext, testids: string[]): Promise<(page?: Page) => Promise<string[]>> {
  const watch = (ids: string[]) => {
    const seen: string[] = [];
    (window as unknown as { textsShown: string[] }).textsShown = seen;
    new MutationObserver(() => {
      const now = ids.map((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '').join(' | ');
      if (now !== seen.at(-1)) seen.push(now);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  };
  if ('addInitScript' in where && !('goto' in where)) await where.addInitScript(watch, testids);
  else await (where as Page).evaluate(watch, testids);
  return (page = where as Page) => page.evaluate(() => (window as unknown as { textsShown: string[] }).textsShown);
}
