import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loadSchemeSource } from '../../server/cli/schemeFlags.ts';
import type { RunInput, RunOutput } from '../../server/contest/runProtocol.ts';
import { Sandbox } from '../../server/contest/sandbox.ts';
import { contestRun, contestRunOf } from '../../server/contest/sandboxRun.ts';
import { traceFiles } from '../../server/contest/traces.ts';
import type { JournalRecord } from '../../server/records/journal.ts';
import { RECORDS_FILE } from '../../server/records/open.ts';
import type { TraceScore } from '../../shared/contest/api.ts';
import { findScheme, withUserScheme } from '../../shared/controllers/registry.ts';
import { scoreboardEntries } from '../../shared/scenarios/sweep.ts';
import { chromiumFor } from '../helpers/browser.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { ROOT } from '../helpers/cli.ts';
import { pageContest, postSubmission } from '../helpers/contest.ts';
import { open } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * A class of 21 on the revealed contest view: the planes' labels never print over one another or over the
 * omniscient star's, each built-in's square is named, and the lists of ids read in their numbers' order.
 *
 * Nothing is scored while the test runs: the relay's scorers run niced, and beside other work they get no
 * CPU at all. The class's submissions are in the records an earlier relay left, scored by the sandbox's
 * own run (contestRunOf) here; the built-ins' reference runs, which the relay asks for at every start, are
 * the sandbox's answers (contestRun) for the same inputs, worked out here before the relay starts.
 */

const CODE = readFileSync(join(ROOT, 'tests/fixtures/contestAimd.mjs'), 'utf8');
const FAILING = 'export default { title: "x", params: [], create() { throw new Error("not yet"); } };';

const CONTEST = pageContest('ATT-LTE-driving-2016', { reveal: true, scorers: 2 });
/** The contest's traces in the order the scorer runs them: the public one, then the held-out one. */
const TRACES = [...CONTEST.publicTraces, ...CONTEST.heldOutTraces];

/** 21 students: seven names in three groups, each with its own delay cut, so that their points crowd the plane. */
const CLASS = ['ann', 'bob', 'cy', 'dee', 'eli', 'fay', 'gus'].flatMap((name, i) => ['red', 'blue', 'teal'].map((group, k) => ({ id: `${name}@${group}`, cut: 60 + 12 * (3 * i + k) })));
const SUBMISSIONS = [...CLASS.map(({ id, cut }) => ({ id, code: CODE.replace('default: 150', `default: ${cut}`) })), ...['f10@x', 'f9@x', 'f2@x'].map((id) => ({ id, code: FAILING }))];

/** One run as the relay's scorer asks the sandbox for it (scorer.ts). */
const runInput = (code: string | null, scheme: string, trace: string): RunInput => ({ code, scheme, trace, link: CONTEST.link, files: traceFiles(trace) });

/**
 * A submission's result as the relay settles it (scorer.ts, contest.ts): its scores on every trace, or its
 * first run's failure (the failing ones fail on the first trace, the public one).
 */
async function resultOf(code: string): Promise<{ status: 'scored' | 'failed'; scores: TraceScore[]; error?: string }> {
  const schemes = withUserScheme(await loadSchemeSource(code));
  const scores: TraceScore[] = [];
  for (const trace of TRACES) {
    const out = contestRunOf(runInput(code, 'user', trace), () => schemes);
    if (!out.ok) return { status: 'failed', scores: [], error: `on ${trace}: ${out.error}` };
    const { throughputMbps, delay95, power, score } = out;
    scores.push({ trace, throughputMbps, delay95, power, score });
  }
  return { status: 'scored', scores };
}

/** The records a relay leaves of the class (store.ts): each submission with its id's new token, then their results. */
async function writeClassRecords(dataDir: string): Promise<void> {
  const [address, at] = ['127.0.0.1', new Date().toISOString()];
  const taken: JournalRecord[] = [];
  const results: JournalRecord[] = [];
  for (const { id, code } of SUBMISSIONS) {
    const submission = randomBytes(8).toString('hex');
    const hash = createHash('sha256').update(randomBytes(16).toString('hex'), 'utf8').digest('hex');
    taken.push({ kind: 'contest-submission', submission, id, address, at, code }, { kind: 'contest-token', id, address, hash });
    results.push({ kind: 'contest-result', submission, ...(await resultOf(code)) });
  }
  writeFileSync(join(dataDir, RECORDS_FILE), [...taken, ...results].map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** The sandbox's answer for each built-in's reference run, by its scheme and trace. */
const referenceRuns = new Map<string, RunOutput>();
const runName = (input: RunInput) => `${input.scheme} on ${input.trace}`;

let dataDir: string;
let browser: Browser;
beforeAll(async () => {
  browser = await chromiumFor(inject('chromiumEndpoint'));
  dataDir = tempDir('pipefill-contest-class-');
  await writeClassRecords(dataDir);
  for (const trace of TRACES)
    for (const { scheme } of scoreboardEntries()) {
      const input = runInput(null, scheme, trace);
      referenceRuns.set(runName(input), contestRun(input));
    }
  // a run the relay asks for that is not a reference run worked out above is a submission scored now
  vi.spyOn(Sandbox.prototype, 'run').mockImplementation(async (input) => {
    const answer = input.code === null ? referenceRuns.get(runName(input)) : undefined;
    if (!answer) throw new Error(`the relay scored ${input.code === null ? runName(input) : 'a submission'} while the test ran`);
    return answer;
  });
}, 120_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await browser?.close();
});

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
    const scoring = await testRelay({ distDir: TEST_BUNDLE, dataDir, contest: CONTEST });
    try {
      const { page, problems } = await open(browser, `${scoring.url}/?view=contest`, { viewport: { width: 1280, height: 720 } });
      const references = scoreboardEntries().length;
      for (const trace of ['Verizon-LTE-short', 'ATT-LTE-driving-2016']) {
        const plane = page.locator(`[data-trace="${trace}"] svg`);
        // every built-in's square and the star are in once the page has the reference runs the relay asked for at start
        await expect.poll(() => plane.locator('.point rect').count(), { timeout: 30_000 }).toBe(references);
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
      // on a phone the page scrolls up and down only: a plane or the table too wide scrolls within itself
      await page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
      await page.screenshot({ path: join(ROOT, 'build/contest-class-phone.png'), fullPage: true });
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
  }, 120_000);
});
