import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/**
 * The browser's own pages for its address bar's popups: this Chromium (156) loads two of them, in a
 * renderer of their own, with each new window, even headless. On two cores they took about 300 ms of CPU
 * while a test's or the bench's page loaded beside them, which a user's window had done long before.
 * (A Chromium that knows no such features ignores the names.)
 */
const NO_ADDRESS_BAR_POPUPS = '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup';

/** Debian's Chromium, headless, with nothing reaching beyond loopback. */
export const CHROMIUM_OPTIONS: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    NO_ADDRESS_BAR_POPUPS,
  ],
};

/** A Chromium of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM_OPTIONS);
}

/**
 * The Chromium tests/globalSetup.ts started for all browser test files, or one of its own when none was
 * started; closing what this returns closes only what it opened.
 */
export function chromiumFor(endpoint: string | undefined): Promise<Browser> {
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}
