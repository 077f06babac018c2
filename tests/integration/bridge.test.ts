import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FRAME_DATA, FRAME_SENT, type RelaySession, unframe } from '../../shared/bridge/protocol.ts';
import type { SessionSummary } from '../../shared/relay/sessions.ts';
import { findScheme } from '../../shared/controllers/registry.ts';
import { withDefaults } from '../../shared/controllers/types.ts';
import { liveFetch } from '../../live/liveFetch.ts';
import { nodeClock } from '../../server/clock.ts';
import type { Relay } from '../../server/relay.ts';
import { bridgeTransport, type WebSocketLike } from '../../web/live/bridgeSession.ts';
import { bridgeFetch, SEND_DELAY_MS } from '../../web/live/bridgeFetch.ts';
import { MAX_LEAD_MS } from '../../live/relayClock.ts';
import { asOperator, openBridge, testRelay, until } from '../helpers/relay.ts';
import { judgeTimingUnlessStarved, judgeTimingUnlessStolen, stealMeter, timerLagMeter } from '../helpers/steal.ts';
import { K } from '../../shared/log/kinds.ts';
import { DEFAULT_POLICY } from '../../shared/offset/policy.ts';

describe('the UDP↔WebSocket bridge', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await testRelay();
  });
  afterAll(() => relay.close());

  it('passes datagrams unchanged both ways, stamped with the relay clock', async () => {
    const { ws, got } = openBridge(relay.url, `target=${relay.info.offsetConstant}&receipts=1`);
    await got.ready;
    expect(got.texts[0]).toMatchObject({ type: 'ready', target: relay.info.offsetConstant, transport: 'udp' });
    ws.send(Buffer.from('SendSize\n\n'));
    await until(() => got.frames.filter((f) => f[0] === FRAME_DATA).length === 1 && got.frames.length >= 2);
    const data = unframe(got.frames.find((f) => f[0] === FRAME_DATA)!)!;
    const sent = unframe(got.frames.find((f) => f[0] === FRAME_SENT)!)!;
    expect(Buffer.from(data.payload).toString()).toBe('Size: 60000\n\n');
    expect(new DataView(sent.payload.buffer, sent.payload.byteOffset).getUint32(0)).toBe(1);
    expect(data.relayTime).toBeGreaterThan(0);
    expect(data.relayTime).toBeGreaterThanOrEqual(sent.relayTime); // the reply came after the request left
    ws.close();
  });

  it('tells each page, and that page alone, the key its session is recorded under; a TCP session has none', async () => {
    const before = Date.now();
    const a = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    const b = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await Promise.all([a.got.ready, b.got.ready]);
    const told = [a, b].map(({ got }) => got.texts[0].session as RelaySession);
    expect(told[0].key).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(told[1].key).not.toBe(told[0].key);
    for (const t of told) expect(t.since).toBeGreaterThanOrEqual(before - 1000);
    // each page's text holds its own key, never the other's
    expect(JSON.stringify(a.got.texts)).not.toContain(told[1].key);
    expect(JSON.stringify(b.got.texts)).not.toContain(told[0].key);
    for (const { ws } of [a, b]) ws.send(Buffer.from('SendSize\n\n'));
    const recorded = async () => ((await (await fetch(`${relay.url}/api/sessions`, asOperator(relay))).json()) as SessionSummary[]).map((r) => r.key);
    // the relay's servers record each session under the key its page was told
    await expect.poll(recorded, { timeout: 5000 }).toEqual(expect.arrayContaining(told.map((t) => t.key)));
    const tcp = openBridge(relay.url, `target=${relay.info.echo}&transport=tcp`);
    await tcp.got.ready;
    expect(tcp.got.texts[0].session).toBeUndefined();
    for (const { ws } of [a, b, tcp]) ws.close();
  });

  it('carries the ping-pong protocol to the echo server over TCP', async () => {
    const { ws, got } = openBridge(relay.url, `target=${relay.info.echo}&transport=tcp`);
    await got.ready;
    const m = Buffer.alloc(5000, 9);
    m.writeUInt16BE(5000, 0);
    ws.send(m);
    await until(() => got.frames.reduce((s, f) => s + f.length - 9, 0) >= 5000);
    const back = Buffer.concat(got.frames.map((f) => Buffer.from(unframe(f)!.payload)));
    expect(Buffer.compare(back, m)).toBe(0);
    ws.close();
  });

  it('answers a ping with the relay time, and a bad control message with a non-fatal error', async () => {
    const { ws, got } = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await got.ready;
    ws.send(JSON.stringify({ type: 'ping', t: 42 }));
    ws.send('not json');
    ws.send(JSON.stringify({ type: 'launch' }));
    await until(() => got.texts.length >= 4);
    expect(got.texts[1]).toMatchObject({ type: 'pong', t: 42 });
    expect(got.texts[2]).toMatchObject({ type: 'error', fatal: false, message: 'text messages must be JSON control messages' });
    expect(got.texts[3]).toMatchObject({ type: 'error', fatal: false, message: 'unknown control message "launch" (the bridge takes "ping")' });
    ws.send(Buffer.from('SendSize\n\n'));
    expect(await until(() => got.frames.length === 1)).toBe(true);
    ws.close();
  });

  const refused = async (query: string, origin: string | undefined, pattern: RegExp, r = relay) => {
    const { got } = openBridge(r.url, query, origin);
    await expect(got.ready).rejects.toThrow(pattern);
    const closed = await got.closed;
    expect(closed.code).toBeGreaterThanOrEqual(1000);
    expect(got.texts.at(-1)).toMatchObject({ type: 'error', fatal: true });
  };

  it('refuses a target the operator did not allow, with a message saying so', async () => {
    await refused('target=127.0.0.1:1', relay.url, /target "127\.0\.0\.1:1" over udp is not allowed; allowed: /);
    await refused('target=10.0.0.1:9801', relay.url, /not allowed/);
    await refused(`target=${relay.info.offsetConstant}&transport=tcp`, relay.url, /over tcp is not allowed/);
    await refused('target=nonsense', relay.url, /target "nonsense" over udp is not allowed/);
    await refused(`target=${relay.info.offsetConstant}&transport=sctp`, relay.url, /transport must be udp or tcp/);
  });

  it('names a target, transport or origin of any length and alphabet in its refusal, and cuts the close reason to what a frame holds', async () => {
    const cases: [string, string, string][] = [
      [`target=${encodeURIComponent('😀'.repeat(80))}`, relay.url, `target "${'😀'.repeat(19)}😀…" (160 characters) over udp`],
      [`target=${relay.info.offsetConstant}&transport=${encodeURIComponent('é'.repeat(80))}`, relay.url, `transport must be udp or tcp (got "${'é'.repeat(40)}…" (80 characters))`],
      [`target=${relay.info.offsetConstant}`, `http://${'é'.repeat(100)}`, `origin "http://${'é'.repeat(33)}…" (107 characters)`],
    ];
    for (const [query, origin, message] of cases) {
      const { got } = openBridge(relay.url, query, origin);
      await expect(got.ready).rejects.toThrow();
      const closed = await got.closed;
      // Its own reason, not the relay's error at having failed to send a reason too long for the frame.
      expect(closed.code).toBe(1008);
      expect(Buffer.byteLength(closed.reason)).toBeLessThanOrEqual(123);
      const said = got.texts.at(-1)!;
      expect(said).toMatchObject({ type: 'error', fatal: true });
      expect(said.message).toContain(message);
      expect(closed.reason.endsWith('…')).toBe(true);
      expect(said.message?.startsWith(closed.reason.slice(0, -1))).toBe(true);
    }
  });

  it('refuses a page from another origin', async () => {
    await refused(`target=${relay.info.offsetConstant}`, 'http://elsewhere.example', /origin "http:\/\/elsewhere\.example" is not allowed/);
  });

  it('cleans up after a client that vanishes mid-transfer: no socket, no timer, no session', async () => {
    const { ws, got } = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await got.ready;
    expect(relay.bridge.sessions).toBe(1);
    expect(relay.bridge.openSockets).toBe(1);
    for (let i = 0; i < 20; i++) ws.send(Buffer.from(`Offset: ${i * 1448}\nNumBytes: 1448\n\n`));
    ws.terminate();
    expect(await until(() => relay.bridge.sessions === 0 && relay.bridge.openSockets === 0)).toBe(true);
  });
});

