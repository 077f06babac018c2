import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadTrace } from '../../server/traces.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { DEFAULT_EXPERIMENT } from '../../web/state/experiment.ts';
import { codeToQuery } from '../../web/state/view.ts';
import { specFor } from '../../web/state/spec.ts';
import { TEST_BUNDLE } from '../helpers/bundle.ts';
import { textsDrawn, card } from '../helpers/page.ts';
import { ATTEMPT_NAMES, escapingController, RAW_WORKER, playgroundAndSpy, storageOf } from '../helpers/escapes.ts';

const t = playgroundAndSpy();

/** A link that opens the playground with the user's controller `code` as side A. */
const linkWith = (code: string) => `${t.env.relay.url}/?${codeToQuery(code, new URLSearchParams({ a: 'user', trace: 'rate', 'link.bandwidth': '1' }))}`;

/** Side A's throughput card for a fixed window of `w`, as the headless runner computes it on the link of linkWith. */
function fixedThroughput(w: number): string {
  const e = { ...DEFAULT_EXPERIMENT, trace: 'rate', link: { bandwidth: 1 }, a: { scheme: 'fixed', params: { w } } };
  return `${summarize(runScenario(specFor(e, 'a'), loadTrace)).all.throughputMbps.toFixed(2)} Mbit/s`;
}

/** The page's requests for traces: the names a worker had it fetch. */
const traceRequests = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((r) => new URL(r.name).pathname)
      .filter((p) => p.startsWith('/traces/')),
  );

