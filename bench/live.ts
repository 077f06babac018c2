import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
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
import { bridgeFetch } from '../web/live/bridgeFetch.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import type { RelayInfo } from '../shared/relay/info.ts';
import { TEST_BUNDLE } from '../tests/helpers/bundle.ts';
import buildTestBundle from '../tests/globalSetup.ts';

const FILE = 1_000_000;
const SCHEMES = ['token-pacer', 'burst-aimd', 'constant-burst'];
const RUNS = 5;
/** Each fetch ends within this, or counts as failed: the bench always finishes. */
const FETCH_LIMIT_MS = 60_000;
const median = (xs: number[]) => (xs.length === 0 ? Number.NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

interface Relay {
  url: string;
  info: RelayInfo;
  close(): Promise<void>;
}

/**
 * The relay as `npm start` runs it, a process of its own serving the production bundle, so that neither
 * the browser's driver nor the CLI fetch shares its event loop.
 */
async function relayProcess(): Promise<Relay> {
  const args = ['server/main.ts', '--http-port', '0', '--udp-port', '0', '--variable-port', '0', '--echo-port', '0', '--file-size', String(FILE), '--max-per-client', '50', '--dist', TEST_BUNDLE];
  const child = spawn(resolve(import.meta.dirname, '../node_modules/.bin/tsx'), args, { cwd: resolve(import.meta.dirname, '..') });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  await within(
    30_000,
    'starting the relay',
    new Promise<void>((ok, fail) => {
      const poll = setInterval(() => out.includes('echo server') && (clearInterval(poll), ok()), 50);
      child.on('exit', (code) => (clearInterval(poll), fail(new Error(`the relay exited (${code}): ${out}`))));
    }),
  );
  const url = /playground\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
  const info = (await (await fetch(`${url}/api/relay`)).json()) as RelayInfo;
  const close = () => new Promise<void>((ok) => (child.once('exit', () => ok()), child.kill('SIGINT')));
  return { url, info, close };
}
interface Figures {
  time: number;
  penalty: number;
}

function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms)));
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

async function cliFetch(relay: Relay, schemeId: string, i: number): Promise<Figures> {
  const scheme = findScheme(schemeId)!;
  const port = Number(relay.info.offsetConstant.split(':')[1]);
  const out = await fetchOverUdp('127.0.0.1', port, { scheme, params: withDefaults(scheme.params), id: `cli${i}@bench`, giveUpMs: FETCH_LIMIT_MS });
  return { time: out.result.serverTime, penalty: out.result.penalty };
}

async function nodeTimedFetch(relay: Relay, schemeId: string, i: number) {
  const scheme = findScheme(schemeId)!;
  const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}&timed=1`, { origin: relay.url });
  const out = await timedFetch(ws as unknown as WebSocketLike, nodeClock(), { scheme, params: withDefaults(scheme.params), id: `timed${i}@bench`, giveUpMs: FETCH_LIMIT_MS }).done;
  return { time: out.result.serverTime, penalty: out.result.penalty, lateness: out.lateness };
}

/** The page's own path (web/live/bridgeFetch.ts) driven from Node: the relay's hop without the browser's. */
async function nodeBridgeFetch(relay: Relay, schemeId: string, i: number): Promise<Figures> {
  const scheme = findScheme(schemeId)!;
  const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}&timed=1`, { origin: relay.url });
  const out = await bridgeFetch(ws as unknown as WebSocketLike, nodeClock(), { scheme, params: withDefaults(scheme.params), id: `bridge${i}@bench`, giveUpMs: FETCH_LIMIT_MS }).done;
  return { time: out.result.serverTime, penalty: out.result.penalty };
}

function simulated(schemeId: string): Figures {
  const s = summarize(
    runScenario(offsetServer(false, [flow(schemeId, {}, 0, FILE)]), () => {
      throw new Error('no traces here');
    }),
  );
  const o = s.flows[0].offset!;
  return { time: o.timeMs, penalty: o.penalty };
}

async function browserFetch(page: Page, url: string): Promise<Figures & { result: string }> {
  await page.goto(`${url}/?s=offset&live=1&a=token-pacer`);
  await page.locator('[data-action="start-live"]').click();
  const cell = (label: string) => page.locator(`section.cards[data-side^="A "] [data-card="${label}"] dd`);
  // Polled twice a second, not every frame: the driver's own traffic stays out of the figures.
  await page.waitForFunction(() => /true|false/.test(document.querySelector('section.cards[data-side^="A "] [data-card="Result"] dd')?.textContent ?? ''), null, {
    timeout: FETCH_LIMIT_MS,
    polling: 500,
  });
  const digits = async (label: string) => Number((await cell(label).innerText()).replace(/\D/g, ''));
  return { result: (await cell('Result').innerText()).trim(), time: await digits('Time'), penalty: await digits('Penalty') };
}