describe('bridge limits', () => {
  it('refuses an oversized message, a session over its rate, and sessions beyond the cap', async () => {
    const relay = await testRelay({ maxMessageBytes: 2000, maxDatagramsPerSecond: 100, maxSessions: 2 });
    const big = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await big.got.ready;
    big.ws.send(Buffer.alloc(3000, 65));
    expect((await big.got.closed).code).toBe(1009);
    expect(big.got.texts.at(-1)).toMatchObject({ fatal: true, message: 'message of 3000 bytes is over the limit of 2000' });

    const fast = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await fast.got.ready;
    for (let i = 0; i < 400; i++) fast.ws.send(Buffer.from('SendSize\n\n'));
    await fast.got.closed;
    expect(fast.got.texts.at(-1)).toMatchObject({ fatal: true, message: 'over the limit of 100 datagrams per second' });

    const a = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    const b = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await Promise.all([a.got.ready, b.got.ready]);
    const c = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await expect(c.got.ready).rejects.toThrow(/already has 2 sessions/);
    expect((await c.got.closed).code).toBe(1013);
    a.ws.close();
    b.ws.close();
    await until(() => relay.bridge.sessions === 0);
    expect(relay.bridge.openSockets).toBe(0);
    await relay.close();
  });

  it('closes a session idle for too long, saying why', async () => {
    const relay = await testRelay({ idleMs: 1000 });
    const s = openBridge(relay.url, `target=${relay.info.offsetConstant}`);
    await s.got.ready;
    await s.got.closed;
    expect(s.got.texts.at(-1)).toMatchObject({ fatal: true, message: 'closed after 1 s without traffic' });
    expect(await until(() => relay.bridge.sessions === 0 && relay.bridge.openSockets === 0)).toBe(true);
    await relay.close();
  });
});

