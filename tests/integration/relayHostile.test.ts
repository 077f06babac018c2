import { symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serveWatch } from '../../server/link/watch.ts';
import type { Relay } from '../../server/relay.ts';
import { HTTP_CONNECTIONS_BESIDE_SESSIONS } from '../../server/relayHttp.ts';
import { openBridge, testRelay, until } from '../helpers/relay.ts';
import { tempDir } from '../helpers/tempDir.ts';

/** A dist folder with a page, and files no server can send: a socket, a loop of links, a file that fails on read. */
function hostileDist(): { dir: string; close(): void } {
  const dir = tempDir('pipefill-dist-');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>page</title>');
  const socket = createServer().listen(join(dir, 'sock.js'));
  symlinkSync(join(dir, 'loop.js'), join(dir, 'loop.js'));
  symlinkSync('/proc/self/mem', join(dir, 'mem.js'));
  return { dir, close: () => socket.close() };
}

/** One request on a raw socket: what came back before the server closed it. */
function raw(port: number, head: string, after?: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => s.write(`${head}\r\n\r\n`));
    let out = '';
    s.on('data', (d) => {
      out += d.toString('latin1');
      if (after && out.includes('\r\n\r\n')) s.write(after);
    });
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
  });
}

/** A client's masked WebSocket text frame. */
function maskedText(payload: Buffer): Buffer {
  const mask = Buffer.from([1, 2, 3, 4]);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))]);
}

/**
 * A TCP port nothing listens on: below the ephemeral range, which every server of the suite binds from (an
 * ephemeral port found free could be handed to a server of a test file running alongside before the connect).
 */
const closedPort = 1;

describe('relay: hostile requests get their own answer and leave the relay serving', () => {
  let relay: Relay;
  let dist: ReturnType<typeof hostileDist>;
  let port: number;
  beforeAll(async () => {
    dist = hostileDist();
    relay = await testRelay({
      allow: [`127.0.0.1:${closedPort}`],
      distDir: dist.dir,
      singleThread: true,
      maxBufferedBytes: 64 * 1024,
      stallMs: 60_000,
      maxDatagramsPerSecond: 1e6,
      maxBytesPerSecond: 1e9,
    });
    port = Number(new URL(relay.url).port);
  });
  afterAll(async () => {
    await relay.close();
    dist.close();
  });

  it('a path that starts with // is a path, not a host: the API is not served under another name', async () => {
    expect(await raw(port, 'GET //elsewhere.example/api/relay HTTP/1.1\r\nHost: x\r\nConnection: close')).toMatch(/^HTTP\/1\.1 200[\s\S]*content-type: text\/html/);
    expect(await raw(port, 'GET //x/y.js HTTP/1.1\r\nHost: x\r\nConnection: close')).toMatch(/^HTTP\/1\.1 404[\s\S]*no such file: "\/\/x\/y\.js"/);
    expect(await raw(port, 'GET //:99999/ HTTP/1.1\r\nHost: x\r\nConnection: close')).toMatch(/^HTTP\/1\.1 200/);
    expect((await fetch(`${relay.url}/api/relay`)).status).toBe(200);
  });

  it('a request that asks to upgrade to anything but the bridge is answered in HTTP/1.1, as if it had not asked', async () => {
    const got = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${relay.url}/api/relay`, { headers: { connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': '' } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body)).toMatchObject({ bridge: '/bridge' });
    expect(await raw(port, 'GET http://a:99999/bridge HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket')).toMatch(/^HTTP\/1\.1 400[\s\S]*bad path: "http:\/\/a:99999\/bridge"/);
  });

  it('a file in the app’s folder that cannot be sent fails its own request only', async () => {
    for (const name of ['sock.js', 'loop.js']) expect((await fetch(`${relay.url}/${name}`)).status, name).toBe(404);
    // Opens, then fails on its first read: the response already begun is cut off.
    await fetch(`${relay.url}/mem.js`)
      .then((r) => r.text())
      .catch(() => '');
    expect(await (await fetch(`${relay.url}/`)).text()).toContain('<title>page</title>');
  });

  it('a page being refused that then sends a bad frame is closed, and the relay keeps serving', async () => {
    const upgrade = (origin: string) =>
      `GET /bridge?target=${relay.info.offsetConstant} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}`;
    const unmasked = Buffer.from([0x81, 0x02, 0x68, 0x69]);
    const badUtf8 = maskedText(Buffer.from([0xff, 0xfe]));
    for (const frame of [unmasked, badUtf8]) expect(await raw(port, upgrade('http://elsewhere.example'), frame)).toMatch(/^HTTP\/1\.1 101[\s\S]*is not allowed/);
    expect((await fetch(`${relay.url}/api/relay`)).status).toBe(200);
  });

  it('a TCP target with nothing listening is named as such', async () => {
    const s = openBridge(relay.url, `target=127.0.0.1:${closedPort}&transport=tcp`);
    await s.got.closed;
    expect(s.got.texts.at(-1)).toEqual({ type: 'error', fatal: true, message: `TCP: nothing is listening at 127.0.0.1:${closedPort}` });
  });

  it('a page that sends control messages and never reads gets no replies past --max-buffered', async () => {
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}`, { origin: relay.url });
    await new Promise((r) => ws.once('message', r)); // ready
    ws.pause();
    // 88 bytes of reply to each 7 bytes on the wire: 9 MB of replies, more than the sockets' buffers hold
    const before = relay.bridge.droppedForSlowReaders;
    for (let i = 0; i < 100_000 && ws.readyState === ws.OPEN; i++) {
      ws.send('x');
      if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
    }
    expect(await until(() => relay.bridge.droppedForSlowReaders - before > 10_000, 10_000)).toBe(true);
    ws.terminate();
  }, 30_000);
});

