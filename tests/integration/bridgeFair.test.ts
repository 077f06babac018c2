import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_DATA } from '../../shared/bridge/protocol.ts';
import type { Relay } from '../../server/relay.ts';
import { openBridge, testRelay, until } from '../helpers/relay.ts';

const RATE = 2000;
/** A tenth of a second's messages (server/bridgeBudget.ts). */
const BURST = RATE / 10;
const SESSIONS = 20;
const EACH = 500;

describe("one address's bridge sessions share a budget", () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await testRelay({ maxClientDatagramsPerSecond: RATE });
  });
  afterAll(() => relay.close());

  it('a flood from many sessions of 127.0.0.1 waits its turn while a page of 127.0.0.2 is answered at once', async () => {
    const flood = Array.from({ length: SESSIONS }, () => openBridge(relay.url, `target=${relay.info.offsetConstant}`, relay.url, { localAddress: '127.0.0.1' }));
    const victim = openBridge(relay.url, `target=${relay.info.offsetConstant}`, relay.url, { localAddress: '127.0.0.2' });
    await Promise.all([...flood.map((f) => f.got.ready), victim.got.ready]);
    const answered = () => flood.reduce((n, f) => n + f.got.frames.filter((x) => x[0] === FRAME_DATA).length, 0);

    const started = performance.now();
    for (const f of flood) for (let i = 0; i < EACH; i++) f.ws.send(Buffer.from('SendSize\n\n'));
    // the victim's requests, one after another, each waiting for its answer
    for (let i = 1; i <= 20; i++) {
      victim.ws.send(Buffer.from('SendSize\n\n'));
      expect(await until(() => victim.got.frames.length >= i, 20_000)).toBe(true);
    }
    const elapsed = performance.now() - started;
    const floodAnswered = answered();

    // Every session opened with the budget full: since then it refilled at RATE.
    expect(floodAnswered).toBeLessThanOrEqual(BURST + (RATE * elapsed) / 1000 + 1);
    expect(floodAnswered).toBeLessThan(SESSIONS * EACH);
    expect(victim.got.texts.filter((t) => t.type === 'error')).toEqual([]);
    // The flood was held, not refused: it was told why, and its answers keep coming.
    expect(
      flood.some((f) =>
        f.got.texts.some((t) => t.type === 'error' && t.fatal === false && /over the limit of 2000 messages per second shared by the \d+ sessions of 127\.0\.0\.1/.test(String(t.message))),
      ),
    ).toBe(true);
    expect(await until(() => answered() >= floodAnswered + BURST, 20_000)).toBe(true);
    expect(flood.every((f) => f.ws.readyState === f.ws.OPEN)).toBe(true);
    for (const { ws } of [...flood, victim]) ws.terminate();
  }, 60_000);
});