describe('bridge under load', () => {
  it('50 bridged sessions fetching at once all get Result: true', async () => {
    const relay = await testRelay({ fileSize: 30_000, maxSessionsPerClient: 50 });
    const scheme = findScheme('token-pacer')!;
    const fetches = Array.from({ length: 50 }, (_, i) => {
      const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}`, { origin: relay.url });
      return liveFetch(bridgeTransport(ws as unknown as WebSocketLike), nodeClock(), {
        scheme,
        params: withDefaults(scheme.params),
        id: `load${i}@test`,
        giveUpMs: 30_000,
      }).done;
    });
    const outcomes = await Promise.all(fetches);
    expect(outcomes.map((o) => o.result.result)).toEqual(Array(50).fill(true));
    expect(await until(() => relay.bridge.sessions === 0)).toBe(true);
    await relay.close();
  }, 60_000);
});

/**
 * A WebSocket whose incoming messages stop for `ms` once `after` binary frames have come, then arrive all
 * at once, in order: the hop back held up, as a busy machine holds it.
 */
function stallingSocket(url: string, origin: string, after: number, ms: number): WebSocketLike {
  const ws = new WebSocket(url, { origin });
  let frames = 0;
  let until = -1;
  const queued: (() => void)[] = [];
  const add = ws.addEventListener.bind(ws) as (type: string, l: (e: unknown) => void) => void;
  const socket = ws as unknown as WebSocketLike;
  socket.addEventListener = ((type: string, listener: (e: { data: unknown }) => void) => {
    if (type !== 'message') return add(type, listener as (e: unknown) => void);
    add('message', (e) => {
      const m = e as { data: unknown };
      if (typeof m.data !== 'string' && ++frames === after) {
        until = performance.now() + ms;
        setTimeout(() => queued.splice(0).forEach((f) => f()), ms);
      }
      if (performance.now() < until) queued.push(() => listener(m));
      else listener(m);
    });
  }) as WebSocketLike['addEventListener'];
  return socket;
}

describe("the page's fetch through the bridge", () => {
  it('starts once the hop is quiet, and takes no reply held up on the hop back for a loss', async (ctx) => {
    const steal = stealMeter();
    // A server that loses nothing: every timeout is a reply taken for lost.
    const relay = await testRelay({ fileSize: 150_000, policy: { ...DEFAULT_POLICY, loss: 0 } });
    const scheme = findScheme('token-pacer')!;
    const o = { scheme, params: withDefaults(scheme.params), giveUpMs: 30_000 };
    const url = (receipts: string) => `${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}${receipts}`;
    // A 150 ms stall after 40 replies: the plain transport's controller counts the replies then on their way as lost.
    const plain = await liveFetch(bridgeTransport(stallingSocket(url(''), relay.url, 40, 150)), nodeClock(), { ...o, id: 'plain@test' }).done;
    const page = await bridgeFetch(stallingSocket(url('&timed=1'), relay.url, 40, 150), nodeClock(), { ...o, id: 'page@test' }).done;
    expect(plain.result.result).toBe(true);
    expect(page.result.result).toBe(true);
    const timeouts = (o: { log: { count(kind: number): number } }) => o.log.count(K.timeout);
    await relay.close();
    judgeTimingUnlessStolen(ctx, steal);
    expect(timeouts(plain)).toBeGreaterThanOrEqual(3);
    expect(timeouts(page)).toBeLessThan(timeouts(plain));
  }, 60_000);

  // Timing on a shared two-core machine: a run that another process held up is tried again.
  it('puts each request on the wire at its place, a delay after the controller sent it, though the hop holds every other one', { retry: 2, timeout: 60_000 }, async (ctx) => {
    const steal = stealMeter();
    const lag = timerLagMeter();
    const relay = await testRelay({ fileSize: 150_000 });
    const scheme = findScheme('token-pacer')!;
    const url = `${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}&timed=1`;
    const hop = jitteringSocket(url, relay.url);
    const out = await bridgeFetch(hop.socket, nodeClock(), { scheme, params: withDefaults(scheme.params), id: 'jitter@test', giveUpMs: 30_000 }).done;
    await relay.close();
    expect(out.result.result).toBe(true);
    expect(hop.delayed()).toBeGreaterThan(50);
    // Message 1 is the Size request; the data requests follow in the order the log has them.
    const { t, kind } = out.log.columns;
    const sentAt = [...t.subarray(0, out.log.length)].filter((_, i) => kind[i] === K.send);
    const places = sentAt.map((at, i) => hop.asked[i + 2] - at);
    // Each asks to leave a delay after it was sent (plus the relay clock's offset): the delay never shrinks,
    // so the requests keep their order and spacing, and grows at most to MAX_LEAD_MS.
    places.forEach((p, i) => expect(p).toBeGreaterThanOrEqual(places[Math.max(0, i - 1)] - 1e-6));
    expect(places[places.length - 1] - places[0]).toBeLessThanOrEqual(MAX_LEAD_MS - SEND_DELAY_MS);
    const onTime = sentAt.map((_, i) => i + 2).filter((n) => hop.arrived[n] <= hop.asked[n]);
    const late = onTime.map((n) => hop.left[n] - hop.asked[n]).sort((a, b) => a - b);
    judgeTimingUnlessStarved(ctx, steal, lag, { alone: true });
    expect(onTime.length).toBeGreaterThan(sentAt.length / 2);
    expect(
      late[late.length >> 1],
      `the sends' median lateness, ms (one in ten of this process's timers ${lag.late().toFixed(2)} ms late, ${lag.crowd().toFixed(1)} threads ready to run)`,
    ).toBeLessThan(1);
  });

  it('ends with a plain reason when cancelled before the hop is quiet', async () => {
    const relay = await testRelay();
    const scheme = findScheme('token-pacer')!;
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/bridge?target=${relay.info.offsetConstant}&timed=1`, { origin: relay.url });
    const run = bridgeFetch(ws as unknown as WebSocketLike, nodeClock(), { scheme, params: withDefaults(scheme.params), id: 'gone@test', giveUpMs: 30_000 });
    run.cancel();
    await expect(run.done).rejects.toThrow('cancelled');
    expect(await until(() => relay.bridge.sessions === 0)).toBe(true);
    await relay.close();
  });
});

