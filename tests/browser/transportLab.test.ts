import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, playground, textsDrawn, textsShown } from '../helpers/page.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const done = (passing: string) => `[data-testid="matrix-status"]:text-matches("^${passing} / 21 rows pass")`;
const caption = (row: number) => `tr[data-caption-row="${row}"]`;

describe('the reliable-transport lab explains its matrix', () => {
  it('runs on netem by default and says so; a row says why it timed out or was slow; the link is chosen in the URL', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=transport-lab`);
    await page.waitForSelector(done('20'), { timeout: 60_000 });
    expect(await page.getByTestId('link-model').innerText()).toMatch(/^The rows run on Linux netem, as the course's harness sets tc on its loopback/);
    const timedOut = await page.locator(caption(12)).innerText();
    expect(timedOut).toMatch(
      /^\d+ of 10 seeds ran past the harness's 30 s limit: RFC 6298 backoff doubled the timer after each timeout in a row, up to \d+ s: with 50% loss each way a packet and its ACK both get through 25% of the time/,
    );
    expect(await page.locator(caption(1)).count()).toBe(0);
    // the verdict's columns are over every seed, the figures beside them seed 1's, and the headings say so
    expect(await page.locator('[data-testid="matrix"] thead tr.column-groups th').allInnerTexts()).toEqual(['over its 10 seeds', 'seed 1 (the run a click opens)']);
    expect(await page.locator('[data-testid="matrix"] thead tr:not(.column-groups) th').allInnerTexts()).toEqual([
      '#',
      'group',
      'test',
      'result',
      'pass rate',
      'grade spread',
      'time s',
      'bytes on the wire',
      'retransmissions',
      'grade',
    ]);

    await page.locator('select[data-param="scheme"]').selectOption('fixed-timer');
    await page.waitForSelector(done('21'), { timeout: 60_000 });
    expect(await page.locator(caption(9)).innerText()).toMatch(
      /^\d+ spurious retransmissions \(segments the receiver already had\): the timer \(1 s\) is shorter than the RTT under queueing \(up to [\d.]+ s\), so it fires for packets still on their way; bytes on the wire: [\d.]+× the file\.$/,
    );

    // what the page shows from the link's change on: the link it names, and the status beside it
    const linkAndStatus = await textsShown(page, ['link-model', 'matrix-status']);
    await page.locator('select[data-param="link"]').selectOption('mahimahi');
    await page.waitForSelector(done('21'), { timeout: 60_000 });
    expect(await page.getByTestId('link-model').innerText()).toMatch(/^The rows run on a Mahimahi link/);
    // the netem matrix's status is never shown beside the Mahimahi link: it reads running… until the new matrix is whole
    expect((await linkAndStatus()).filter((s) => !s.includes('| running… '))).toEqual([expect.stringMatching(/^The rows run on a Mahimahi link.* \| 21 \/ 21 rows pass · 10 seeds · [\d.]+ s$/)]);
    expect(await page.locator(caption(9)).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('link')).toBe('mahimahi');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('reads running… until a matrix changed mid-run is whole, not the status of the matrix it replaced', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=transport-lab`);
    await page.waitForSelector('[data-testid="matrix-status"]:text-matches("^running… [1-9]")', { timeout: 60_000 });
    const statuses = await textsShown(page, ['matrix-status']);
    await page.locator('select[data-param="scheme"]').selectOption('fixed-timer');
    await page.waitForSelector(done('21'), { timeout: 60_000 });
    // from the new matrix's first render on (the one it replaced may have ended just before the change)
    const shown = await statuses();
    expect(shown.slice(shown.indexOf('running… 0 / 210')).filter((t) => !t.startsWith('running… '))).toEqual([expect.stringMatching(/^21 \/ 21 rows pass · 10 seeds · [\d.]+ s$/)]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('brings an opened row’s run, below the table, into view', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=transport-lab`);
    await page.setViewportSize({ width: 1500, height: 700 });
    await page.waitForSelector(done('20'), { timeout: 60_000 });
    const statuses = await textsDrawn(page, 'status');
    // a click as the user's, without the scrolling to the row that playwright's own click does first
    await page.locator('tr[data-row="19"]').dispatchEvent('click');
    const run = page.locator('section.row-run');
    await run.waitFor();
    // the run follows the table's figures: the section says so until its charts come
    await run.locator('canvas').first().waitFor();
    expect(await statuses()).toEqual(["drawing row 19's run…"]);
    expect(await page.getByTestId('lab-run-status').count()).toBe(0);
    // the run at the top of the window, or all of it in the window when the page ends before it could reach the top
    const inView = () =>
      run.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.top >= 0 && (r.top < 50 || r.bottom <= window.innerHeight);
      });
    await expect.poll(inView, { timeout: 5_000 }).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the reliable-transport lab with a controller that throws', () => {
  it('says why its rows failed, and why an opened row’s run has no charts', async () => {
    const code = `export default { title: 'Thrower', params: [], create() { return { windowSize: () => 4, onAck() { throw new Error('boom'); }, onTimeout() {} }; } };`;
    const context = await env.browser.newContext();
    await context.addInitScript((c) => localStorage.setItem('pipefill.controller', c), code);
    // every text the status shows, from the first render on
    const statusesOf = await textsShown(context, ['matrix-status']);
    const page = await context.newPage();
    await page.goto(`${env.relay.url}/?view=transport-lab&scheme=user`);
    // every run of the matrix fails alike: each row says ERROR, the status counts them, and an alert says why
    await page.waitForSelector(done('0'), { timeout: 60_000 });
    const finished = /^0 \/ 21 rows pass · 10 seeds · [\d.]+ s · 210 runs failed$/;
    expect(await page.getByTestId('matrix-status').innerText()).toMatch(finished);
    // it read "running…" until then: never a finished matrix before its runs had started
    const statuses = (await statusesOf(page)).filter(Boolean);
    expect(statuses[0]).toBe('running… 0 / 210');
    expect(statuses.filter((t) => !t.startsWith('running… '))).toEqual([expect.stringMatching(finished)]);
    expect(await page.locator('tr[data-row] td:nth-child(4)').allInnerTexts()).toEqual(Array(21).fill('ERROR'));
    expect(await page.locator('.lab > p[role="alert"]').innerText()).toMatch(/^210 of the 210 runs failed; the first: your controller in onAck at line 1, column \d+: Error: boom/);
    await page.locator('tr[data-row="1"]').click();
    const alert = page.locator('section.row-run [role="alert"]');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.innerText()).toMatch(/^The charts of row 1's run could not be drawn: your controller in onAck at line 1, column \d+: Error: boom$/);
    expect(await page.locator('section.row-run canvas').count()).toBe(0);
    await context.close();
  });
});

describe("the playground's link model", () => {
  it('a constant-rate link offers netem in the sidebar: its limit and qdiscs in place of the queue, in the URL; a trace link refuses it, saying why', async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?trace=rate`);
    const model = page.locator('select[data-param="link.linkModel"]');
    await model.waitFor();
    expect(await page.locator('[data-param="link.limit"]').count()).toBe(0);
    await model.selectOption('netem');
    await page.locator('[data-param="link.limit"]').first().waitFor();
    expect(await page.locator('select[data-param="link.netemQdisc"]').inputValue()).toBe('loopback');
    expect(await page.locator('[data-param="link.queue"]').count()).toBe(0);
    await expect.poll(() => new URL(page.url()).searchParams.get('link.linkModel')).toBe('netem');
    // a trace link is Mahimahi's: the page says so, and the model can be set back
    await page.locator('select[data-param="trace"]').selectOption('Verizon-LTE-short');
    await page.getByText("the netem link model paces by a rate: a trace link is Mahimahi's").first().waitFor();
    await model.selectOption('mahimahi');
    await expect.poll(() => page.getByText('the netem link model paces by a rate').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
