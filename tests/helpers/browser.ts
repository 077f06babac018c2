import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium, headless, with nothing reaching beyond loopback. */
export const CHROMIUM_OPTIONS: LaunchOptions = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
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
