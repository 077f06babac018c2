import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FRAME_DATA, unframe } from '../../shared/bridge/protocol.ts';
import { ERROR_INVALID } from '../../shared/offset/protocol.ts';
import type { Relay } from '../../server/relay.ts';
import { openBridge, testRelay, until } from '../helpers/relay.ts';
import { text, UdpProbe } from '../helpers/udp.ts';
import { judgeTimingUnlessStarved, stealMeter, timerLagMeter } from '../helpers/steal.ts';

const payloads = (got: { frames: Buffer[] }) => got.frames.filter((f) => f[0] === FRAME_DATA).map((f) => Buffer.from(unframe(f)!.payload).toString('latin1'));

describe('relay faults: hostile control messages and datagrams', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await testRelay();
  });
  afterAll(() => relay.close());

  it('answers any JSON value as a control message with a non-fatal error, and keeps serving', async () => {
    const { ws, got } = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await got.ready;
    const hostile = ['null', '[]', '"ping"', '1', 'true', '{"type":{}}', '{"type":null}', `{"type":"${'x'.repeat(900)}"}`, '{"type":"ping","t":"soon"}'];
    for (const m of hostile) ws.send(m);
    await until(() => got.texts.length >= 1 + hostile.length);
    expect(got.texts.slice(1, 8).map((t) => t.type)).toEqual(Array(7).fill('error'));
    // a value with no "type" of text, "ping" among them, is told what is taken: never "unknown control message undefined"
    for (const t of got.texts.slice(1, 8)) expect(t).toMatchObject({ fatal: false, message: 'a control message must be a JSON object with a "type" (the bridge takes "ping")' });
    expect(got.texts[8].message).toBe(`unknown control message "${'x'.repeat(40)}…" (900 characters) (the bridge takes "ping")`); // never echoed whole
    expect(got.texts[9]).toMatchObject({ type: 'pong', t: 0 });
    ws.send(Buffer.from('SendSize\n\n'));
    expect(await until(() => payloads(got).length === 1)).toBe(true);
    ws.close();
    const udp = await UdpProbe.open(Number(relay.info.offsetVariable.split(':')[1]));
    udp.send('SendSize\n\n');
    expect(text(await udp.next())).toBe('Size: 60000\n\n');
    udp.close();
  });

  it('answers HTTP requests no handler expects with an error, and keeps serving', async () => {
    const raw = (line: string, upgrade = false) =>
      new Promise<string>((resolve) => {
        const port = Number(new URL(relay.url).port);
        const s = connect(port, '127.0.0.1', () => s.write(`${line}\r\nHost: x\r\n${upgrade ? 'Connection: Upgrade\r\nUpgrade: websocket\r\n' : 'Connection: close\r\n'}\r\n`));
        let out = '';
        s.on('data', (d) => (out += d));
        s.on('close', () => resolve(out));
        s.on('error', () => resolve(out));
      });
    expect(await raw('GET http://a:99999/ HTTP/1.1')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(`GET /api/sessions/%E0%A4%A/csv HTTP/1.1\r\nAuthorization: Bearer ${relay.operator.token}`)).toMatch(/^HTTP\/1\.1 404/);
    expect(await raw('POST /api/leaderboard HTTP/1.1')).toMatch(/^HTTP\/1\.1 405/);
    expect(await raw('GET http://a:99999/bridge HTTP/1.1', true)).toMatch(/^HTTP\/1\.1 400/); // an upgrade to nowhere: answered as a request
    expect((await fetch(`${relay.url}/api/relay`)).status).toBe(200);
  });

  it('answers a 64 KB datagram of many header lines with one error each, at once', async () => {
    const udp = await UdpProbe.open(Number(relay.info.offsetConstant.split(':')[1]));
    const junk = Buffer.from('Offset: 1\n'.repeat(6500));
    // Five at a time: a host whose receive buffers are capped below the server's 4 MB would drop a burst of 50.
    for (let i = 0; i < 50; i += 5) {
      for (let k = 0; k < 5; k++) udp.send(junk);
      for (let k = 0; k < 5; k++) expect(text(await udp.next(1000))).toBe(`${ERROR_INVALID}\n\n`);
    }
    expect(await udp.next(100)).toBeNull();
    udp.close();
  });

  it('counts text frames against the message rate, and refuses a text frame over the control size', async () => {
    // The offset servers are not what this is about: in this thread, to spare starting two.
    const limited = await testRelay({ maxDatagramsPerSecond: 10, singleThread: true });
    const fast = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    await fast.got.ready;
    const t0 = Date.now();
    for (let i = 0; i < 400; i++) fast.ws.send(JSON.stringify({ type: 'ping', t: i }));
    await fast.got.closed;
    expect(fast.got.texts.at(-1)).toMatchObject({ fatal: true, message: 'over the limit of 10 datagrams per second' });
    // The bucket holds a burst of 100 and refills at 10/s while a busy machine works through the 400.
    const refilled = Math.ceil((10 * (Date.now() - t0)) / 1000);
    expect(fast.got.texts.filter((t) => t.type === 'pong').length).toBeLessThanOrEqual(100 + refilled);
    const big = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    await big.got.ready;
    big.ws.send(JSON.stringify({ type: 'x'.repeat(5000) }));
    expect((await big.got.closed).code).toBe(1009);
    expect(big.got.texts.at(-1)?.message).toMatch(/^message of 5\d{3} bytes is over the limit of 1024$/);
    await limited.close();
  });

  it('refuses a UDP message larger than UDP carries, and a session over its byte rate', async () => {
    const limited = await testRelay({ maxBytesPerSecond: 100_000, singleThread: true });
    const huge = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    await huge.got.ready;
    expect(huge.got.texts[0]).toMatchObject({ limits: { maxMessageBytes: 65_507 } });
    huge.ws.send(Buffer.alloc(65_510, 65));
    expect((await huge.got.closed).code).toBe(1009);
    expect(huge.got.texts.at(-1)?.message).toBe('message of 65510 bytes is over the limit of 65507');
    const heavy = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    await heavy.got.ready;
    for (let i = 0; i < 10; i++) heavy.ws.send(Buffer.alloc(60_000, 65));
    await heavy.got.closed;
    expect(heavy.got.texts.at(-1)).toMatchObject({ fatal: true, message: 'over the limit of 100000 bytes per second' });
    await limited.close();
  });

  it('caps sessions per client address', async () => {
    const limited = await testRelay({ maxSessionsPerClient: 2, singleThread: true });
    const a = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    const b = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    await Promise.all([a.got.ready, b.got.ready]);
    const c = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    await expect(c.got.ready).rejects.toThrow('127.0.0.1 already has 2 sessions on this relay; close one first');
    a.ws.close();
    await until(() => limited.bridge.sessions === 1);
    const d = openBridge(limited.url, `target=${limited.info.offsetConstant}`);
    await d.got.ready;
    await limited.close();
  });
});

