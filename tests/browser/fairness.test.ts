import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_USAGE, sim as simMain } from '../../server/cli/sim.ts';
import { GRID_LINKS } from '../../web/state/fairnessLinks.ts';
import { fixed } from '../../web/charts/format.ts';
import { runInProcess } from '../helpers/cli.ts';
import { open, playground } from '../helpers/page.ts';
import { tempDir } from '../helpers/tempDir.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/** A fixed window of 10 packets: the user's controller, loaded in the editor. */
const TEN = `export default {
  title: 'Ten in flight',
  params: [],
  create() {
    return { windowSize() { return 10; }, onAck(ack) {}, onTimeout(now) {}, timeoutMs() { return 300; } };
  },
};
`;

type Cell = { a: string; b: string; shareA: number; shareB: number };

/** The grid's link as flags of `npm run sim` (queueLimit is --queue-limit). */
const linkFlags = (id: string): string[] => Object.entries(GRID_LINKS.find((l) => l.id === id)!.values).flatMap(([k, v]) => [`--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, String(v)]);

/** The command line's grid: `npm run sim -- --scenario fairness --scheme … [link flags] --json`. */
async function cliCells(schemes: string, link: string): Promise<Cell[]> {
  const r = await runInProcess('sim', simMain, ['--scenario', 'fairness', '--scheme', schemes, ...linkFlags(link), '--json'], SIM_USAGE);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout).cells;
}

/** axe-core's findings inside the grid's section, "rule: element" per node. */
async function axeInGrid(page: import('playwright-core').Page): Promise<string[]> {
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Element): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run(document.querySelector('section.fairness')!)).violations;
  });
  return found.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/**
 * What the grid says once its run has ended: its status and its errors. A run that does not end fails
 * with what the page showed meanwhile, not with a bare timeout.
 */
async function gridOutcome(page: import('playwright-core').Page, problems: string[]): Promise<{ status: string; errors: string[] }> {
  const read = async () => ({
    status: (await page.locator('[data-testid="grid-status"]').textContent()) ?? '',
    errors: await page.locator('section.fairness [role="alert"]').allTextContents(),
  });
  try {
    await page.waitForFunction(() => / of \d+ pairs simulated/.test(document.querySelector('[data-testid="grid-status"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
  } catch (e) {
    throw new Error(`the grid's run did not end: ${JSON.stringify({ ...(await read()), problems })}`, { cause: e });
  }
  return read();
}

describe('the fairness grid in Chromium', () => {
  it('every pair on the chosen link, each square the two flows’ shares of the fair rate as the command line prints them', async () => {
    const want = await cliCells('reno,cubic', 'deep');
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=shared-lab&preset=cdn&gs=reno&gs=cubic&gl=deep`);
    expect(await page.locator('[data-param="grid-link"]').inputValue()).toBe('deep');
    await page.locator('[data-action="run-grid"]').click();
    expect(await gridOutcome(page, problems)).toEqual({ status: expect.stringMatching(/^3 of 3 pairs simulated/), errors: [] });
    for (const c of want) {
      // each pair's square, from each side: the row scheme's share first
      expect(await page.locator(`[data-cell="${c.a}:${c.b}"] text`).textContent()).toBe(`${fixed(c.shareA, 2)} / ${fixed(c.shareB, 2)}`);
      if (c.a !== c.b) expect(await page.locator(`[data-cell="${c.b}:${c.a}"] text`).textContent()).toBe(`${fixed(c.shareB, 2)} / ${fixed(c.shareA, 2)}`);
    }
    expect(await axeInGrid(page)).toEqual([]);
    // the settings are in the address
    await page.locator('[data-scheme="reno"]').uncheck();
    await page.locator('[data-param="grid-link"]').selectOption('shallow');
    await page.waitForFunction(() => !location.search.includes('gs=reno') && !location.search.includes('gl='));
    expect(new URL(page.url()).searchParams.getAll('gs')).toEqual(['cubic']);
    expect(new URL(page.url()).searchParams.get('gl')).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it("runs the user's own controller against a built-in, as the command line runs its file", async () => {
    const file = join(tempDir('pipefill-grid-'), 'ten.js');
    writeFileSync(file, TEN);
    const want = (await cliCells(`${file},reno`, 'shallow')).find((c) => c.a === 'user' && c.b === 'reno')!;
    const { page, problems } = await open(env.context, env.relay.url);
    await page.evaluate((code) => localStorage.setItem('pipefill.controller', code), TEN);
    await page.goto(`${env.relay.url}/?view=shared-lab&gs=user&gs=reno`);
    await page.locator('[data-action="run-grid"]').click();
    expect(await gridOutcome(page, problems)).toEqual({ status: expect.stringMatching(/^3 of 3 pairs simulated/), errors: [] });
    expect(await page.locator('[data-cell="user:reno"] text').textContent()).toBe(`${fixed(want.shareA, 2)} / ${fixed(want.shareB, 2)}`);
    expect(await page.locator('[data-scheme="user"]').isChecked()).toBe(true);
    // its squares run both flows beside that code, and the page says so
    expect(await page.getByTestId('grid-user-note').innerText()).toMatch(/^A square of user runs both its flows in the worker that runs that code/);
    expect(problems).toEqual([]);
    await page.close();
  }, 240_000);

  it('offers only the links whose queue discipline the model has', () => {
    expect(GRID_LINKS.map((l) => l.id).slice(0, 2)).toEqual(['shallow', 'deep']);
    expect(GRID_LINKS.map((l) => l.id)).toContain('dualpi2');
  });
});
