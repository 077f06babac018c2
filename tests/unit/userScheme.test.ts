import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findScheme, SCHEMES, type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { prepareUserCode, UserCodeError } from '../../shared/controllers/userCode.ts';
import { CALLBACK_BUDGET_MS } from '../../shared/controllers/userInstalled.ts';
import { wallClock } from '../../shared/controllers/wallClock.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { loadSchemeFile } from '../../server/cli/schemeFlags.ts';
import { loadTrace } from '../../server/traces.ts';
import { tempDir } from '../helpers/tempDir.ts';

const dir = tempDir('pipefill-user-');
let n = 0;
/** The built-ins and the controller loaded last: what the runs here find their schemes in. */
let schemes: SchemeCatalogue = SCHEMES;

/** Writes a controller module and loads it as the user scheme. */
async function load(source: string): Promise<string> {
  const file = join(dir, `c${n++}.js`);
  writeFileSync(file, source);
  const user = await loadSchemeFile(file);
  schemes = withUserScheme(user);
  return user.id;
}

const run = (scheme: string, params = {}) => {
  const spec = contest('Verizon-LTE-short', [flow(scheme, params)], 1);
  spec.durationMs = 5000;
  return runScenario(spec, loadTrace, schemes);
};

/** What a failure says, or "no error". */
async function failure(f: () => unknown): Promise<string> {
  try {
    await f();
    return 'no error';
  } catch (e) {
    expect(e).toBeInstanceOf(UserCodeError);
    return (e as Error).message;
  }
}

const controller = (body: string, params = '[]') => `export default {
  title: 'Test',
  params: ${params},
  create(p) {
    let w = 4;
    return {
${body}
    };
  },
};
`;
const BASE = `      windowSize() { return w; },
      onAck(ack) {},
      onTimeout(now) {},`;

afterEach(() => {
  schemes = SCHEMES;
});

