import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIM_USAGE, sim as simMain } from '../../server/cli/sim.ts';
import { MEASUREMENT_FLAGS } from '../../server/cli/sim/simFlags.ts';
import { DEFAULT_MEASUREMENT, runMeasurement } from '../../shared/scenarios/measurement.ts';
import { type MeasuredLink, measurementSpec } from '../../shared/scenarios/measurementLink.ts';
import { fixed } from '../../shared/text/figures.ts';
import { MEASUREMENT_LAB } from '../../web/state/labs.ts';
import { runInProcess } from '../helpers/cli.ts';
import { tempDir } from '../helpers/tempDir.ts';

const sim = (...args: string[]) => runInProcess('sim', simMain, args, SIM_USAGE);
const measurement = (...args: string[]) => sim('--scenario', 'measurement', ...args);
const usage = (message: string) => [2, `sim: ${message}\nRun with --help for the options.\n`, ''];

/** The runs every link flag is for; the measurement's three are for the measurement too. */
const LINKED = '--scenario contest, --sweep, --scoreboard, --scenario offset-constant, --scenario offset-variable, --scenario shared, --scenario bulk, --scenario fairness';

describe('npm run sim -- --scenario measurement', () => {
  it('measures the link --bandwidth, --delay and --jitter set, with the fit the page gets for that link and seed', async () => {
    const cases: [string[], MeasuredLink, number][] = [
      [['--bandwidth', '4', '--delay', '30'], { mbps: 4, delayMs: 30, jitterMs: DEFAULT_MEASUREMENT.jitterMs }, 1],
      [['--bandwidth', '0.3', '--delay', '0', '--jitter', '2.5', '--seed', '7'], { mbps: 0.3, delayMs: 0, jitterMs: 2.5 }, 7],
    ];
    for (const [args, link, seed] of cases) {
      const r = await measurement(...args, '--json');
      expect(r.code, r.stderr).toBe(0);
      const page = runMeasurement(measurementSpec(link, seed));
      expect(JSON.parse(r.stdout), args.join(' ')).toEqual({ truth: link, fit: page.fit, samples: page.samples });
    }
    // the page measures at the default's seed, the command line's default too
    const [cli, page] = [await measurement('--bandwidth', '4', '--delay', '30', '--json'), runMeasurement(measurementSpec({ mbps: 4, delayMs: 30, jitterMs: 0.5 }))];
    expect(JSON.parse(cli.stdout).fit).toEqual(page.fit);
  });

  it('prints the fit against the truth it measured', async () => {
    const r = await measurement('--bandwidth', '4', '--delay', '30', '--jitter', '2', '--seed', '3');
    const { fit } = runMeasurement(measurementSpec({ mbps: 4, delayMs: 30, jitterMs: 2 }, 3));
    expect(r.stdout).toBe(`measured ${fixed(fit.mbps, 3)} Mbit/s and ${fixed(fit.delayMs, 3)} ms one way (truth 4 Mbit/s, 30 ms; jitter ±2 ms) from 35 ping-pongs\n`);
    expect(fit.mbps).not.toBeCloseTo(DEFAULT_MEASUREMENT.mbps, 0);
  });

  it('left out, each setting is the lab’s default', async () => {
    const r = await measurement('--json');
    const { fit } = runMeasurement(DEFAULT_MEASUREMENT);
    expect(JSON.parse(r.stdout)).toMatchObject({ truth: { mbps: 8, delayMs: 12, jitterMs: 0.5 }, fit });
  });

  it('takes the lab’s ranges, not the other runs’ link ranges: a bad value exits 2 naming the flag and its range', async () => {
    const cases: [string[], string][] = [
      [['--bandwidth', '0'], 'bandwidth must be a number from 0.1 to 100 Mbit/s (got "0")'],
      [['--bandwidth', '500'], 'bandwidth must be a number from 0.1 to 100 Mbit/s (got "500")'],
      [['--bandwidth', 'fast'], 'bandwidth must be a number from 0.1 to 100 Mbit/s (got "fast")'],
      [['--delay', 'abc'], 'delay must be a whole number from 0 to 200 ms (got "abc")'],
      [['--delay', '201'], 'delay must be a whole number from 0 to 200 ms (got "201")'],
      [['--delay', '-5'], 'delay must be a whole number from 0 to 200 ms (got "-5")'],
      [['--delay', '1.5'], 'delay must be a whole number from 0 to 200 ms (got "1.5")'],
      [['--jitter', '10.5'], 'jitter must be a number from 0 to 10 ms (got "10.5")'],
      [['--jitter', '0x1'], 'jitter must be a number from 0 to 10 ms (got "0x1")'],
    ];
    for (const [args, message] of cases) {
      const flag = args[0];
      const r = await measurement(...args);
      expect([r.code, r.stderr, r.stdout], args.join(' ')).toEqual(usage(`${flag}: ${message}`));
    }
  });

  it('has the page’s settings: the same ranges, steps and defaults as the lab’s fields', () => {
    const lab = Object.fromEntries(MEASUREMENT_LAB.map((f) => [f.name, f]));
    const pageNames: Record<string, string> = { bandwidth: 'bw', delay: 'delay', jitter: 'jitter' };
    expect(MEASUREMENT_FLAGS.map((f) => f.name)).toEqual(Object.keys(pageNames));
    for (const f of MEASUREMENT_FLAGS) expect({ ...f, name: pageNames[f.name] }).toEqual(lab[pageNames[f.name]]);
  });

  it('--help lists the measurement’s link flags with the lab’s ranges', async () => {
    const help = (await sim('--help')).stdout;
    expect(help).toMatch(/^ {2}--bandwidth +0\.1…100 Mbit\/s +Bandwidth of the link, each way \(default 8\)$/m);
    expect(help).toMatch(/^ {2}--delay +0…200 ms +Delay each way, whatever the message’s size \(default 12\)$/m);
    expect(help).toMatch(/^ {2}--jitter +0…10 ms +Uniform ± noise on each way’s delay \(default 0\.5\)$/m);
  });

  it('still refuses the link flags and outputs it has no use for; the three it takes are for it in other runs’ refusals', async () => {
    const file = join(tempDir(), 'never.csv');
    const cases: [string[], string | RegExp][] = [
      [['--scenario', 'measurement', '--loss', '5'], `--loss is for ${LINKED}, not for --scenario measurement: a link flag sets the scenario's link`],
      [['--scenario', 'measurement', '--ack-jitter', '1'], `--ack-jitter is for ${LINKED}, not for --scenario measurement: a link flag sets the scenario's link`],
      [['--scenario', 'measurement', '--host-jitter', 'off'], /^--host-jitter is for [^:]+, not for --scenario measurement: /],
      [['--scenario', 'measurement', '--summary-csv', file], /^--summary-csv is for [^:]+, not for --scenario measurement: /],
      [['--scenario', 'matrix', '--row', '3', '--jitter', '1'], `--jitter is for ${LINKED}, --scenario measurement, not for --scenario matrix --row N: a link flag sets the scenario's link`],
      [['--scenario', 'matrix', '--bandwidth', '4'], `--bandwidth is for ${LINKED}, --scenario measurement, not for --scenario matrix without --row: a link flag sets the scenario's link`],
    ];
    for (const [args, message] of cases) {
      const r = await sim(...args);
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      const said = r.stderr.replace(/^sim: /, '').replace(/\nRun with --help for the options\.\n$/, '');
      if (typeof message === 'string') expect(said, args.join(' ')).toBe(message);
      else expect(said, args.join(' ')).toMatch(message);
    }
    expect(existsSync(file)).toBe(false);
  });
});