describe('relay faults: peers that stop', () => {
  it('closes a peer that stops answering pings within the stall time', async () => {
    const relay = await testRelay({ stallMs: 500, singleThread: true });
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}`, { origin: relay.url, autoPong: false });
    const texts: { message?: string }[] = [];
    ws.on('message', (d, bin) => bin || texts.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.on('open', r));
    const t0 = Date.now();
    await new Promise((r) => ws.on('close', r));
    expect(Date.now() - t0).toBeLessThan(4000); // the watchdog looks once a second: ping, then 500 ms without a pong
    expect(texts.at(-1)?.message).toBe('closed: no answer to a ping for 1 s');
    expect(await until(() => relay.bridge.sessions === 0)).toBe(true);
    await relay.close();
  }, 15_000);

  it('a page that sends but never reads: the target is paused, the session closed with a reason, memory bounded', async (ctx) => {
    const steal = stealMeter();
    const lag = timerLagMeter();
    const relay = await testRelay({ stallMs: 500, maxBufferedBytes: 256 * 1024, maxBytesPerSecond: 1e9, maxDatagramsPerSecond: 1e6, singleThread: true });
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.echo}&transport=tcp`, { origin: relay.url });
    const texts: { message?: string }[] = [];
    ws.on('message', (d, bin) => bin || texts.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.on('open', r));
    ws.pause(); // stop reading
    const m = Buffer.alloc(60_000, 7);
    m.writeUInt16BE(60_000, 0);
    const rss0 = process.memoryUsage().rss;
    let closed = false;
    ws.on('close', () => (closed = true));
    const end = Date.now() + 6000;
    while (!closed && Date.now() < end) {
      if (ws.bufferedAmount < 4 << 20) ws.send(m);
      await new Promise((r) => setImmediate(r));
    }
    expect(await until(() => relay.bridge.sessions === 0, 4000)).toBe(true);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(200 << 20);
    // A page that does not read cannot read the reason either: the relay counts it and says it in its log.
    const cutOff = relay.bridge.cutOff;
    await relay.close();
    expect(Object.values(cutOff)).toEqual([1]);
    // On a starved machine the data may not pile up past the bound before the unread ping times out.
    judgeTimingUnlessStarved(ctx, steal, lag);
    expect(cutOff).toEqual({ 'stopped reading': 1 });
  }, 20_000);
});