describe('the link tool’s watch endpoint: hostile requests', () => {
  it('answers a request target that is neither a path nor a URL, and keeps serving the trace', async () => {
    const watch = await serveWatch({ rowCount: 1, csv: () => 't_ms\n1\n' }, { host: '127.0.0.1', port: 0 });
    expect(await raw(watch.port, 'GET http://a:99999/link.csv HTTP/1.1\r\nHost: x\r\nConnection: close')).toMatch(/^HTTP\/1\.1 404/);
    expect(await raw(watch.port, 'GET //x/link.csv HTTP/1.1\r\nHost: x\r\nConnection: close')).toMatch(/^HTTP\/1\.1 404/);
    expect(await (await fetch(`http://127.0.0.1:${watch.port}/link.csv`)).text()).toBe('t_ms\n1\n');
    watch.close();
  });

  it('closes a connection holding an unfinished request when it closes, so the link can exit', async () => {
    const watch = await serveWatch({ rowCount: 1, csv: () => 't_ms\n1\n' }, { host: '127.0.0.1', port: 0 });
    const s = connect(watch.port, '127.0.0.1');
    await new Promise<void>((r) => s.once('connect', () => r()));
    s.write('GET /link.csv HTTP/1.1\r\nHost: x\r\n');
    const closed = new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), 2000);
      s.once('close', () => {
        clearTimeout(t);
        resolve(true);
      });
    });
    // The server must have read the partial head before it closes, else there is no open request to cut.
    await new Promise((r) => setTimeout(r, 50));
    watch.close();
    const byItself = await closed;
    s.destroy();
    expect(byItself).toBe(true);
  });
});

describe('relay: HTTP connections are bounded', () => {
  it('past its sessions and the room beside them, a new connection is closed at once, and the relay serves again once they go', async () => {
    const relay = await testRelay({ maxSessions: 1, maxHttpPerClient: 10_000, singleThread: true });
    const port = Number(new URL(relay.url).port);
    const cap = 1 + HTTP_CONNECTIONS_BESIDE_SESSIONS;
    const open = (): Promise<{ s: Socket; closed: Promise<void> }> =>
      new Promise((resolve) => {
        const s = connect(port, '127.0.0.1', () => {
          s.write('GET / HTTP/1.1\r\nX-Unfinished: '); // headers never finished
          resolve({ s, closed: new Promise((r) => s.once('close', () => r())) });
        });
        s.on('error', () => {});
      });
    const held = [];
    for (let i = 0; i < cap; i++) held.push(await open());
    const over = await open();
    await over.closed; // closed without an answer, long before the headers' timeout
    for (const h of held) h.s.destroy();
    await Promise.all(held.map((h) => h.closed));
    const connections = () => new Promise<number>((r) => relay.http.getConnections((_, n) => r(n)));
    for (let i = 0; i < 100 && (await connections()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await fetch(`${relay.url}/api/relay`)).status).toBe(200);
    await relay.close();
  }, 30_000);
});
