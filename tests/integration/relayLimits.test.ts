import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEADLINE_CHECK_MS, HEADERS_TIMEOUT_MS } from '../../server/httpLimits.ts';
import { getFrom, openBridge, testRelay } from '../helpers/relay.ts';

/**
 * One client on one address must not lock the others out: the attacker on 127.0.0.1 exhausts its own
 * share, the victim on 127.0.0.2 is still served. Each limit is set small so the attack is a few dozen
 * sockets.
 */

const portOf = (url: string) => Number(new URL(url).port);

/** A TCP connection from `from`; resolves once connected (or closed first), with a promise of its close. */
function tcp(port: number, from: string): Promise<{ s: Socket; closed: Promise<void>; isClosed(): boolean }> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from });
    let done = false;
    const closed = new Promise<void>((r) => s.once('close', () => ((done = true), r())));
    s.on('error', () => {});
    s.resume(); // read whatever comes, so that the server's close is seen
    const handle = { s, closed, isClosed: () => done };
    s.once('connect', () => resolve(handle));
    s.once('close', () => resolve(handle));
  });
}

/** Waits for `p`, at most `ms`. */
const within = (ms: number, p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, ms))]);

/** A ping-pong message of `size` bytes: its length, then filler. */
const message = (size: number) => {
  const b = Buffer.alloc(size, 7);
  b.writeUInt16BE(size, 0);
  return b;
};

/** Sends one message on a fresh connection from `from` and says whether it came back whole. */
async function echoes(port: number, from: string): Promise<boolean> {
  const c = await tcp(port, from);
  if (c.isClosed()) return false;
  const m = message(50);
  const back = new Promise<boolean>((resolve) => {
    let got = Buffer.alloc(0);
    c.s.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.length >= m.length) resolve(got.equals(m));
    });
    c.closed.then(() => resolve(false));
  });
  c.s.write(m);
  const ok = await back;
  c.s.destroy();
  return ok;
}

describe('HTTP: one address holds at most its share of connections', () => {
  it('slow connections from 127.0.0.1 past --max-http-per-client are closed at once; 127.0.0.2 is still served', async () => {
    const relay = await testRelay({ singleThread: true, maxHttpPerClient: 20 });
    const port = portOf(relay.url);
    const held = [];
    for (let i = 0; i < 25; i++) {
      const c = await tcp(port, '127.0.0.1');
      c.s.write('GET / HTTP/1.1\r\nX-Unfinished: '); // headers never finished
      held.push(c);
    }
    // The five past the share are closed without an answer, long before the headers' deadline closes any.
    await within(5000, Promise.all(held.slice(20).map((c) => c.closed)));
    expect(held.map((c) => c.isClosed())).toEqual([...Array(20).fill(false), ...Array(5).fill(true)]);
    expect((await getFrom(`${relay.url}/api/relay`, '127.0.0.2')).status).toBe(200);
    for (const c of held) c.s.destroy();
    await relay.close();
  });
});

describe('HTTP: headers have a deadline', () => {
  it('a client dripping header lines is closed once its headers are 10 s late, though it never falls silent', async () => {
    const relay = await testRelay({ singleThread: true });
    const c = await tcp(portOf(relay.url), '127.0.0.1');
    const started = Date.now();
    c.s.write('GET / HTTP/1.1\r\n');
    while (!c.isClosed() && Date.now() - started < 20_000) {
      c.s.write('X-Drip: y\r\n');
      await within(500, c.closed);
    }
    const ms = Date.now() - started;
    expect(c.isClosed()).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + 3 * DEADLINE_CHECK_MS + 1000);
    await relay.close();
  }, 30_000);
  it('a connection that sends nothing is closed at the deadline with no answer, which a request sent on it then would take for its own', async () => {
    const relay = await testRelay({ singleThread: true });
    const c = await tcp(portOf(relay.url), '127.0.0.1');
    let answer = '';
    c.s.on('data', (d) => (answer += d));
    await within(HEADERS_TIMEOUT_MS + 3 * DEADLINE_CHECK_MS + 5000, c.closed);
    expect([c.isClosed(), answer]).toEqual([true, '']);
    await relay.close();
  }, 30_000);
  it('a client that never reads nor closes gets its connections back once their headers are late', async () => {
    // Answering a late request and only half-closing would leave its connection held until the client
    // closes, which such a client never does: its share stays taken for good.
    const relay = await testRelay({ singleThread: true, maxHttpPerClient: 5 });
    const port = portOf(relay.url);
    const held: Socket[] = [];
    for (let i = 0; i < 5; i++) {
      const s = connect({ port, host: '127.0.0.1' });
      s.on('error', () => {});
      s.write('GET / HTTP/1.1\r\nX-Unfinished: '); // and never read (the stream stays paused) nor close
      held.push(s);
    }
    const started = Date.now();
    let served = false;
    while (!served && Date.now() - started < HEADERS_TIMEOUT_MS + 3 * DEADLINE_CHECK_MS + 5000) {
      served = await getFrom(`${relay.url}/api/relay`, '127.0.0.1').then(
        (r) => (r.close(), r.status === 200),
        () => false,
      );
      if (!served) await new Promise((r) => setTimeout(r, 500));
    }
    expect(served).toBe(true);
    for (const s of held) s.destroy();
    await relay.close();
  }, 30_000);
});

