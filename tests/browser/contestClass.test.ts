import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { findScheme } from '../../shared/controllers/registry.ts';
import { scoreboardEntries } from '../../shared/scenarios/sweep.ts';
import { chromiumFor } from '../helpers/browser.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { ROOT } from '../helpers/cli.ts';
import { pageContest, postSubmission, settled } from '../helpers/contest.ts';
import { open } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';

/**
 * A class of 21 on the revealed contest view: the planes' labels never print over one another or over the
 * omniscient star's, each built-in's square is named, and the lists of ids read in their numbers' order.
 */

const CODE = readFileSync(join(ROOT, 'tests/fixtures/contestAimd.mjs'), 'utf8');
const FAILING = 'export default { title: "x", params: [], create() { throw new Error("not yet"); } };';

const CONTEST = pageContest('ATT-LTE-driving-2016', { reveal: true, scorers: 2 });

/** 21 students: seven names in three groups, each with its own delay cut, so that their points crowd the plane. */
const CLASS = ['ann', 'bob', 'cy', 'dee', 'eli', 'fay', 'gus'].flatMap((name, i) => ['red', 'blue', 'teal'].map((group, k) => ({ id: `${name}@${group}`, cut: 60 + 12 * (3 * i + k) })));

let browser: Browser;
beforeAll(async () => {
  browser = await chromiumFor(inject('chromiumEndpoint'));
});
afterAll(() => browser?.close());

/** Every label box of one plane, as the page lays it out. */
function labelBoxes(plane: Locator) {
  return plane.evaluate((svg) =>
    [...svg.querySelectorAll('.point-label text')].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    }),
  );
}

type Box = Awaited<ReturnType<typeof labelBoxes>>[number];
const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('a class on the contest view', () => {
  it('after the reveal, labels never overlap (the omniscient one included), each built-in is named, and the lists of ids read in order', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pipefill-contest-class-'));
    const scoring = await testRelay({ distDir: TEST_BUNDLE, dataDir, contest: CONTEST });
    try {
      const sent = await Promise.all([
        ...CLASS.map(({ id, cut }) => postSubmission(scoring.url, { id, code: CODE.replace('default: 150', `default: ${cut}`) })),
        ...['f10@x', 'f9@x', 'f2@x'].map((id) => postSubmission(scoring.url, { id, code: FAILING })),
      ]);
      await Promise.all(sent.map(({ json }) => settled(scoring.url, json.submission, 280_000)));

      const { page, problems } = await open(browser, `${scoring.url}/?view=contest`, { viewport: { width: 1280, height: 720 } });
      const references = scoreboardEntries().length;
      for (const trace of ['Verizon-LTE-short', 'ATT-LTE-driving-2016']) {
        const plane = page.locator(`[data-trace="${trace}"] svg`);
        // every built-in's square and the star are in once their reference runs are: the scorers run niced, and
        // beside other work they take what is left of the machine, so this waits for them as long as the test may
        await expect.poll(() => plane.locator('.point rect').count(), { timeout: 590_000 }).toBe(references);
        await plane.locator('.point path').waitFor();
        const boxes = await labelBoxes(plane);
        expect(boxes.map((b) => b.text)).toContain('omniscient');
        for (let i = 0; i < boxes.length; i++) for (let k = i + 1; k < boxes.length; k++) expect(overlap(boxes[i], boxes[k]), `${trace}: ${boxes[i].text} and ${boxes[k].text}`).toBe(false);
        // each square named by its title, and most by their ids where there is room
        const titles = await plane.locator('.point:has(rect) > title').allTextContents();
        expect(titles.map((t) => t.split(':')[0]).sort()).toEqual(
          scoreboardEntries()
            .map((e) => `${findScheme(e.scheme)!.title} (built in, at its defaults)`)
            .sort(),
        );
        const ids = scoreboardEntries().map((e) => e.scheme);
        expect(boxes.filter((b) => ids.includes(b.text)).length, trace).toBeGreaterThan(references / 2);
      }
      expect(await page.getByTestId('contest-failed').innerText()).toBe('Every submission failed: f2@x (1 failed), f9@x (1 failed), f10@x (1 failed)');
      await page.screenshot({ path: join(ROOT, 'build/contest-class.png') });
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await scoring.close();
    }

    // the same records on a relay that scores nothing: what is sent now stays waiting
    const waiting = await testRelay({ distDir: TEST_BUNDLE, dataDir, contest: { ...CONTEST, scorers: 0 } });
    try {
      for (const id of ['s10@x', 's2@x', 's19@x', 's1@x', 's9@x']) expect((await postSubmission(waiting.url, { id, code: CODE })).status).toBe(202);
      const { page, problems } = await open(browser, `${waiting.url}/?view=contest`, { viewport: { width: 1280, height: 720 } });
      const list = page.getByTestId('contest-waiting');
      await list.waitFor();
      expect(await list.locator('[data-id]').evaluateAll((ss) => ss.map((s) => s.getAttribute('data-id')))).toEqual(['s1@x', 's2@x', 's9@x', 's10@x', 's19@x']);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await waiting.close();
    }
  }, 1_200_000);
});
