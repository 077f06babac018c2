import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../server/echoServer.ts';
import { until } from '../helpers/relay.ts';

function message(total: number, fill: number): Buffer {
  const b = Buffer.alloc(total, fill);
  b.writeUInt16BE(total, 0);
  return b;
}

/** Writes `chunks` to a fresh connection and collects `expect` bytes back (or until it closes). */
function exchange(port: number, chunks: Buffer[], expectBytes: number): Promise<{ data: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    let size = 0;
    s.on('data', (d) => {
      got.push(d);
      size += d.length;
      if (size >= expectBytes) {
        s.destroy();
        resolve({ data: Buffer.concat(got), closed: false });
      }
    });
    s.on('close', () => resolve({ data: Buffer.concat(got), closed: true }));
    s.on('connect', async () => {
      for (const c of chunks) {
        s.write(c);
        await new Promise((r) => setTimeout(r, 5));
      }
    });
  });
}

/** Limits no test here reaches but the pacing test's own. */
const OPEN = { idleMs: 5000, partialMs: 5000, maxConnections: 16, perAddress: { messagesPerSecond: 1e9, bytesPerSecond: 1e12 } };

/** Resolves once `socket` has had `bytes` back, with all it got; `got` holds it meanwhile. */
function received(socket: Socket, bytes: number, got: Buffer[] = []): Promise<Buffer> {
  return new Promise((resolve) => {
    let size = 0;
    socket.on('data', (d) => {
      got.push(d);
      size += d.length;
      if (size >= bytes) resolve(Buffer.concat(got));
    });
  });
}

describe('ping-pong echo server over TCP', () => {
  let echo: EchoServer;
  beforeAll(async () => {
    echo = await startEchoServer({ ...OPEN, host: '127.0.0.1', port: 0, maxPerAddress: 4 });
  });
  afterAll(() => echo.close());

  it('echoes messages of 18 to 65,535 bytes byte-identical', async () => {
    for (const size of [18, 100, 1448, 10_000, 65_535]) {
      const m = message(size, size % 251);
      const back = await exchange(echo.port, [m], size);
      expect(Buffer.compare(back.data, m), `size ${size}`).toBe(0);
    }
  });

  it('one address holds at most its share of connections; the next is closed and the others stay served', async () => {
    const capped = await startEchoServer({ ...OPEN, host: '127.0.0.1', port: 0, maxPerAddress: 2 });
    const held = [connect(capped.port, '127.0.0.1'), connect(capped.port, '127.0.0.1')];
    await Promise.all(held.map((s) => new Promise((r) => s.once('connect', r))));
    await new Promise((r) => setTimeout(r, 50));
    expect(await exchange(capped.port, [message(20, 7)], 20)).toEqual({ data: Buffer.alloc(0), closed: true });
    held[0].destroy();
    await new Promise((r) => setTimeout(r, 50));
    const m = message(20, 7);
    expect(Buffer.compare((await exchange(capped.port, [m], 20)).data, m)).toBe(0);
    held[1].destroy();
    await capped.close();
  });

  it('reassembles a message split across writes and separates messages sharing one', async () => {
    const a = message(30_000, 1);
    const b = message(20, 2);
    const c = message(500, 3);
    const stream = Buffer.concat([a, b, c]);
    const back = await exchange(echo.port, [stream.subarray(0, 1), stream.subarray(1, 20_001), stream.subarray(20_001)], stream.length);
    expect(Buffer.compare(back.data, stream)).toBe(0);
    // A length's two bytes apart, then a message dripped in pieces.
    const dripped = message(300, 4);
    const pieces = [dripped.subarray(0, 1), dripped.subarray(1, 2), ...Array.from({ length: 10 }, (_, k) => dripped.subarray(2 + k * 30, Math.min(300, 32 + k * 30)))];
    expect(Buffer.compare((await exchange(echo.port, pieces, 300)).data, dripped)).toBe(0);
  });

  it('closes a connection whose length cannot frame a message, and keeps serving others', async () => {
    const bad = await exchange(echo.port, [Buffer.from([0, 1, 9, 9])], 1);
    expect(bad.closed).toBe(true);
    const m = message(64, 7);
    expect(Buffer.compare((await exchange(echo.port, [m], 64)).data, m)).toBe(0);
  });

  it('a client that stops reading is paced by one drain listener, then gets every byte back', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const stream = Buffer.concat(Array.from({ length: 200_000 }, (_, i) => message(100, i % 256)));
    const s = connect(echo.port, '127.0.0.1');
    s.pause();
    await new Promise((r) => s.on('connect', r));
    s.write(stream);
    await new Promise((r) => setTimeout(r, 300)); // the echo's writes back up while nobody reads
    const got: Buffer[] = [];
    let size = 0;
    await new Promise<void>((done) => {
      s.on('data', (d) => {
        got.push(d);
        size += d.length;
        if (size >= stream.length) done();
      });
      s.resume();
    });
    s.destroy();
    process.off('warning', onWarning);
    expect(Buffer.compare(Buffer.concat(got), stream)).toBe(0);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('a flood of tiny messages from one address is echoed at its budget, and another address is echoed at once meanwhile', async () => {
    // 1,000 messages a second: 100 at once, then the 2,900 others over 2.9 s at the least.
    const paced = await startEchoServer({ ...OPEN, host: '0.0.0.0', port: 0, maxPerAddress: 4, perAddress: { messagesPerSecond: 1000, bytesPerSecond: 1e12 } });
    const flood = Buffer.concat(Array.from({ length: 3000 }, (_, i) => message(2 + (i % 2), 0)));
    const flooder = connect({ port: paced.port, host: '127.0.0.1' });
    await new Promise((r) => flooder.once('connect', r));
    const t0 = performance.now();
    const got: Buffer[] = [];
    const all = received(flooder, flood.length, got);
    flooder.write(flood);
    expect(await until(() => got.length > 0, 10_000)).toBe(true);
    const victim = connect({ port: paced.port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    const m = message(64, 9);
    victim.once('connect', () => victim.write(m));
    expect(Buffer.compare(await received(victim, 64), m)).toBe(0);
    const floodBackThen = got.reduce((n, b) => n + b.length, 0);
    expect(Buffer.compare(await all, flood)).toBe(0);
    // The victim's echo came while the flood was still held back, and the flood took its budget's time.
    expect(floodBackThen).toBeLessThan(flood.length);
    expect(performance.now() - t0).toBeGreaterThan(2900 - 100);
    flooder.destroy();
    victim.destroy();
    await paced.close();
  });
});
