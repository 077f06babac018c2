import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withUserScheme } from '../../shared/controllers/registry.ts';
import { ESTIMATE, K } from '../../shared/log/kinds.ts';
import { flow, rateLink } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { loadSchemeFile } from '../../server/cli/schemeFlags.ts';
import { tempDir } from '../helpers/tempDir.ts';

const dir = tempDir('pipefill-ecn-');
let n = 0;

async function load(ecn: string) {
  const file = join(dir, `c${n++}.js`);
  // a fixed window of 60 packets that counts the echoes it is told of, and says so as an estimate
  writeFileSync(
    file,
    `export default { title: 'Counter', params: [], create() {
      let echoes = 0;
      return { ecn: ${ecn}, windowSize() { return 60; }, onAck(ack) { if (typeof ack.ce !== 'boolean') throw new Error('no ce'); if (ack.ce) echoes++; },
        onTimeout() {}, estimates() { return { threshold: echoes }; } };
    } };`,
  );
  return withUserScheme(await loadSchemeFile(file));
}

function run(schemes: Awaited<ReturnType<typeof load>>, ecn: boolean) {
  const link = { ...rateLink(12, 20, undefined, { kind: 'infinite', discipline: { kind: 'codel', target: 5, interval: 100 } }), ecn };
  const r = runScenario(
    { workload: 'contest', link, flows: [flow('user')], seed: 1, durationMs: 5000, offset: null },
    () => {
      throw new Error('no traces');
    },
    schemes,
  );
  let marks = 0;
  let echoes = 0;
  const c = r.log.columns;
  for (let i = 0; i < r.log.length; i++) {
    if (c.kind[i] === K.mark) marks++;
    if (c.kind[i] === K.estimate && c.seq[i] === ESTIMATE.threshold) echoes = c.value[i];
  }
  return { marks, echoes };
}

describe('ECN from a user’s own controller', () => {
  it('a controller that declares ecn sends ECN-capable packets and reads each echo as ack.ce', async () => {
    const schemes = await load("'ect0'");
    const on = run(schemes, true);
    expect(on.marks).toBeGreaterThan(0);
    // every mark comes back as one echo: the count, logged when it moved by more than 1%, trails the
    // marks by at most that and by the marks still on their way back when the run ends
    expect(on.echoes).toBeLessThanOrEqual(on.marks);
    expect(on.echoes).toBeGreaterThanOrEqual(0.95 * on.marks);
    expect(run(schemes, false)).toEqual({ marks: 0, echoes: 0 });
  });

  it('without ecn its packets are Not-ECT; an ecn that is not ect0 or ect1 is refused', async () => {
    expect(run(await load('undefined'), true)).toEqual({ marks: 0, echoes: 0 });
    const bad = await load("'yes'");
    expect(() => run(bad, true)).toThrow(/ecn, if given, must be 'ect0' \(classic ECN\) or 'ect1' \(L4S\)/);
  });
});
