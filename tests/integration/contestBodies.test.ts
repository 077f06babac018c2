import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contestRelay, postSubmission, postSubmissionFrom } from '../helpers/contest.ts';

/**
 * Submission bodies being read are bounded per address (two at once; a third is refused before it is read)
 * and in bytes over every address (then 503), so that senders who stall cannot make the relay hold more.
 */

/** The largest body the contest reads: 6 × 256 KB of escaped code and 4 KB more (routes.ts). */
const MAX_BODY = 6 * 256 * 1024 + 4096;

let relay: Awaited<ReturnType<typeof contestRelay>>;
beforeAll(async () => {
  relay = await contestRelay(['--contest-trace', 'Verizon-LTE-short', '--contest-held-out', 'TMobile-LTE-short']);
}, 120_000);
afterAll(() => relay?.stop());

interface Stalled {
  socket: Socket;
  /** The status line's code once the relay answers (it answers only those it refuses). */
  answered: Promise<number>;
}

/** A POST from `from` declaring a body of `MAX_BODY` bytes, of which it sends one and then stalls. */
function stall(from: string): Stalled {
  const { port } = new URL(relay.url);
  const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: from });
  socket.on('error', () => {});
  socket.write(`POST /api/contest/submissions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${MAX_BODY}\r\n\r\n{`);
  const answered = new Promise<number>((resolve) => {
    let text = '';
    socket.on('data', (d) => {
      text += d;
      const status = /^HTTP\/1\.1 (\d+)/.exec(text);
      if (status) resolve(Number(status[1]));
    });
    socket.on('close', () => resolve(0));
  });
  return { socket, answered };
}

/** Resolves once `n` of them are answered, with their statuses. */
async function firstAnswers(held: Stalled[], n: number): Promise<number[]> {
  const statuses: number[] = [];
  await new Promise<void>((resolve) => {
    for (const h of held)
      void h.answered.then((s) => {
        statuses.push(s);
        if (statuses.length === n) resolve();
      });
  });
  return statuses;
}

const GOOD = 'export default { title: "x", params: [], create() { return { windowSize() { return 10; }, onAck() {}, onTimeout() {} }; } };';

describe('the class contest: submission bodies being read', () => {
  it('refuses a third body from one address before reading it; another address still submits', async () => {
    const held = [stall('127.0.0.1'), stall('127.0.0.1'), stall('127.0.0.1')];
    try {
      expect(await firstAnswers(held, 1)).toEqual([429]);
      expect((await postSubmissionFrom(relay.url, '127.0.0.2', { id: 'other@blue', code: GOOD })).status).toBe(202);
    } finally {
      for (const h of held) h.socket.destroy();
    }
    // the places are freed as the connections close: the address submits again
    for (let tries = 0; ; tries++) {
      const again = await postSubmission(relay.url, { id: `again${tries}@red`, code: GOOD });
      if (again.status === 202) break;
      expect(again.status).toBe(429);
      expect(tries).toBeLessThan(200);
    }
  });

  it('refuses bodies past the bytes read at once over every address with 503; the budget comes back', async () => {
    // 30 bodies of MAX_BODY from 15 addresses, two each: 21 fit in 32 MB
    const held = Array.from({ length: 30 }, (_, i) => stall(`127.0.1.${1 + Math.floor(i / 2)}`));
    try {
      const statuses = await firstAnswers(held, 9);
      expect(statuses).toEqual(Array(9).fill(503));
      expect(await stall('127.0.2.1').answered).toBe(503);
    } finally {
      for (const h of held) h.socket.destroy();
    }
    // the bytes are freed as the connections close: a body of the largest size is read whole again
    const whole = JSON.stringify({ id: 'whole@red', code: GOOD }).padEnd(MAX_BODY, ' ');
    for (let tries = 0; ; tries++) {
      const again = await postSubmissionFrom(relay.url, '127.0.2.2', whole);
      if (again.status === 202) break;
      expect(again.status).toBe(503);
      expect(tries).toBeLessThan(200);
    }
  });
});
