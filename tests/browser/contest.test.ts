import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { chromiumFor } from '../helpers/browser.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { pageContest } from '../helpers/contest.ts';
import { ROOT } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { card, open } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';
import { tempDir } from '../helpers/tempDir.ts';

/** Two students submit controllers from the page's editor; the class contest view shows both. */

const CODE = readFileSync(join(ROOT, 'tests/fixtures/contestAimd.mjs'), 'utf8');

let relay: Relay;
let browser: Browser;
beforeAll(async () => {
  relay = await testRelay({
    distDir: TEST_BUNDLE,
    contest: pageContest('ATT-LTE-driving-2016'),
  });
  browser = await chromiumFor(inject('chromiumEndpoint'));
});
afterAll(async () => {
  await browser?.close();
  await relay?.close();
});

/** A student's page in a browser context of its own: gives its id, writes a controller and submits it. */
async function submitAs(id: string, cut: number): Promise<Page> {
  const { page, problems } = await open(browser, `${relay.url}/`);
  await page.getByRole('button', { name: 'Write your own controller…' }).click();
  const content = page.locator('.user-editor .cm-content');
  await content.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(CODE.replace('default: 150', `default: ${cut}`));
  const submit = page.getByRole('button', { name: 'Submit to the class contest' });
  // no id yet: the contest ranks by id, so the button waits for one
  await page.getByText('needs your id first: the contest ranks you by it.').waitFor();
  expect(await submit.isDisabled()).toBe(true);
  await page.locator('.contest-submit [data-param="student-id"]').fill(id);
  await page.locator('.contest-submit').getByRole('button', { name: 'Use this id' }).click();
  await page.locator(`.contest-submit [data-student-id="${id}"]`).waitFor();
  await submit.click();
  await page.locator('.contest-submit [data-status="scored"]').waitFor({ timeout: 120_000 });
  expect(await page.locator('.contest-submit [data-status="scored"]').innerText()).toMatch(/^Scored: Verizon-LTE-short \d+\.\d\d Mbit\/s, \d+ ms, score -?\d+\.\d{3}/);
  await page.locator('.user-editor').screenshot({ path: join(ROOT, `build/contest-editor-${id}.png`) });
  const scored = await page.locator('.contest-submit [data-status]').innerText();
  // after a reload the editor shows the id's latest submission again
  await page.reload();
  await page.getByRole('button', { name: 'Write your own controller…' }).click();
  expect(await page.locator('.contest-submit [data-status="scored"]').innerText()).toBe(scored);
  expect(problems).toEqual([]);
  return page;
}

describe('the class contest in Chromium', () => {
  it('two students submit from the editor under their own ids, and ?view=contest shows both on the plane and in the table', async () => {
    const [ann, bob] = await Promise.all([submitAs('ann@red', 100), submitAs('bob@blue', 300)]);
    const { page, problems } = await open(browser, `${relay.url}/?view=contest`, { viewport: { width: 1280, height: 720 } });
    await page.locator('.contest-table tbody tr').nth(1).waitFor();
    const ids = await page.locator('.contest-table tbody th').allInnerTexts();
    expect(ids.sort()).toEqual(['ann@red', 'bob@blue']);
    // the plane names each student's best, beside the omniscient point once the reference runs are in
    const plane = page.locator('[data-trace="Verizon-LTE-short"] svg > title');
    await page.waitForFunction(() => /omniscient/.test(document.querySelector('[data-trace="Verizon-LTE-short"] svg > title')?.textContent ?? ''), null, { timeout: 120_000 });
    const title = await plane.textContent();
    expect(title).toContain('ann@red');
    expect(title).toContain('bob@blue');
    // held out: scored, not shown
    expect(await page.locator('[data-trace="ATT-LTE-driving-2016"]').count()).toBe(0);
    expect(await page.locator('.contest-table thead').innerText()).not.toContain('ATT-LTE-driving-2016');
    // fits the projector: nothing wider than 1280
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: join(ROOT, 'build/contest-view.png') });
    expect(problems).toEqual([]);
    await Promise.all([ann.close(), bob.close(), page.close()]);
  }, 300_000);
});

// Loads, and fails at its first ACK: the tests here are about who may submit, not about scores.
const FAILING = 'export default { title: "x", params: [], create() { return { windowSize() { return 4; }, onAck() { throw new Error("not yet"); }, onTimeout() {} }; } };';

const kept = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('pipefill.contestToken.')));

async function editor(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Write your own controller…' }).click();
  await page.locator('.user-editor .cm-content').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(FAILING);
}

async function useId(page: Page, id: string): Promise<void> {
  const change = page.locator('.contest-submit').getByRole('button', { name: 'change' });
  if (await change.count()) await change.click();
  await page.locator('.contest-submit [data-param="student-id"]').fill(id);
  await page.locator('.contest-submit').getByRole('button', { name: 'Use this id' }).click();
  await page.locator(`.contest-submit [data-student-id="${id}"]`).waitFor();
}

