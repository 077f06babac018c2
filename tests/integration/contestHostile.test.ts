import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { contestRelay, postSubmission, settled } from '../helpers/contest.ts';

/**
 * Hostile submissions on a real relay process: each fails alone, with a sentence saying why, while a good
 * submission queued among them is scored as the sim scores it, and nothing reaches a server the test runs.
 */

const GOOD_FILE = join(ROOT, 'tests/fixtures/contestAimd.mjs');
const GOOD = readFileSync(GOOD_FILE, 'utf8');
/** The good controller with `line` run first, at load. */
const atLoad = (line: string) => `${line}\n${GOOD}`;
/** The good controller with `line` run at the start of onAck. */
const inOnAck = (line: string) => GOOD.replace('onAck(a) {', `onAck(a) {\n${line}`);

let relay: Awaited<ReturnType<typeof contestRelay>>;
let heard = 0;
const listener = createServer((_req, res) => {
  heard++;
  res.end('export default {}');
});

beforeAll(async () => {
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
  relay = await contestRelay(['--contest-trace', 'Verizon-LTE-short', '--contest-held-out', 'ATT-LTE-driving-2016', '--contest-memory', '128', '--contest-cpu', '2', '--contest-wall', '30']);
});
afterAll(async () => {
  await relay?.stop();
  listener.close();
});

describe('hostile contest submissions', () => {
  it('each fails alone with its sentence; a good one among them is scored as the sim scores it; no socket reaches out', async () => {
    const port = (listener.address() as { port: number }).port;
    const target = `http://127.0.0.1:${port}/x.js`;
    const attempts: [string, string, RegExp][] = [
      ['reads a file', atLoad("const t = process.mainModule.require('fs').readFileSync('/etc/hostname', 'utf8');"), /module body at line 1, column 11: ReferenceError: process is not defined/],
      ['imports a node: module', atLoad("import { readFileSync } from 'node:fs';"), /cannot load other modules/],
      ['imports one at run time', atLoad("const fs = import('node:fs');"), /cannot load other modules/],
      ['calls require', atLoad("const fs = require('node:fs');"), /ReferenceError: require is not defined/],
      ['calls process.exit', atLoad('process.exit(0);'), /ReferenceError: process is not defined/],
      ['reads process.env', atLoad('const home = process.env.HOME;'), /ReferenceError: process is not defined/],
      ['loops for ever at load', atLoad('while (true) {}'), /in the module body: ran longer than its 200 ms budget/],
      ['loops for ever in a callback', inOnAck('for (;;) {}'), /on Verizon-LTE-short: your controller in onAck: ran longer than its 200 ms budget/],
      // stopped by its CPU-time cap, or, on a machine busy enough that the niced run gets under 2 s of CPU in its wall-clock time, by that
      ['backtracks for ever in a regular expression', inOnAck("/(a+)+$/.test('a'.repeat(40) + 'b');"), /used its 2 s of CPU time|did not finish within its \d+ s wall-clock limit/],
      ['allocates gigabytes of heap', atLoad('const big = new Array(2e8).fill(1.5);'), /ran out of its 128 MB of memory/],
      ['allocates an 8 GB buffer', atLoad('const big = new ArrayBuffer(8 * 2 ** 30);'), /RangeError: Array buffer allocation failed/],
      ['waits in Atomics.wait', atLoad('Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);'), /ReferenceError: Atomics is not defined/],
      ['forges the score through Math.log', atLoad('Math.log = () => 50;'), /Cannot assign to read only property 'log'/],
      ['forges the percentile through Array.prototype.sort', atLoad('Array.prototype.sort = function () { return this; };'), /Cannot assign to read only property 'sort'/],
      ['forges a field through Object.prototype', atLoad("Object.defineProperty(Object.prototype, 'score', { get: () => 99 });"), /Cannot define property score, object is not extensible/],
      ['reaches the runner through the Function constructor', atLoad("const g = (function () {}).constructor('return this')();"), /not a valid constructor/],
      ['fetches from a local server', atLoad(`fetch('${target}');`), /ReferenceError: fetch is not defined/],
      ['opens a WebSocket to it', atLoad(`new WebSocket('${target.replace('http', 'ws')}');`), /ReferenceError: WebSocket is not defined/],
      ['imports code from it', atLoad(`const m = import('${target}');`), /cannot load other modules/],
    ];
    const ids = attempts.map((_, i) => `hostile${i}@red`);
    const posted = [];
    for (const [i, [, code]] of attempts.entries()) {
      posted.push(await postSubmission(relay.url, { id: ids[i], code }));
      // the good one waits in the queue among the hostile ones
      if (i === 8) posted.push(await postSubmission(relay.url, { id: 'good@blue', code: GOOD }));
    }
    // one submission waiting per id: a second while the first waits is refused
    const twice = await postSubmission(relay.url, { id: ids.at(-1), code: GOOD, token: posted.at(-1)!.json.token });
    expect(twice).toEqual({ status: 429, json: { error: `${ids.at(-1)} has a submission waiting to be scored: send the next once it is scored` } });
    expect(posted.map((p) => p.status)).toEqual(posted.map(() => 202));
    const good = posted.splice(9, 1)[0];
    const [goodView, sim] = await Promise.all([settled(relay.url, good.json.submission, 300_000), runCliAsync('server/cli/sim.ts', ['--scheme', GOOD_FILE, '--trace', 'Verizon-LTE-short', '--json'])]);
    const { all } = JSON.parse(sim.stdout);
    expect(goodView).toEqual({ status: 'scored', traces: [{ trace: 'Verizon-LTE-short', throughputMbps: all.throughputMbps, delay95: all.delay95, power: all.power, score: all.score }] });
    const views = await Promise.all(posted.map((p) => settled(relay.url, p.json.submission, 300_000)));
    console.log(views.map((v, i) => `| ${attempts[i][0]} | ${v.status}: ${v.error} |`).join('\n'));
    // every attempt at once, so that a protection removed shows each attempt it lets through
    expect(views.map((v, i) => [attempts[i][0], v.status, attempts[i][2].test(v.error ?? '')])).toEqual(attempts.map(([what]) => [what, 'failed', true]));
    expect(heard).toBe(0);
  }, 600_000);
});
