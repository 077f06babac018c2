import type { Browser, Page } from 'playwright-core';
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

/** A relay serving the production bundle tests/globalSetup.ts built, on free ports, and the shared Chromium to look at it. */
export async function playground(): Promise<{ relay: Relay; browser: Browser; close(): Promise<void> }> {
  const relay = await testRelay({ fileSize: 100_000, distDir: TEST_BUNDLE });
  const browser = await chromiumFor(inject('chromiumEndpoint'));
  return {
    relay,
    browser,
    async close() {
      await browser.close();
      await relay.close();
    },
  };
}

/** Opens the page and collects console errors and uncaught exceptions. */
export async function open(browser: Browser, url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1100 }, acceptDownloads: true });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  return { page, problems };
}

/** The text of a summary card of side "A" or "B" once it holds a number. */
export async function card(page: Page, side: 'A' | 'B', label: string): Promise<string> {
  const loc = page.locator(`section.cards[data-side^="${side} "] [data-card="${label}"] dd`);
  await loc.waitFor();
  return (await loc.innerText()).trim();
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