/**
 * A WebSocket that holds every other binary message for a millisecond before it goes (in order), as a busy
 * hop does; by message number, it notes the relay-clock time each timed message asked to leave at, and
 * when the relay reports it arrived and left.
 */
function jitteringSocket(url: string, origin: string) {
  const ws = new WebSocket(url, { origin });
  const asked: number[] = [];
  const arrived: number[] = [];
  const left: number[] = [];
  let binary = 0;
  let held = 0;
  let queue: Promise<void> = Promise.resolve();
  const send = ws.send.bind(ws) as (d: unknown) => void;
  const socket = ws as unknown as WebSocketLike;
  socket.send = (data) => {
    if (typeof data !== 'string') asked[++binary] = new DataView(data.buffer, data.byteOffset).getFloat64(0);
    if (typeof data === 'string' || binary % 2 === 1) {
      queue = queue.then(() => send(data));
      return;
    }
    held++;
    queue = queue.then(() => new Promise<void>((ok) => setTimeout(() => (send(data), ok()), 1)));
  };
  ws.addEventListener('message', (e) => {
    const f = typeof e.data === 'string' ? null : unframe(new Uint8Array(e.data as ArrayBuffer));
    if (f?.type !== FRAME_SENT) return;
    const view = new DataView(f.payload.buffer, f.payload.byteOffset, f.payload.byteLength);
    const n = view.getUint32(0);
    left[n] = f.relayTime;
    arrived[n] = view.getFloat64(4);
  });
  return { socket, asked, arrived, left, delayed: () => held };
}