/** Submits and waits for the relay's answer: the token it shows, or the refusal. */
async function submit(page: Page): Promise<{ token: string } | { refused: string }> {
  const answer = page.locator('.contest-submit [data-testid="contest-token"] input, .contest-submit [role="alert"]');
  // the last answer's element goes as the submission is sent: the one waited for is this submission's
  const last = (await answer.count()) > 0 ? await answer.first().elementHandle() : null;
  await page.getByRole('button', { name: 'Submit to the class contest' }).click();
  await last?.waitForElementState('hidden');
  await answer.first().waitFor();
  if ((await answer.first().evaluate((e) => e.tagName)) === 'INPUT') {
    // one submission waits per id: the next one of the test comes once this one has failed
    await page.locator('.contest-submit [data-status="failed"]').waitFor({ timeout: 120_000 });
    return { token: await answer.first().inputValue() };
  }
  return { refused: await answer.first().innerText() };
}

/**
 * The contest's tokens on the page: a shared lab PC keeps only the token of the id in use and can forget
 * it; the page shows each token it gets and takes one given elsewhere (the command line's); and a link
 * naming a held-out trace says why the page runs another.
 */
describe('contest tokens in Chromium', () => {
  it('on a shared PC, a new id forgets the previous id’s token, and "Forget this id" forgets the id in use', async () => {
    const { page, problems } = await open(browser, `${relay.url}/`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: relay.url });
    // a browser that kept every id's token before: the page keeps only the id in use's as it opens
    await page.evaluate(() => {
      localStorage.setItem('pipefill.studentId', 'old@red');
      for (const id of ['old@red', 'gone@red']) localStorage.setItem(`pipefill.contestToken.${id}`, 'a-token');
    });
    await page.reload();
    await page.getByRole('button', { name: 'Write your own controller…' }).waitFor();
    expect(await kept(page)).toEqual(['pipefill.contestToken.old@red']);
    await editor(page);
    await useId(page, 'sam@red');
    const sam = await submit(page);
    if (!('token' in sam)) throw new Error(`refused: ${sam.refused}`);
    const shown = page.locator('.contest-submit [data-testid="contest-token"]');
    expect(await shown.innerText()).toBe('sam@red’s token:  Copy Keep it to submit as sam@red from another browser or the command line.');
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sam.token);
    await page.locator('.contest-submit').screenshot({ path: join(ROOT, 'build/contest-token-shown.png') });
    expect(await kept(page)).toEqual(['pipefill.contestToken.sam@red']);

    // the next student: sam's token goes as tim's id comes
    await useId(page, 'tim@red');
    expect(await kept(page)).toEqual([]);
    expect('token' in (await submit(page))).toBe(true);
    // and back to sam: refused, pointing at the token field, which has the focus
    await useId(page, 'sam@red');
    expect(await kept(page)).toEqual([]);
    const refused = await submit(page);
    expect(refused).toEqual({
      refused: 'sam@red has submitted before: send the token its first submission was given. Enter sam@red’s token in the field above (the command line keeps it in ~/.pipefill/contest-tokens.json).',
    });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-param'))).toBe('contest-token');
    await page.locator('.contest-submit').screenshot({ path: join(ROOT, 'build/contest-token-asked.png') });

    // sam, who kept the token, signs in with it and then out
    await page.locator('.contest-submit [data-param="contest-token"]').fill(sam.token);
    expect(await submit(page)).toEqual({ token: sam.token });
    expect(await kept(page)).toEqual(['pipefill.contestToken.sam@red']);
    await page.locator('.contest-submit').getByRole('button', { name: 'Forget this id on this browser' }).click();
    await page.getByText('needs your id first: the contest ranks you by it.').waitFor();
    expect(await kept(page)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('pipefill.studentId'))).toBeNull();
    expect(problems.filter((p) => !/403/.test(p))).toEqual([]);
    await page.close();
  }, 300_000);

  it('on a relay with a class roster, an id it does not list is told so and not asked for a token; a listed id is asked for the token its instructor handed out', async () => {
    const dir = tempDir('pipefill-contest-roster-');
    const rostered = await testRelay({ distDir: TEST_BUNDLE, contest: pageContest('ATT-LTE-driving-2016', { roster: { path: join(dir, 'roster.txt'), ids: ['ann@red', 'bob@red'] } }) });
    onTestFinished(() => rostered.close());
    // the operator's class view names the roster's ids that have not submitted: no one yet
    const operator = await browser.newContext();
    onTestFinished(() => operator.close());
    await operator.request.get(rostered.operator.url(rostered.url));
    const { page: board } = await open(operator, `${rostered.url}/?view=contest`);
    const notSubmitted = board.getByTestId('contest-not-submitted');
    await notSubmitted.waitFor();
    expect(await notSubmitted.innerText()).toBe("Not submitted yet (the roster's ids, shown to the operator only): ann@red, bob@red");
    const { page } = await open(browser, `${rostered.url}/`);
    await editor(page);
    await useId(page, 'zed@red');
    expect(await submit(page)).toEqual({ refused: 'zed@red is not on the class roster: submit under the id the instructor gave you, with its token' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-param'))).not.toBe('contest-token');
    await useId(page, 'ann@red');
    expect(await submit(page)).toEqual({ refused: expect.stringMatching(/^ann@red's token is needed: the instructor hands each student the token of their id/) });
    const field = page.locator('.contest-submit label:has([data-param="contest-token"])');
    expect(await field.innerText()).toMatch(/^ann@red’s token \(from your instructor, or kept from its first submission in another browser or on the command line\):/);
    const token = Object.fromEntries(
      readFileSync(join(dir, 'roster.txt.tokens.csv'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(',')),
    )['ann@red'];
    await field.locator('input').fill(token);
    expect(await submit(page)).toEqual({ token });
    // ann@red submitted: the operator's view, kept up to date, names bob@red alone
    await expect.poll(() => notSubmitted.innerText()).toBe("Not submitted yet (the roster's ids, shown to the operator only): bob@red");
    await board.screenshot({ path: join(ROOT, 'build/contest-not-submitted.png') });
    await page.close();
  }, 300_000);

  it('code that does not load is not sent: the page says why, underlines where, and the id keeps its turn', async () => {
    const { page, problems } = await open(browser, `${relay.url}/`);
    const sent: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/contest/submissions' && sent.push(r.url()));
    await editor(page);
    await useId(page, 'dee@red');
    const notSent = async (code: string, why: RegExp) => {
      await page.locator('.user-editor .cm-content').click();
      await page.keyboard.press('Control+a');
      await page.keyboard.insertText(code);
      expect(await submit(page)).toEqual({ refused: expect.stringMatching(why) });
      await page.locator('.user-editor .cm-lintRange-error').first().waitFor();
    };
    // not JavaScript, and made but throwing: the relay would fail either after it took the id's turn
    await notSent(FAILING.replace('return 4;', 'return 4 4;'), /^Not sent, so your turn is not used: your controller at line 1, column \d+: syntax error \(the code is not valid JavaScript here\)$/);
    await notSent(
      FAILING.replace('return { windowSize', 'throw new Error("unmade"); return { windowSize'),
      /^Not sent, so your turn is not used: your controller in create at line 1, column \d+: Error: unmade$/,
    );
    expect(sent).toEqual([]);
    // the code mended, it goes at once: the failed check took no turn
    await page.locator('.user-editor .cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.insertText(FAILING);
    expect(await submit(page)).toEqual({ token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(sent).toHaveLength(1);
    // the mended text passed its check: the editor no longer shows the error of the text before it
    expect(await page.getByTestId('editor-error').count()).toBe(0);
    expect(await page.locator('.user-editor .cm-lintRange-error').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 300_000);

  it('an id first used from the command line submits from the page with the token its file keeps', async () => {
    const dir = tempDir('pipefill-contest-page-');
    const [file, tokens] = [join(dir, 'failing.mjs'), join(dir, 'tokens.json')];
    writeFileSync(file, FAILING);
    const cli = await runCliAsync('server/cli/contest.ts', ['submit', file, '--id', 'cat@red', '--server', relay.url, '--tokens', tokens]);
    expect(cli.code).toBe(1);
    const token = (JSON.parse(readFileSync(tokens, 'utf8')) as Record<string, string>)[`${relay.url} cat@red`];
    const { page } = await open(browser, `${relay.url}/`);
    await editor(page);
    await useId(page, 'cat@red');
    expect(await submit(page)).toEqual({ refused: expect.stringMatching(/^cat@red has submitted before: send the token its first submission was given\. Enter cat@red’s token in the field above/) });
    await page.locator('.contest-submit [data-param="contest-token"]').fill(token);
    expect(await submit(page)).toEqual({ token });
    await page.close();
  }, 300_000);

  it('a link naming a held-out trace says so once and runs the default trace, asking the relay for none of its files', async () => {
    const { page, problems } = await open(browser, 'about:blank');
    const asked: string[] = [];
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/traces/ATT-LTE-driving-2016') && asked.push(new URL(r.url()).pathname));
    await page.goto(`${relay.url}/?trace=ATT-LTE-driving-2016&a=cubic&b=bdp`);
    await page.locator('.notices p').first().waitFor();
    expect(await page.locator('.notices p').evaluateAll((ps) => ps.map((p) => p.firstChild?.textContent))).toEqual([
      'The link asked for something this page cannot do, so it uses the default instead: the trace "ATT-LTE-driving-2016" is held out for this relay\'s class contest, which never serves it',
    ]);
    expect(await card(page, 'A', 'Throughput')).toMatch(/^\d+\.\d\d\b/);
    expect(await card(page, 'B', 'Throughput')).toMatch(/^\d+\.\d\d\b/);
    expect(await page.locator('[data-param="trace"]').inputValue()).toBe('Verizon-LTE-short');
    await page.waitForFunction(() => location.search === '?a=cubic&b=bdp');
    expect(await page.locator('p.error').count()).toBe(0);
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(ROOT, 'build/contest-heldout-link.png') });
    await page.close();
  }, 120_000);
});
