import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_DATA, unframe } from '../../shared/bridge/protocol.ts';
import { encodeDataRequest, encodeSizeRequest } from '../../shared/offset/protocol.ts';
import { openBridge, testRelay, until } from '../helpers/relay.ts';

let strict: Awaited<ReturnType<typeof testRelay>>;
let lenient: Awaited<ReturnType<typeof testRelay>>;
beforeAll(async () => {
  strict = await testRelay();
  lenient = await testRelay({ allowSessionPolicy: true });
});
afterAll(async () => {
  await strict.close();
  await lenient.close();
});

/** Data replies a plain bridge session gets for `n` requests sent 30 ms apart (a token each at 250/s). */
async function dataReplies(relay: typeof strict, query: string, n: number): Promise<number> {
  const s = openBridge(relay.url, `target=${relay.info.offsetConstant}&${query}`);
  await s.got.ready;
  s.ws.send(encodeSizeRequest(true));
  await until(() => s.got.frames.length > 0);
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, 30));
    s.ws.send(encodeDataRequest(i * 1448, 1448));
  }
  await new Promise((r) => setTimeout(r, 100));
  s.ws.close();
  const text = s.got.frames.map((f) => unframe(new Uint8Array(f))!).filter((f) => f.type === FRAME_DATA);
  return text.filter((f) => new TextDecoder().decode(f.payload.subarray(0, 7)) === 'Offset:').length;
}

describe('a live session asking for its own policy', () => {
  it('is refused with the flag to use when the operator does not allow it', async () => {
    const s = openBridge(strict.url, `target=${strict.info.offsetConstant}&srv.rate=100`);
    await expect(s.got.ready).rejects.toThrow('--allow-session-policy');
    const info = await (await fetch(`${strict.url}/api/relay`)).json();
    expect(info.sessionPolicy).toBe(false);
  });

  it('is refused with the bound it breaks, and only for the relay’s own servers', async () => {
    const s = openBridge(lenient.url, `target=${lenient.info.offsetConstant}&srv.rate=0`);
    await expect(s.got.ready).rejects.toThrow(/rate/);
    const echo = openBridge(lenient.url, `target=${lenient.info.echo}&transport=tcp&srv.rate=100`);
    await expect(echo.got.ready).rejects.toThrow("the relay's own offset servers only");
  });

  it('is refused for a name the server has no parameter of, whatever the name, quoted as every message quotes', async () => {
    const proto = openBridge(lenient.url, `target=${lenient.info.offsetConstant}&srv.__proto__=1`);
    await expect(proto.got.ready).rejects.toThrow(/^the offset server has no parameter "__proto__" \(its parameters: /);
    const long = openBridge(lenient.url, `target=${lenient.info.offsetConstant}&srv.${'x'.repeat(3000)}=1`);
    await expect(long.got.ready).rejects.toThrow(`the offset server has no parameter "${'x'.repeat(40)}…" (3000 characters) (its parameters: `);
  });

  it('gets the policy it asked for from the relay’s server, and its neighbour keeps the relay’s', async () => {
    const info = await (await fetch(`${lenient.url}/api/relay`)).json();
    expect(info.sessionPolicy).toBe(true);
    // Every request that finds a token is dropped under loss=100%: no data at all.
    expect(await dataReplies(lenient, 'srv.loss=100', 12)).toBe(0);
    // The relay's own 11% loss: most of the twelve come back.
    expect(await dataReplies(lenient, '', 12)).toBeGreaterThanOrEqual(6);
  }, 20_000);
});
