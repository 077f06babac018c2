import WebSocket from 'ws';
import type { Page } from 'playwright-core';
import { findScheme } from '../shared/controllers/registry.ts';
import { withDefaults } from '../shared/controllers/types.ts';
import { summarize } from '../shared/metrics/summary.ts';
import { flow, offsetServer } from '../shared/scenarios/presets.ts';
import { runScenario } from '../shared/scenarios/run.ts';
import { nodeClock } from '../server/clock.ts';
import { fetchOverUdp } from '../server/liveFetch.ts';
import type { WebSocketLike } from '../web/live/bridgeSession.ts';
import { timedFetch } from '../web/live/timedFetch.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { TEST_BUNDLE } from '../tests/helpers/bundle.ts';
import { testRelay } from '../tests/helpers/relay.ts';
import buildTestBundle from '../tests/globalSetup.ts';

const FILE = 1_000_000;
const SCHEMES = ['token-pacer', 'burst-aimd', 'constant-burst'];
const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

type Relay = Awaited<ReturnType<typeof testRelay>>;

async function cliFetch(relay: Relay, schemeId: string, i: number) {
  const scheme = findScheme(schemeId)!;
  const port = Number(relay.info.offsetConstant.split(':')[1]);
  const out = await fetchOverUdp('127.0.0.1', port, { scheme, params: withDefaults(scheme.params), id: `cli${i}@bench`, giveUpMs: 60_000 });
  return { time: out.result.serverTime, penalty: out.result.penalty };
}

async function nodeTimedFetch(relay: Relay, schemeId: string, i: number) {
  const scheme = findScheme(schemeId)!;
  const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}&timed=1`, { origin: relay.url });
  const out = await timedFetch(ws as unknown as WebSocketLike, nodeClock(), { scheme, params: withDefaults(scheme.params), id: `timed${i}@bench`, giveUpMs: 60_000 }).done;
  return { time: out.result.serverTime, penalty: out.result.penalty, lateness: out.lateness };
}

function simulated(schemeId: string) {
  const s = summarize(
    runScenario(offsetServer(false, [flow(schemeId, {}, 0, FILE)]), () => {
      throw new Error('no traces here');
    }),
  );
  const o = s.flows[0].offset!;
  return { time: o.timeMs, penalty: o.penalty };
}

async function browserFetch(page: Page, url: string) {
  await page.goto(`${url}/?s=offset&live=1&a=token-pacer`);
  await page.locator('[data-action="start-live"]').click();
  const cell = (label: string) => page.locator(`section.cards[data-side^="A "] [data-card="${label}"] dd`);
  await page.waitForFunction(() => /true|false/.test(document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent ?? ''), null, { timeout: 60_000 });
  return {
    result: (await cell('Result').innerText()).trim(),
    time: Number(
      await cell('Time')
        .innerText()
        .then((t) => t.replace(/\D/g, '')),
    ),
    penalty: Number((await cell('Penalty').innerText()).replace(/\D/g, '')),
  };
}

/** Live against simulated, and the page's live fetch against the CLI's, on a 1 MB file at the course's policy. */
export async function benchLive(): Promise<Record<string, string>> {
  const relay = await testRelay({ fileSize: FILE, distDir: TEST_BUNDLE, maxSessionsPerClient: 50 });
  const figures: Record<string, string> = {};
  try {
    for (const id of SCHEMES) {
      const cli: { time: number; penalty: number }[] = [];
      const timed: { time: number; penalty: number; lateness: number[] }[] = [];
      for (let i = 0; i < RUNS; i++) cli.push(await cliFetch(relay, id, i));
      for (let i = 0; i < 3; i++) timed.push(await nodeTimedFetch(relay, id, i));
      const sim = simulated(id);
      const t = median(cli.map((c) => c.time));
      const p = median(cli.map((c) => c.penalty));
      figures[`${id}: CLI fetch time / penalty (median of ${RUNS})`] = `${t} ms / ${p}`;
      figures[`${id}: simulated time / penalty`] = `${sim.time} ms / ${sim.penalty}`;
      figures[`${id}: simulated vs CLI time`] = `${((sim.time / t - 1) * 100).toFixed(1)} %`;
      figures[`${id}: timed bridge (Node) time / penalty (median of 3)`] = `${median(timed.map((x) => x.time))} ms / ${median(timed.map((x) => x.penalty))}`;
      const late = timed.flatMap((x) => x.lateness);
      figures[`${id}: relay send lateness p50 / p99 / max`] = `${pct(late, 0.5).toFixed(3)} / ${pct(late, 0.99).toFixed(3)} / ${Math.max(...late).toFixed(3)} ms`;
    }
    await buildTestBundle();
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1500, height: 1100 } });
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await browserFetch(page, relay.url));
      const cliTime = median((await Promise.all([0, 1, 2].map(async (i) => cliFetch(relay, 'token-pacer', 100 + i)))).map((c) => c.time));
      figures['token-pacer: browser live times'] = runs.map((r) => `${r.time}${r.result === 'true' ? '' : '✗'}`).join(', ');
      figures['token-pacer: browser live time / penalty (median of 5)'] = `${median(runs.map((r) => r.time))} ms / ${median(runs.map((r) => r.penalty))}`;
      figures['token-pacer: browser ÷ CLI time'] = (median(runs.map((r) => r.time)) / cliTime).toFixed(3);
    } finally {
      await browser.close();
    }
  } finally {
    await relay.close();
  }
  return figures;
}
