import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEMES, type SchemeCatalogue, withUserScheme } from '../../shared/controllers/registry.ts';
import { watchCallbacks } from '../../shared/controllers/userWatch.ts';
import { contest, flow } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadSchemeFile } from '../../server/cli/schemeFlags.ts';
import { loadTrace } from '../../server/traces.ts';
import { tempDir } from '../helpers/tempDir.ts';

const SOURCE = `export default {
  title: 'Watched',
  params: [],
  create() {
    return { windowSize() { return 8; }, onAck(ack) {}, onTimeout(now) {}, onSend(seq, now) {} };
  },
};
`;

const dir = tempDir('pipefill-watch-');
let n = 0;
/** The built-ins and the controller loaded last: what the runs here find their schemes in. */
let schemes: SchemeCatalogue = SCHEMES;
async function load(source = SOURCE): Promise<string> {
  const file = join(dir, `c${n++}.js`);
  writeFileSync(file, source);
  const user = await loadSchemeFile(file);
  schemes = withUserScheme(user);
  return user.id;
}

function run(scheme: string): void {
  const spec = contest('Verizon-LTE-short', [flow(scheme)], 1);
  spec.durationMs = 2000;
  runScenario(spec, loadTrace, schemes);
}

afterEach(() => {
  watchCallbacks(null);
  schemes = SCHEMES;
});

describe('the beats of user code', () => {
  it('beat at the first callback, then at most once per 100 ms', async () => {
    const beats: [string, number][] = [];
    watchCallbacks((callback, entered) => beats.push([callback, entered]));
    const id = await load();
    expect(beats).toEqual([['the module body', 1]]);
    const t0 = Date.now();
    run(id);
    const ms = Date.now() - t0;
    expect(beats.length).toBeLessThanOrEqual(2 + ms / 100);
  });

  it('probing, name every callback from the given count on, in order', async () => {
    const id = await load();
    const beats: [string, number][] = [];
    watchCallbacks((callback, entered) => beats.push([callback, entered]), 5);
    run(id);
    // the first callback beats at once; then nothing until the fifth, then every one
    expect(beats[0]).toEqual(['create', 1]);
    expect(beats[1]).toEqual([beats[1][0], 5]);
    expect(beats.slice(1).every(([, e], i) => e === 5 + i)).toBe(true);
    expect(beats.length).toBeGreaterThan(1000);
    expect(beats.filter(([c]) => !['create', 'windowSize', 'onSend', 'onAck'].includes(c))).toEqual([]);
  });

  it('count from the start of each watched run, run after run', async () => {
    const id = await load();
    const counts: number[][] = [];
    for (let i = 0; i < 2; i++) {
      const beats: number[] = [];
      watchCallbacks((_, entered) => beats.push(entered), 3);
      run(id);
      counts.push(beats.slice(0, 4));
    }
    expect(counts).toEqual([
      [1, 3, 4, 5],
      [1, 3, 4, 5],
    ]);
  });

  it('stay silent when nobody watches', async () => {
    const id = await load();
    const beats: unknown[] = [];
    watchCallbacks((c, e) => beats.push([c, e]));
    watchCallbacks(null);
    run(id);
    expect(beats).toEqual([]);
  });

  /** The callbacks-entered counts a slow controller's beats carry, the run cut short after `beats` of them (a contest run of it would last hours). */
  async function beatCounts(onAck: string, preamble: string, beats = 12): Promise<number[]> {
    const id = await load(SOURCE.replace('onAck(ack) {}', `onAck(ack) { ${onAck} }`).replace('export default', `${preamble}\nexport default`));
    const counts: number[] = [];
    watchCallbacks((_, entered) => {
      counts.push(entered);
      if (counts.length === beats) throw new Error('enough');
    });
    expect(() => run(id)).toThrow('enough');
    return counts;
  }

  it('beat while a slow callback runs its loop: the loop guard’s looks at the clock beat, after quick callbacks too', async () => {
    const counts = await beatCounts('if (++k > 300) { const t = Date.now(); while (Date.now() - t < 190) {} }', 'let k = 0;', 6);
    // a beat from inside a callback carries the count its entry did
    expect(counts.slice(1).some((c, i) => c === counts[i])).toBe(true);
  }, 30_000);

  it('look at the clock more often as callbacks slow: a slow call without a loop is beaten every BEAT_MS or so, not every 64', async () => {
    const counts = await beatCounts('JSON.stringify(big);', 'const big = Array.from({ length: 200000 }, (_, i) => ({ i, s: String(i) }));');
    const apart = counts
      .slice(2)
      .map((c, i) => c - counts[i + 1])
      .sort((a, b) => a - b);
    expect(apart[Math.floor(apart.length / 2)]).toBeLessThanOrEqual(48);
  }, 30_000);
});
