import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarize } from '../../shared/metrics/summary.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadTrace } from '../../server/traces.ts';
import { DEFAULT_EXPERIMENT } from '../../web/state/experiment.ts';
import { specFor } from '../../web/state/spec.ts';
import { EXERCISES } from '../../web/teach/exercises.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { pageContest } from '../helpers/contest.ts';
import { card, open, playground } from '../helpers/page.ts';
import { testRelay } from '../helpers/relay.ts';

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

const delay = EXERCISES.find((x) => x.id === 'delay')!;
/** Both sides tuned a little: the page's own sides, as it opens, are the worked example and score no goal. */
const TUNED = { ...DEFAULT_EXPERIMENT, a: { scheme: 'aimd', params: { timeout: 600 } }, b: { scheme: 'bdp', params: { gain: 1.7 } } };
/** What the held-out line says of a side, from the headless runner on T-Mobile LTE. */
function expected(side: 'a' | 'b', seed: number, tuned: boolean): string {
  const s = summarize(runScenario(specFor({ ...TUNED, seed, trace: 'TMobile-LTE-short' }, side), loadTrace));
  const v = delay.heldOut!.score(s);
  const both = tuned && v.met ? ' · the goal holds on both' : tuned ? ' · met on the tuned trace only' : v.met ? ' · still to meet on the tuned trace' : '';
  return `${v.met ? '✓' : '✗'} held out, T-Mobile LTE: ${v.why}${both}`;
}

describe('the overfitting lesson, in Chromium', () => {
  it('the exercise scores each side on the held-out trace beside the tuned one, and follows the settings', { timeout: 120_000 }, async () => {
    const { page, problems } = await open(env.browser, `${env.relay.url}/?a.timeout=600&b.gain=1.7`);
    await card(page, 'B', 'Throughput');
    await page.getByText('Exercises', { exact: true }).click();
    await page.locator('[data-param="exercise"]').selectOption('delay');
    const tunedB = (await page.locator('[data-check="B · BDP estimator"]').innerText()).startsWith('✓');
    const tunedA = (await page.locator('[data-check="A · AIMD"]').innerText()).startsWith('✓');
    const line = (side: string) => page.locator(`[data-held-out="${side}"]`);
    await line('B · BDP estimator').getByText('held out, T-Mobile LTE:').waitFor({ timeout: 60_000 });
    expect(await line('B · BDP estimator').innerText()).toBe(expected('b', 1, tunedB));
    expect(await line('A · AIMD').innerText()).toBe(expected('a', 1, tunedA));
    // Another seed: the lines say they are scoring until the new runs are in, never the old numbers.
    await page.locator('[data-param="seed"]').fill('5');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('seed') === '5');
    await line('B · BDP estimator').getByText('held out, T-Mobile LTE:').waitFor({ timeout: 60_000 });
    await card(page, 'B', 'Throughput');
    await page.waitForFunction(() => !document.querySelector('section.cards[data-side^="B "] h3 small')?.textContent?.includes('updating'));
    const b5 = (await page.locator('[data-check="B · BDP estimator"]').innerText()).startsWith('✓');
    expect(await line('B · BDP estimator').innerText()).toBe(expected('b', 5, b5));
    // An exercise whose scheme neither side runs puts it on A, ready to tune; B's run still scores no goal there.
    await page.locator('[data-param="exercise"]').selectOption('window');
    expect(await page.locator('[data-param="a.scheme"]').inputValue()).toBe('fixed');
    expect(await page.locator('[data-check="B · BDP estimator"]').innerText()).toBe('– B · BDP estimator: not the fixed window: choose it for A or B');
    expect(await page.locator('[data-held-out="B · BDP estimator"]').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the overfitting lesson on a relay whose class contest holds the trace out', () => {
  it('says the contest holds it out, neither met nor missed, instead of a failure', { timeout: 120_000 }, async () => {
    const relay = await testRelay({
      distDir: TEST_BUNDLE,
      contest: pageContest('TMobile-LTE-short'),
    });
    const { page, problems } = await open(env.browser, 'about:blank');
    const asked: string[] = [];
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/traces/TMobile') && asked.push(new URL(r.url()).pathname));
    await page.goto(`${relay.url}/?ex=delay&a.timeout=600&b.gain=1.7`);
    const line = page.locator('[data-held-out="B · BDP estimator"]');
    await line.getByText('held out, T-Mobile LTE:').waitFor({ timeout: 60_000 });
    expect(await line.innerText()).toBe('– held out, T-Mobile LTE: the class contest on this relay holds this trace out: it scores your submissions there, the page cannot');
    expect(await line.getAttribute('class')).toBe('off held-out');
    // the relay names what it holds out (the drive the short trace was cut from too), so the page asks for none of it: no refusal in the console
    expect((await (await fetch(`${relay.url}/api/relay`)).json()).heldOutFiles).toEqual(['TMobile-LTE-driving.down', 'TMobile-LTE-short.down', 'TMobile-LTE-short.up']);
    expect(asked).toEqual([]);
    expect(problems).toEqual([]);
    await page.locator('details.exercises').screenshot({ path: join(tmpdir(), 'pipefill-heldout-contest.png') });
    await page.close();
    await relay.close();
  });
});