const show = (f: Figures[]) => `${median(f.map((x) => x.time))} ms / ${median(f.map((x) => x.penalty))}`;

/** Simulated against live (CLI and timed bridge from Node) for each scheme. */
async function schemes(relay: Relay, figures: Record<string, string>): Promise<void> {
  for (const id of SCHEMES) {
    const cli: Figures[] = [];
    const timed: Awaited<ReturnType<typeof nodeTimedFetch>>[] = [];
    const bridged: Figures[] = [];
    const failed: string[] = [];
    const note = (e: Error) => void failed.push(e.message);
    for (let i = 0; i < RUNS; i++) await within(FETCH_LIMIT_MS, `${id} CLI fetch`, cliFetch(relay, id, i)).then((f) => cli.push(f), note);
    for (let i = 0; i < 3; i++) await within(FETCH_LIMIT_MS, `${id} timed fetch`, nodeTimedFetch(relay, id, i)).then((f) => timed.push(f), note);
    for (let i = 0; i < 3; i++) await within(FETCH_LIMIT_MS, `${id} bridge fetch`, nodeBridgeFetch(relay, id, i)).then((f) => bridged.push(f), note);
    if (failed.length > 0) figures[`${id}: fetches that did not end`] = failed.join('; ');
    const sim = simulated(id);
    const t = median(cli.map((c) => c.time));
    figures[`${id}: CLI fetch time / penalty (median of ${RUNS})`] = show(cli);
    figures[`${id}: simulated time / penalty`] = show([sim]);
    figures[`${id}: simulated vs CLI time`] = `${((sim.time / t - 1) * 100).toFixed(1)} %`;
    figures[`${id}: timed bridge (Node) time / penalty (median of 3)`] = show(timed);
    figures[`${id}: the page's bridge fetch from Node, time / penalty (median of 3)`] = show(bridged);
    const late = timed.flatMap((x) => x.lateness);
    if (late.length === 0) continue;
    figures[`${id}: relay send lateness p50 / p99 / max`] = `${pct(late, 0.5).toFixed(3)} / ${pct(late, 0.99).toFixed(3)} / ${Math.max(...late).toFixed(3)} ms`;
  }
}

/** The page's live token-pacer fetch against the CLI's, run alternately so both see the same load. */
async function browserAgainstCli(relay: Relay, figures: Record<string, string>): Promise<void> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1100 } });
    const runs: (Figures & { result: string })[] = [];
    const cli: Figures[] = [];
    const failures: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      await browserFetch(page, relay.url).then(
        (r) => runs.push(r),
        (e: Error) => failures.push(e.message.split('\n')[0]),
      );
      await within(FETCH_LIMIT_MS, 'CLI fetch', cliFetch(relay, 'token-pacer', 100 + i)).then(
        (f) => cli.push(f),
        (e: Error) => failures.push(e.message),
      );
    }
    const ok = runs.filter((r) => r.result === 'true');
    figures['token-pacer: browser live time / penalty, each'] = runs.map((r) => `${r.time}/${r.penalty}${r.result === 'true' ? '' : '✗'}`).join(', ');
    if (failures.length > 0) figures['token-pacer: browser runs that did not end'] = failures.join('; ');
    figures['token-pacer: CLI time / penalty, each'] = cli.map((c) => `${c.time}/${c.penalty}`).join(', ');
    figures[`token-pacer: browser live time / penalty (median of ${ok.length})`] = show(ok);
    figures[`token-pacer: CLI time / penalty (median of ${RUNS}, alternating)`] = show(cli);
    figures['token-pacer: browser ÷ CLI time'] = (median(ok.map((r) => r.time)) / median(cli.map((c) => c.time))).toFixed(3);
  } finally {
    await browser.close();
  }
}

/** Live against simulated, and the page's live fetch against the CLI's, on a 1 MB file at the course's policy. */
export async function benchLive(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const t0 = performance.now();
  await buildTestBundle();
  figures['production build, s'] = ((performance.now() - t0) / 1000).toFixed(1);
  const relay = await relayProcess();
  try {
    await browserAgainstCli(relay, figures);
    if (process.env.LIVE_BENCH !== 'browser') await schemes(relay, figures);
  } finally {
    await relay.close();
  }
  return figures;
}