describe('user code in the page reaches nothing', () => {
  it('the sandbox frame itself holds: a worker started there without the guards of ours reaches no server and no storage', async () => {
    const page = await t.env.context.newPage();
    await page.goto(t.env.relay.url);
    await card(page, 'A', 'Throughput');
    const frame = page.frames().find((f) => f.url() === `${t.env.relay.url}/sandbox.html`)!;
    // started as the frame starts its workers (a blob: URL of its own), running plain attempts
    const outcomes = await frame.evaluate(
      ([code, target]) =>
        new Promise<Record<string, string>>((resolve) => {
          const w = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
          w.onmessage = (e) => resolve(e.data);
          w.postMessage(target);
        }),
      [RAW_WORKER, t.spy.url],
    );
    // the refusal each attempt met, by its error's name ("error event": the attempt's error event fired)
    expect(outcomes).toEqual({
      'import() compiled in a promise callback': 'EvalError',
      'Function with Error.stackTraceLimit = 0': 'EvalError',
      eval: 'EvalError',
      fetch: 'TypeError',
      XMLHttpRequest: 'error event',
      WebSocket: 'error event',
      EventSource: 'error event',
      importScripts: 'NetworkError',
      'navigator.sendBeacon': 'TypeError',
      'a worker of its own that fetches': 'Error (its fetch: TypeError)',
      IndexedDB: 'SecurityError',
      'Cache Storage': 'ReferenceError',
      localStorage: 'ReferenceError',
      'the origin private file system': 'TypeError',
      WebAssembly: 'CompileError',
      'the parent page': 'TypeError',
    });
    expect(Object.keys(outcomes)).toEqual(ATTEMPT_NAMES);
    expect(t.spy.connections).toBe(0);
    await page.close();
  }, 60_000);

  it('a link whose controller tries every escape as it loads runs to its numbers, and nothing got out', async () => {
    const context = await t.env.browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(linkWith(escapingController(t.spy.url, 2)));
    // the module body waits for every attempt to settle, and throws if one got anything back
    await page.waitForFunction(
      (want) =>
        document.querySelector<HTMLSelectElement>('select[data-param="a.scheme"]')?.value === 'user' &&
        document.querySelector('section.cards[data-side^="A "] [data-card="Throughput"] dd')?.textContent?.trim() === want,
      fixedThroughput(2),
      { timeout: 30_000 },
    );
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(t.spy.connections).toBe(0);
    expect(await storageOf(page)).toEqual({ databases: [], caches: [], local: ['pipefill.controller'] });
    // it caught no port to ask the page for anything: no trace request went out
    expect(await traceRequests(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('an attempt made in a callback ends the run with the browser’s refusal, which the user sees', async () => {
    const cases: [call: string, message: RegExp][] = [
      // the compile guard sees no user frame on an empty stack: the frame's policy refuses
      ['Error.stackTraceLimit = 0; Function("return 1")()', /EvalError: Evaluating a string as JavaScript violates the following Content Security Policy directive/],
      ['indexedDB.open("pipefill")', /SecurityError: Failed to execute 'open' on 'IDBFactory': access to the Indexed Database API is denied in this context/],
    ];
    for (const [call, message] of cases) {
      const context = await t.env.browser.newContext();
      const page = await context.newPage();
      await page.goto(linkWith(escapingController(t.spy.url, 7).replace('onAck(ack) {}', `onAck(ack) { ${call}; }`)));
      const alert = page.getByRole('alert').filter({ hasText: 'your controller in onAck' });
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.innerText()).toMatch(message);
      expect(await storageOf(page)).toEqual({ databases: [], caches: [], local: ['pipefill.controller'] });
      await context.close();
    }
    expect(t.spy.connections).toBe(0);
  }, 90_000);

  it('a frame that misses its first hellos and whose own first "ready" goes unheard still starts the workers', async () => {
    // a context of its own, closed with the test, as the other tests here have
    const context = await t.env.browser.newContext();
    const page = await context.newPage();
    // The frame as it is served, except that it says nothing as it starts and ignores the page's first two
    // hellos: as if both had crossed its document's load. Its meta policy still holds it; its header's
    // policy names the script by its hash, so is left out for the altered script.
    const frames: string[] = [];
    await page.route('**/sandbox.html', async (route) => {
      // the page's look at a frame slow to answer (a HEAD, on a busy machine) is the relay's to answer
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch();
      const served = await response.text();
      const body = served
        .replace("tell({ kind: 'ready' });\n</script>", '</script>')
        .replace("if (m.kind === 'hello') return tell({ kind: 'ready' });", "if (m.kind === 'hello') return ++hellos > 2 && tell({ kind: 'ready' });")
        .replace('const workers = new Map();', 'const workers = new Map();\nlet hellos = 0;');
      // told after the run, with what the relay sent: an assertion thrown here fails no test
      const altered = body.includes('++hellos > 2') && !body.includes("tell({ kind: 'ready' });\n</script>");
      frames.push(altered ? 'altered' : `${response.status()}, ${served.length} bytes`);
      const headers = { ...response.headers() };
      delete headers['content-security-policy'];
      await route.fulfill({ response, body, headers });
    });
    await page.goto(`${t.env.relay.url}/?trace=rate&link.bandwidth=1`);
    await expect.poll(() => frames.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(frames[0]).toBe('altered');
    expect(await card(page, 'A', 'Throughput')).toMatch(/^[\d.]+ Mbit\/s$/);
    expect(frames).toEqual(['altered']);
    await context.close();
  });

  it('a page whose sandbox frame is not served opens, says why nothing runs, and asks no more of it', async () => {
    const context = await t.env.browser.newContext();
    // a saved controller: the page checks it before it renders, in a worker the frame would start
    await context.addInitScript(() => localStorage.setItem('pipefill.controller', 'export default { title: "saved", params: [], create: () => ({ windowSize: () => 4 }) };'));
    const page = await context.newPage();
    let asked = 0;
    await page.route('**/sandbox.html', (route) => {
      asked++;
      return route.fulfill({ status: 404, body: 'not here' });
    });
    await page.goto(`${t.env.relay.url}/?trace=rate&link.bandwidth=1`);
    const why = 'the sandbox frame that runs the simulations did not start (the page’s server answers 404 for /sandbox.html)';
    const sides = [`A · AIMD: ${why}`, `B · BDP estimator: ${why}`];
    const sideAlerts = () =>
      page
        .getByRole('alert')
        .filter({ hasText: /^[AB] · / })
        .allInnerTexts();
    await expect.poll(sideAlerts, { timeout: 30_000 }).toEqual(sides);
    await expect.poll(() => page.getByTestId('editor-error').innerText(), { timeout: 30_000 }).toBe(`your controller could not be checked: ${why}`);
    expect(await page.locator('.cm-content').innerText()).toContain('title: "saved"');
    // a new run asks a fresh worker, which fails at once with the same words: each side draws its alert anew
    const drawn = await textsDrawn(page, 'alert');
    const seed = page.locator('[data-param="seed"]');
    await seed.fill('2');
    await seed.press('Enter');
    await expect.poll(drawn, { timeout: 30_000 }).toEqual(sides);
    // the frame's document and one look at its file; the refusal is not asked again
    expect(asked).toBe(2);
    await context.close();
  }, 60_000);

  it('the relay sends each file with its policy: the page, its worker scripts, the sandbox frame', async () => {
    const policy = async (path: string) => (await fetch(`${t.env.relay.url}${path}`)).headers.get('content-security-policy') ?? '';
    const page = await policy('/?a=user');
    expect(page).toContain("script-src 'self';");
    expect(page).toContain("connect-src 'self' http://127.0.0.1:* http://localhost:*;");
    expect(page).not.toContain('unsafe-eval');
    const worker = readdirSync(join(TEST_BUNDLE, 'assets')).find((f) => f.startsWith('simWorker-'))!;
    const script = await policy(`/assets/${worker}`);
    expect(script).toContain("connect-src 'self';");
    // no worker of the page's origin runs the user's code, so none may load a module from text
    expect(script).toContain("script-src 'self';");
    expect(script).not.toContain('unsafe-eval');
    const frameHtml = await (await fetch(`${t.env.relay.url}/sandbox.html`)).text();
    // the frame says its policy itself too, for a server that sends no headers
    expect(frameHtml).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' blob: data:; worker-src blob:;`);
    const inline = /<script>([\s\S]*)<\/script>/.exec(frameHtml)![1];
    const hash = createHash('sha256').update(inline).digest('base64');
    expect((await policy('/sandbox.html')).split('; ')).toEqual([
      "default-src 'none'",
      `script-src 'sha256-${hash}' blob: data:`,
      'worker-src blob:',
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'self'",
      'sandbox allow-scripts',
    ]);
  });
});
