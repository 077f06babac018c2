import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_OPTIONS } from './helpers/browser.ts';

/** One Chromium for every browser test file: each file opens its own contexts and pages in it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer(CHROMIUM_OPTIONS);
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