describe('a user controller', () => {
  it('written as a fixed window gives the numbers of the built-in fixed window', async () => {
    const id = await load(
      controller(`      windowSize() { return p.w; },\n      onAck(ack) {},\n      onTimeout(now) {},`, "[{ name: 'w', unit: 'packets', min: 1, max: 1000, step: 1, default: 16, doc: 'window' }]"),
    );
    const mine = summarize(run(id, { w: 24 }));
    const theirs = summarize(run('fixed', { w: 24 }));
    expect(mine.all).toEqual(theirs.all);
    expect(mine.events).toBe(theirs.events);
    expect(mine.all.throughputMbps).toBeGreaterThan(0);
  });

  it('reports a thrown error with the callback, line and column', async () => {
    const id = await load(controller(`      windowSize() { return w; },\n      onAck(ack) {\n        if (ack.seq > 20) ack.missing.field = 1;\n      },\n      onTimeout(now) {},`));
    expect(await failure(() => run(id))).toBe("your controller in onAck at line 9, column 45: TypeError: Cannot set properties of undefined (setting 'field')");
  });

  it('keeps columns right on a line whose loop got a guard', async () => {
    const id = await load(controller(`      windowSize() { return w; },\n      onAck(ack) { for (let i = 0; i < 2; i++) w += 0; null.x; },\n      onTimeout(now) {},`));
    expect(await failure(() => run(id))).toMatch(/^your controller in onAck at line 8, column 61: TypeError: Cannot read properties of null \(reading 'x'\)$/);
  });

  it('reports NaN, negative, infinite and memory-filling windows instead of clamping them', async () => {
    for (const [value, shown] of [
      ['NaN', 'NaN'],
      ['-1', '-1'],
      ['Infinity', 'Infinity'],
      ["'8'", 'string'],
      ['1e12', '1000000000000'],
      ['1000001', '1000001'],
    ]) {
      const id = await load(controller(`      windowSize() { return ${value}; },\n      onAck(ack) {},\n      onTimeout(now) {},`));
      expect(await failure(() => run(id))).toBe(`your controller in windowSize: returned ${shown}; it must be a number from 0 to 1,000,000 (packets)`);
    }
  });

  it('says what was thrown even when the value cannot be printed, and names a getter of the export that never returns', async () => {
    const id = await load(controller(`      windowSize() { return 4; },\n      onAck(ack) { throw Object.create(null); },\n      onTimeout(now) {},`));
    expect(await failure(() => run(id))).toMatch(/^your controller in onAck.*: threw a value that cannot be printed$/);
    const tricky = await load(controller(`      windowSize() { return 4; },\n      onAck(ack) { throw { toString() { throw new Error('inner'); } }; },\n      onTimeout(now) {},`));
    expect(await failure(() => run(tricky))).toMatch(/^your controller in onAck.*: threw a value that cannot be printed$/);
    const getter = 'export default { get title() { for (;;) {} }, params: [], create() { return {}; } };\n';
    expect(await failure(() => load(getter))).toBe(`your controller: reading the module's export: ran longer than its ${CALLBACK_BUDGET_MS} ms budget (an endless loop?) and was stopped`);
  });

  it('stops an endless loop in a callback within its budget and names the callback', async () => {
    const id = await load(controller(`      windowSize() { return w; },\n      onAck(ack) { while (true) {} },\n      onTimeout(now) {},`));
    const t0 = Date.now();
    expect(await failure(() => run(id))).toBe(`your controller in onAck: ran longer than its ${CALLBACK_BUDGET_MS} ms budget (an endless loop?) and was stopped`);
    expect(Date.now() - t0).toBeLessThan(CALLBACK_BUDGET_MS + 1000);
  });

  it('stops an endless loop whose code stopped Date.now first: the guard reads the clock as the model found it', async () => {
    const now = Date.now;
    try {
      // bounded by a clock of its own, so that a guard that missed it would end in an answer, not in a hang
      const id = await load(
        controller(
          `      windowSize() { return w; },\n      onAck(ack) { if (w++ > 4) return; Date.now = () => 0; const t = performance.now(); while (performance.now() - t < ${3 * CALLBACK_BUDGET_MS}) {} },\n      onTimeout(now) {},`,
        ),
      );
      expect(await failure(() => run(id))).toBe(`your controller in onAck: ran longer than its ${CALLBACK_BUDGET_MS} ms budget (an endless loop?) and was stopped`);
    } finally {
      Date.now = now;
    }
  });

  it('stops a loop without braces and a do-while too', async () => {
    for (const loop of ['for (;;) w += 0;', 'do w += 0; while (w > 0);']) {
      const id = await load(controller(`      windowSize() { return w; },\n      onAck(ack) {},\n      onTimeout(now) {},\n      onSend(seq) { if (seq > 3) ${loop} },`));
      expect(await failure(() => run(id))).toMatch(/^your controller in onSend: ran longer than its/);
    }
  });

  it('stops an endless loop in the module body and reports a throw there with its line', async () => {
    expect(await failure(() => load('while (1) {}\nexport default {};\n'))).toMatch(/^your controller in the module body: ran longer than its/);
    expect(await failure(() => load('const x = 1;\nundefinedThing();\nexport default {};\n'))).toBe(
      'your controller in the module body at line 2, column 1: ReferenceError: undefinedThing is not defined',
    );
  });

  it('rejects a malformed export with what is wrong', async () => {
    expect(await failure(() => load('export default 3;'))).toBe('your controller: the module must `export default { title, params, create(params) }`');
    expect(await failure(() => load(controller(BASE, "[{ name: 'w', min: 5, max: 1, step: 1, default: 2 }]")))).toBe('your controller: params[0] (w): needs min ≤ max and step > 0');
    expect(await failure(() => load(controller(BASE, "[{ name: 'w', min: 1, max: 9, step: 1, default: 20 }]")))).toBe('your controller: params[0] (w): default 20 is outside 1…9');
    expect(await failure(() => load(controller(BASE, "[{ name: 'k', choices: ['x'], default: 'y' }]")))).toBe('your controller: params[0] (k): default must be one of the choices');
    // what the page builds a control for is bounded: more is refused, longer texts are cut
    const many = JSON.stringify(Array.from({ length: 33 }, (_, i) => ({ name: `p${i}`, min: 0, max: 1, step: 1, default: 0 })));
    expect(await failure(() => load(controller(BASE, many)))).toBe('your controller: params declares more than 32 parameters: a controller takes at most 32');
    // a list that answers each read differently is read once
    const fickle = `let reads = 0;\nexport default { title: 'Fickle', get params() { return ++reads > 1 ? ${many} : []; }, create() { return {}; } };`;
    expect(await failure(() => load(fickle))).toBe('no error');
    expect(findScheme('user', schemes)!.params).toHaveLength(0);
    const proxied = `const list = ${many}; let n = 0;\nexport default { title: 'Proxied', params: new Proxy(list, { get: (t, k) => (k === 'length' ? (n++ ? 33 : 1) : t[k]) }), create() { return {}; } };`;
    expect(await failure(() => load(proxied))).toBe('no error');
    expect(findScheme('user', schemes)!.params).toHaveLength(1);
    const choices = JSON.stringify([{ name: 'k', choices: Array.from({ length: 33 }, (_, i) => `c${i}`), default: 'c0' }]);
    expect(await failure(() => load(controller(BASE, choices)))).toBe('your controller: params[0] (k): declares more than 32 choices');
    expect(await failure(() => load(controller(BASE, `[{ name: 'k', choices: ['${'x'.repeat(65)}'], default: 'x' }]`)))).toBe('your controller: params[0] (k): a choice is longer than 64 characters');
    await load(controller(BASE, `[{ name: 'w', unit: '${'u'.repeat(40)}', min: 1, max: 9, step: 1, default: 2, doc: '${'d'.repeat(600)}' }]`));
    const [w] = findScheme('user', schemes)!.params;
    expect([w.doc.length, w.kind === 'number' && w.unit.length]).toEqual([500, 32]);
    const noAck = await load(controller(`      windowSize() { return w; },\n      onTimeout(now) {},`));
    expect(await failure(() => run(noAck))).toBe('your controller in create: the controller create returns has no onAck() method');
  });

  it('reports a syntax error with its line', async () => {
    expect(await failure(() => load('export default {\n  title: "x" "y",\n  params: [],\n};\n'))).toBe('your controller at line 2, column 14: syntax error (the code is not valid JavaScript here)');
    // the parser accepts a redeclaration, the engine does not: its message and line
    expect(await failure(() => load('let x = 1;\nlet x = 2;\nexport default {};\n'))).toBe("your controller at line 2: SyntaxError: Identifier 'x' has already been declared");
  });

  it('refuses to load other modules, which would reach the network', async () => {
    const refused = 'a controller cannot load other modules (it runs with no network): keep all its code in this one';
    expect(await failure(() => load("const a = 1;\nimport x from 'http://127.0.0.1:9/x.js';\nexport default {};\n"))).toBe(`your controller at line 2, column 1: ${refused}`);
    expect(await failure(() => load("export default {\n  title: 't', params: [], create() { return import('data:text/javascript,1'); },\n};\n"))).toBe(
      `your controller at line 2, column 45: ${refused}`,
    );
    expect(await failure(() => load("export * from 'http://127.0.0.1:9/x.js';\n"))).toBe(`your controller at line 1, column 1: ${refused}`);
    // import.meta is no module load
    expect(await failure(() => load(controller(`      windowSize() { return import.meta ? 2 : 1; },\n      onAck(ack) {},\n      onTimeout(now) {},`)))).toBe('no error');
  });

  it('fills the optional methods with the built-in defaults', async () => {
    const id = await load(controller(BASE));
    const c = findScheme(id, schemes)!.create({});
    expect([c.pacingRate(), c.burstSize(), c.timeoutMs(), c.estimates()]).toEqual([Infinity, 4, 1000, {}]);
  });

  it('lets many short loops run for longer than the budget in all, each call counted on its own', async () => {
    // 600 iterations a call: the guard reads the clock twice in each call. A clock that moves 60% of the budget
    // per reading keeps each call within it, while the run's calls together take far longer.
    const id = await load(controller(`      windowSize() { for (let i = 0; i < 600; i++) w += 0; return w; },\n      onAck(ack) {},\n      onTimeout(now) {},`));
    const spec = contest('Verizon-LTE-short', [flow(id)], 1);
    spec.durationMs = 5_000;
    let readings = 0;
    const clock = vi.spyOn(wallClock, 'now').mockImplementation(() => readings++ * CALLBACK_BUDGET_MS * 0.6);
    try {
      expect(runScenario(spec, loadTrace, schemes).log.length).toBeGreaterThan(1000);
    } finally {
      clock.mockRestore();
    }
    expect(readings * CALLBACK_BUDGET_MS * 0.6).toBeGreaterThan(100 * CALLBACK_BUDGET_MS);
  });

  it('checks every estimates object, also after the same names passed before', async () => {
    const answers = `[{ rttMin: 40, bandwidth: 1.5 }, { rttMin: 41, bandwidth: 1.6 }, { rttMin: 42, guess: 2 }, { rttMin: 43 }, { rttMin: 44, bandwidth: '1' }, { rttMin: 45, bandwidth: 1.7, srtt: 50 }, { bandwidth: 1.8, rttMin: 46 }, { rttMin: 47, bandwidth: 1.9 }]`;
    const id = await load(controller(`${BASE}\n      estimates() { return answers[n++]; },`).replace('create(p) {', `create(p) {\n    let n = 0;\n    const answers = ${answers};`));
    const c = findScheme(id, schemes)!.create({});
    const seen = Array.from({ length: 8 }, () => c.estimates());
    expect(seen).toStrictEqual([
      { rttMin: 40, bandwidth: 1.5 },
      { rttMin: 41, bandwidth: 1.6 },
      { rttMin: 42 },
      { rttMin: 43 },
      { rttMin: 44 },
      { rttMin: 45, bandwidth: 1.7, srtt: 50 },
      { bandwidth: 1.8, rttMin: 46 },
      { rttMin: 47, bandwidth: 1.9 },
    ]);
  });

  it('passes known estimates through as they are and keeps only the known numbers of any other', async () => {
    const estimates = `      estimates() { return n++ === 0 ? known : { rttMin: 40, srtt: '45', toString: 3, constructor: 1, guess: 2 }; },`;
    const id = await load(controller(`${BASE}\n${estimates}`).replace('create(p) {', 'create(p) {\n    let n = 0;\n    const known = { rttMin: 40, bandwidth: 1.5 };'));
    const c = findScheme(id, schemes)!.create({});
    const first = c.estimates();
    expect(first).toEqual({ rttMin: 40, bandwidth: 1.5 });
    expect(c.estimates()).toStrictEqual({ rttMin: 40 });
  });
});

describe('the loop guard', () => {
  it('maps positions in the guarded text back to the user text', () => {
    const p = prepareUserCode('while (a) b();\nfor (;;) { c(); }\n');
    expect(p.code).toBe('while (a) {__pipefillTick();b();}\nfor (;;) {__pipefillTick();{ c(); }}\n');
    expect(p.original({ line: 1, column: 29 })).toEqual({ line: 1, column: 11 });
    expect(p.original({ line: 2, column: 29 })).toEqual({ line: 2, column: 11 });
    expect(p.original({ line: 1, column: 3 })).toEqual({ line: 1, column: 3 });
  });
});
