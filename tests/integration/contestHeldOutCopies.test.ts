import { describe, expect, it } from 'vitest';
import { HELD_OUT_TRACE } from '../../shared/contest/api.ts';
import { contestRelay } from '../helpers/contest.ts';

/** A held-out trace cut from a longer bundled one: the longer one would give it away. */
describe('a served trace that contains a held-out one', () => {
  it('is not served either, and the relay says so at start', async () => {
    const relay = await contestRelay(['--contest-trace', 'Verizon-LTE-short', '--contest-held-out', 'TMobile-LTE-short', '--dist', 'public']);
    try {
      expect(relay.out()).toContain('contest         TMobile-LTE-driving.down not served either: it contains the held-out TMobile-LTE-short.down');
      expect(relay.out()).toContain(`scorer(s) · the class view ${relay.url}/?view=contest\n`);
      // started without --data: the instructor is told a restart would lose the class's submissions
      expect(relay.out()).toContain('contest         submissions and their ids’ tokens kept in memory only: a restart forgets them (--data DIR keeps them)');
      for (const path of ['/traces/TMobile-LTE-driving.down', '/traces/TMobile-LTE-driving.down.gz', '/TMobile-LTE-driving.down']) {
        const res = await fetch(`${relay.url}${path}`);
        expect([path, res.status, (await res.json()).error]).toEqual([path, 404, HELD_OUT_TRACE]);
      }
      expect((await fetch(`${relay.url}/traces/Verizon-LTE-short.down`)).status).toBe(200);
    } finally {
      await relay.stop();
    }
  }, 60_000);

  it('as a public trace, stops the relay from starting: a trace is either served or held out', async () => {
    await expect(contestRelay(['--contest-trace', 'TMobile-LTE-driving', '--contest-held-out', 'TMobile-LTE-short'])).rejects.toThrow(
      'the public trace file TMobile-LTE-driving.down contains the held-out TMobile-LTE-short.down: a trace is either served or held out',
    );
  }, 60_000);
});
