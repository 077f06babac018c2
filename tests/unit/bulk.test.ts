import { describe, expect, it } from 'vitest';
import { SIM_USAGE, sim as simMain } from '../../server/cli/sim.ts';
import { fairnessPairs } from '../../shared/scenarios/bulk.ts';
import { runInProcess } from '../helpers/cli.ts';

const sim = async (...args: string[]) => {
  const r = await runInProcess('sim', simMain, args, SIM_USAGE);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
};
type Flow = { scheme: string; link: { throughputMbps: number } };

/** Two CUBIC flows on 50 Mbit/s, 25 ms each way, 50 packets of drop-tail: the setting of Floyd and Jacobson's phase effects. */
const PHASE = ['--scenario', 'bulk', '--scheme', 'cubic,cubic', '--bandwidth', '50', '--delay', '25', '--queue', 'packets', '--queue-limit', '50', '--duration', '60', '--json'];

describe('long-lived flows and the fairness grid', () => {
  it('a comma list of schemes is as many flows, in the contest and in bulk', async () => {
    expect((await sim('--scheme', 'reno,cubic', '--json')).flows.map((f: Flow) => f.scheme)).toEqual(['reno', 'cubic']);
    const bulk = await sim('--scenario', 'bulk', '--scheme', 'reno,cubic', '--flows', '3', '--duration', '5', '--json');
    expect(bulk.flows.map((f: Flow) => f.scheme)).toEqual(['reno', 'cubic', 'reno']);
    expect(bulk.endMs).toBe(5000);
  });

  it('each unordered pair once, a scheme against itself included', () => {
    expect(fairnessPairs(['a', 'b', 'c', 'a'])).toEqual([
      ['a', 'a'],
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'b'],
      ['b', 'c'],
      ['c', 'c'],
    ]);
  });

  it('the hosts’ timing noise breaks the phase lock of two CUBIC flows on a drop-tail queue', async () => {
    const rates = (r: { flows: Flow[] }) => r.flows.map((f) => f.link.throughputMbps);
    const [a, b] = rates(await sim(...PHASE, '--host-jitter', 'off'));
    expect(Math.max(a, b) / Math.min(a, b)).toBeGreaterThan(1.5);
    const [c, d] = rates(await sim(...PHASE));
    expect(Math.max(c, d) / Math.min(c, d)).toBeLessThan(1.1);
  });

  it('prints each pair’s shares of the fair rate; one BBR flow takes at least 1.2× its share from CUBIC in half a BDP of drop-tail', async () => {
    const { cells } = await sim('--scenario', 'fairness', '--scheme', 'bbr,cubic', '--duration', '30', '--json');
    expect(cells.map((c: { a: string; b: string }) => [c.a, c.b])).toEqual([
      ['bbr', 'bbr'],
      ['bbr', 'cubic'],
      ['cubic', 'cubic'],
    ]);
    const mixed = cells[1];
    expect(mixed.shareA).toBeGreaterThanOrEqual(1.2);
    expect(mixed.shareA + mixed.shareB).toBeGreaterThan(1.8);
    expect(mixed.shareA + mixed.shareB).toBeLessThanOrEqual(2);
  });
});