describe('HTTP: a body no route takes is refused unread', () => {
  it('a GET announcing 2 GB is answered 413 and closed while the client has sent a few MB at most', async () => {
    const relay = await testRelay({ singleThread: true });
    const c = await tcp(portOf(relay.url), '127.0.0.1');
    c.s.write('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000000\r\n\r\n');
    let answer = '';
    c.s.on('data', (d) => (answer += d));
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const started = Date.now();
    // Write as fast as the relay takes it, for at most 64 MB or 10 s.
    while (!c.isClosed() && sent < 64 << 20 && Date.now() - started < 10_000) {
      if (c.s.write(chunk)) sent += chunk.length;
      else await Promise.race([new Promise((r) => c.s.once('drain', r)), c.closed]);
    }
    await c.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(sent).toBeLessThan(8 << 20);
    expect(Date.now() - started).toBeLessThan(2000);
    await relay.close();
  });
});

describe('the echo server', () => {
  it('holds --max-echo-per-client connections of 127.0.0.1 and closes the rest; 127.0.0.2 and bridged pages are still served', async () => {
    const relay = await testRelay({ singleThread: true, maxEchoPerClient: 4, maxSessions: 16 });
    const port = Number(relay.info.echo.split(':')[1]);
    const attack = [];
    for (let i = 0; i < 20; i++) attack.push(await tcp(port, '127.0.0.1'));
    await within(5000, Promise.all(attack.slice(4).map((c) => c.closed)));
    expect(attack.map((c) => c.isClosed())).toEqual([...Array(4).fill(false), ...Array(16).fill(true)]);
    expect(await echoes(port, '127.0.0.2')).toBe(true);
    // Five bridged pages reach the echo server from the relay's own address, past the per-address share.
    const pages = Array.from({ length: 5 }, () => openBridge(relay.url, `transport=tcp&target=${relay.info.echo}`));
    await Promise.all(pages.map((p) => p.got.ready));
    const echoed = await Promise.all(
      pages.map(
        (p) =>
          new Promise<boolean>((resolve) => {
            p.ws.once('message', (d: Buffer, binary) => resolve(binary && d.length > 0));
            p.got.closed.then(() => resolve(false));
            p.ws.send(message(50));
          }),
      ),
    );
    expect(echoed).toEqual([true, true, true, true, true]);
    for (const p of pages) p.ws.close();
    for (const c of attack) c.s.destroy();
    await relay.close();
  });

  it('closes a connection whose message stays unfinished past --stall, long before the idle time', async () => {
    const relay = await testRelay({ singleThread: true, stallMs: 1000, idleMs: 120_000 });
    const port = Number(relay.info.echo.split(':')[1]);
    const c = await tcp(port, '127.0.0.1');
    const started = Date.now();
    c.s.write(message(50)); // a whole message: echoed, and no deadline after it
    c.s.write(message(100).subarray(0, 10)); // then 10 bytes of 100, and nothing more
    await within(8000, c.closed);
    expect(c.isClosed()).toBe(true);
    expect(Date.now() - started).toBeLessThan(8000);
    await relay.close();
  });
});