describe('relay faults: sessions stay apart', () => {
  it('with --key ip, each bridged browser keeps its own server session', async () => {
    const relay = await testRelay({ keyBy: 'ip' });
    const a = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    const b = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await Promise.all([a.got.ready, b.got.ready]);
    a.ws.send(Buffer.from('SendSize\nReset\n\n'));
    await until(() => payloads(a.got).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    b.ws.send(Buffer.from('SendSize\nReset\n\n')); // B's Reset must not restart A's clock
    await until(() => payloads(b.got).length === 1);
    a.ws.send(Buffer.from(`Submit: a@t\nMD5: ${'0'.repeat(32)}\n\n`));
    await until(() => payloads(a.got).length === 2);
    expect(Number(/Time: (\d+)/.exec(payloads(a.got)[1])![1])).toBeGreaterThanOrEqual(300);
    // A plain client on the same address is keyed by address alone, as the course server does.
    const one = await UdpProbe.open(Number(relay.info.offsetConstant.split(':')[1]));
    const two = await UdpProbe.open(Number(relay.info.offsetConstant.split(':')[1]));
    const reset = Date.now();
    one.send('SendSize\nReset\n\n');
    await one.answer(/^Size: /);
    one.send('Offset: 0\nNumBytes: 10\n\n');
    await new Promise((r) => setTimeout(r, 50));
    two.send(`Submit: b@t\nMD5: ${'0'.repeat(32)}\n\n`);
    const graded = (await two.answer(/^Result: /))!;
    expect(graded).toMatch(/Time: \d+\nPenalty: [01]\n/);
    // one session for the address: its time runs from one's Reset, not from two's first datagram
    const time = Number(/Time: (\d+)/.exec(graded)![1]);
    expect(time).toBeGreaterThanOrEqual(48);
    expect(time).toBeLessThanOrEqual(Date.now() - reset + 1);
    one.close();
    two.close();
    a.ws.close();
    b.ws.close();
    await relay.close();
  });

  it('an offset server keeps at most its session cap, whatever the number of source ports', async () => {
    const relay = await testRelay({ serverSessions: 50, singleThread: true });
    const port = Number(relay.info.offsetConstant.split(':')[1]);
    const sockets = Array.from({ length: 200 }, () => createSocket('udp4'));
    for (const s of sockets) s.send('SendSize\n\n', port, '127.0.0.1');
    const server = relay.constant as unknown as { handled: number; policy: { sessionCount: number } };
    expect(await until(() => server.handled === 200, 10_000)).toBe(true); // all 200 read, however busy the machine
    expect(server.policy.sessionCount).toBe(50);
    for (const s of sockets) s.close();
    await relay.close();
  });
});
