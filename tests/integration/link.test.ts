import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { K } from '../../shared/log/kinds.ts';
import { idleDelays, lossAndDuplication, overloadRate, ProbeEnds, startLinkProcess } from '../../server/link/probe.ts';
import { type Address, EmulatedLink } from '../../server/link/emulatedLink.ts';
import { readLinkFlags } from '../../server/link/flags.ts';
import { formatLinkReport, linkReport } from '../../server/link/summary.ts';
import { loadTrace } from '../../server/traces.ts';
import { rateLink } from '../../shared/scenarios/presets.ts';
import { LINK_USAGE, linkMain } from '../../server/cli/link.ts';
import { runInProcess } from '../helpers/cli.ts';
import { runCliAsync } from '../helpers/cliAsync.ts';
import { judgeTimingUnlessStarved, judgeTimingUnlessStolen, stealMeter, timerLagMeter } from '../helpers/steal.ts';
import { tempDir } from '../helpers/tempDir.ts';

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)];

describe('npm run link: the emulated link between real programs', () => {
  let ends: ProbeEnds;
  let shaped: Awaited<ReturnType<typeof startLinkProcess>>;
  let lossy: Awaited<ReturnType<typeof startLinkProcess>>;
  const csv = join(tempDir('pipefill-link-'), 'link.csv');
  /** The shaped link's whole life, which its SIGINT report's lateness covers. */
  const lifetime = stealMeter();
  const lifetimeLag = timerLagMeter();

  beforeAll(async () => {
    ends = await ProbeEnds.open();
    const to = ['--to', `127.0.0.1:${ends.receiverPort}`];
    [shaped, lossy] = await Promise.all([
      startLinkProcess([...to, '--bandwidth', '8', '--latency', '20', '--queue', 'packets', '--queue-limit', '200', '--csv', csv, '--json']),
      startLinkProcess([...to, '--bandwidth', '1000', '--latency', '0', '--loss', '10', '--duplicate', '20', '--seed', '3']),
    ]);
  });

  afterAll(async () => {
    await Promise.all([shaped?.stop(), lossy?.stop()]);
    ends?.close();
  });

  // Timing on a shared two-core machine: a run that lands beside a browser test is tried again.
  it('adds --latency to an idle link, within 1 ms at the median', { retry: 2 }, async (ctx) => {
    const steal = stealMeter();
    const lag = timerLagMeter();
    const direct = median(await idleDelays(ends, ends.receiverPort, 60, 2, 0));
    const via = await idleDelays(ends, shaped.port, 100, 4);
    const added = median(via) - direct;
    expect(added).toBeGreaterThan(19);
    // Nothing overtakes on a link without jitter or reordering.
    expect(ends.arrivals.map((a) => a.id)).toEqual(ends.arrivals.map((_, i) => i));
    judgeTimingUnlessStarved(ctx, steal, lag, { alone: true });
    expect(Math.abs(added - 20)).toBeLessThan(1);
  });

  it('delivers at --bandwidth (within 5%) when overloaded at 1.5 times the rate', { retry: 2 }, async (ctx) => {
    const steal = stealMeter();
    const mbps = await overloadRate(ends, shaped.port, 8, 1200);
    judgeTimingUnlessStolen(ctx, steal);
    expect(Math.abs(mbps - 8) / 8).toBeLessThan(0.05);
  });

  it('carries payloads of every size byte for byte, and the replies back through the link', async () => {
    const sizes = [0, 1, 12, 1000, 1472, 9000, 65_507];
    const sent = sizes.map((n) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + n) & 255)));
    const got: Buffer[] = [];
    // The overload before leaves a queue that drains at 8 Mbit/s (longer on a starved host): echoed, it would
    // come back to the sender among these.
    await drained(ends);
    // The receiver behind this link is the probe's, echoing; the sender is the probe's, the link's one sender.
    const sender = ends.sender;
    const keep = (m: Buffer) => got.push(m);
    ends.echo = true;
    ends.arrivals.length = 0;
    sender.on('message', keep);
    const t0 = performance.now();
    for (const b of sent) sender.send(b, shaped.port, '127.0.0.1');
    for (let i = 0; i < 100 && got.length < sent.length; i++) await new Promise((r) => setTimeout(r, 20));
    const rtt = performance.now() - t0;
    ends.echo = false;
    sender.off('message', keep);
    expect(got.map((b) => b.length).sort((a, b) => a - b)).toEqual(sizes);
    for (const b of sent) expect(got.some((g) => g.equals(b))).toBe(true);
    // Out and back: 20 ms each way, plus 65 kB at 8 Mbit/s (66 ms) each way for the largest.
    expect(rtt).toBeGreaterThan(40 + 2 * 65);
  });

  it('loses and duplicates within 2 points of the setting over 10,000 datagrams', async () => {
    const r = await lossAndDuplication(ends, lossy.port, 10_000);
    expect(Math.abs(r.loss - 0.1)).toBeLessThan(0.02);
    expect(Math.abs(r.duplicate - 0.2)).toBeLessThan(0.02);
    expect(r.loss).toBeGreaterThan(0);
  });

  it('prints what crossed it on SIGINT and writes the trace CSV', async (ctx) => {
    const out = await shaped.stop();
    const report = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(report.forward.datagrams).toBeGreaterThan(100);
    expect(report.forward.delivered + report.forward.queueDrops).toBe(report.forward.datagrams);
    expect(report.forward.queueDrops).toBeGreaterThan(0);
    expect(report.reverse.delivered).toBe(7);
    const trace = parseTraceCsv(readFileSync(csv, 'utf8'));
    expect(trace.log.count(K.send)).toBe(report.forward.datagrams);
    expect(trace.log.count(K.deliver)).toBe(report.forward.delivered);
    expect(trace.log.count(K.drop)).toBe(report.forward.queueDrops);
    judgeTimingUnlessStarved(ctx, lifetime, lifetimeLag, { alone: true });
    // The seven echoes, growing in size, each spend 20 ms plus their own transmission at 8 Mbit/s in the
    // reply direction: the median is the 1000-byte one's, 20 + 1028 · 8 / 8000 ms.
    expect(Math.abs(report.reverse.delayP50 - 21.028)).toBeLessThan(0.5);
    // Sub-millisecond timing: whole-millisecond timers alone leave events over half a millisecond late.
    expect(report.lateness.p50).toBeLessThan(0.3);
  });

  it('refuses bad flags with exit 2 and a message naming the flag', async () => {
    const r = await runCliAsync('server/cli/link.ts', ['--listen', '127.0.0.1:0', '--to', '127.0.0.1:9', '--delay', '5']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--delay.*the one-way delay is --latency/);
    const cases: [() => unknown, RegExp][] = [
      [() => readLinkFlags({ bandwidth: '0' }), /--bandwidth: bandwidth must be a number from 0.001/],
      [() => readLinkFlags({ 'ack-loss': '101' }), /--ack-loss: ackLoss must be a number from 0 to 100/],
      [() => readLinkFlags({ queue: 'fifo' }), /--queue: queue must be one of infinite, packets, bytes/],
      [() => readLinkFlags({ trace: '/no/such/trace' }), /no bundled trace or file named/],
      [() => readLinkFlags({ trace: 'Verizon-LTE-short.down', bandwidth: '5' }), /--bandwidth and --trace both/],
      [() => readLinkFlags({ 'codel-target': '500' }), /--codel-target would change nothing: it is a setting of codel, and the queue's discipline is drop-tail/],
    ];
    for (const [bad, message] of cases) expect(bad).toThrow(message);
    const neverStopped = () => {
      throw new Error('the proxy started');
    };
    const addresses: [string[], string][] = [
      [['--listen', 'here', '--to', '127.0.0.1:9'], '--listen must be HOST:PORT with an IPv4 address and a port from 0 to 65535 (got "here")'],
      [['--listen', '127.0.0.1:0', '--to', '127.0.0.1:0'], '--to must be HOST:PORT with an IPv4 address and a port from 1 to 65535 (got "127.0.0.1:0")'],
      [['--listen', '127.0.0.1:0'], '--to HOST:PORT is required'],
      [['--listen', '127.0.0.1:0', '--to', '127.0.0.1:9', '--watch', 'example.org:80'], '--watch must be HOST:PORT with an IPv4 address and a port from 0 to 65535 (got "example.org:80")'],
      [['--listen', '127.0.0.1:9', '--to', '127.0.0.1:9'], '--to must differ from --listen: the link would send to itself'],
      [['--listen', '127.0.0.1:9', '--to', 'localhost:9'], '--to must differ from --listen: the link would send to itself'],
      [['--listen', '0.0.0.0:9', '--to', '127.0.0.1:9'], '--to must differ from --listen: the link would send to itself'],
    ];
    for (const [args, message] of addresses) {
      const out = await runInProcess('link', (argv, io) => linkMain(argv, io, neverStopped), args, LINK_USAGE);
      expect([out.code, out.stderr, out.stdout], args.join(' ')).toEqual([2, `link: ${message}\nRun with --help for the options.\n`, '']);
    }
  });

  it('reads the link flags into the model link: --latency is the delay, ack- flags the reply direction', () => {
    const link = readLinkFlags({ latency: '7', bandwidth: '3', loss: '5', 'ack-duplicate': '2', queue: 'bytes', 'queue-limit': '3000' });
    expect(link).toMatchObject({ kind: 'rate', delayMs: 7, mbps: 3, ackMbps: 3, queue: { kind: 'bytes', limit: 3000 } });
    expect(link.forward).toMatchObject({ loss: 0.05, duplicate: 0 });
    expect(link.reverse).toMatchObject({ loss: 0, duplicate: 0.02 });
    const trace = readLinkFlags({ trace: 'Verizon-LTE-short.down', 'ack-trace': 'Verizon-LTE-short.up' });
    expect(trace).toMatchObject({ kind: 'trace', trace: 'Verizon-LTE-short.down', ackTrace: 'Verizon-LTE-short.up' });
  });
});

/** Until nothing has reached the receiver for 300 ms (at most 5 s): the links have emptied their queues. */
async function drained(ends: ProbeEnds): Promise<void> {
  for (let quiet = 0, waited = 0; quiet < 300 && waited < 5_000; waited += 50) {
    const before = ends.arrivals.length;
    await new Promise((r) => setTimeout(r, 50));
    quiet = ends.arrivals.length === before ? quiet + 50 : 0;
  }
}

describe('npm run link carries one sender: a second source gets nothing back', () => {
  const bound = (host: string) =>
    new Promise<Socket>((resolve) => {
      const s = createSocket('udp4');
      s.bind(0, host, () => resolve(s));
    });
  /** Until `got` holds `n` messages (at most 5 s). */
  const until = async (got: unknown[], n: number) => {
    for (let i = 0; i < 250 && got.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  };

  /** A link before an echoing receiver; the first and second senders, the second on 127.0.0.2. */
  async function setup(from: (first: Socket) => Address | null) {
    const receiver = await bound('127.0.0.1');
    const seen: string[] = [];
    receiver.on('message', (m, r) => {
      seen.push(m.toString());
      receiver.send(m, r.port, r.address);
    });
    const [first, second] = [await bound('127.0.0.1'), await bound('127.0.0.2')];
    const link = await EmulatedLink.open({
      link: rateLink(1000, 0),
      seed: 1,
      traces: loadTrace,
      listen: { host: '127.0.0.1', port: 0 },
      to: { host: '127.0.0.1', port: receiver.address().port },
      logRows: 0,
      maxHeldBytes: 1 << 20,
      from: from(first),
    });
    const replies = { first: [] as string[], second: [] as string[] };
    first.on('message', (m) => replies.first.push(m.toString()));
    second.on('message', (m) => replies.second.push(m.toString()));
    const close = () => [receiver, first, second].forEach((s) => s.close());
    return { link, first, second, seen, replies, close };
  }

  it('binds to the first sender, refuses the second, and counts it in the summary', async () => {
    const { link, first, second, seen, replies, close } = await setup(() => null);
    const firstAddress = `127.0.0.1:${first.address().port}`;
    first.send('first 0', link.port, '127.0.0.1');
    await until(replies.first, 1);
    for (let i = 0; i < 10; i++) second.send(`second ${i}`, link.port, '127.0.0.1');
    // sent after the second's ten, carried in order on a FIFO link: once their echoes are back, the ten were refused
    for (let i = 1; i <= 10; i++) first.send(`first ${i}`, link.port, '127.0.0.1');
    await until(replies.first, 11);
    link.close();
    close();
    expect(replies.first).toEqual(Array.from({ length: 11 }, (_, i) => `first ${i}`));
    expect(replies.second).toEqual([]);
    expect(seen.filter((m) => m.startsWith('second'))).toEqual([]);
    const report = linkReport(link);
    expect(report).toMatchObject({ sender: firstAddress, refused: { datagrams: 10, senders: 1 } });
    expect(formatLinkReport(report)).toContain(`10 datagrams from 1 other sender refused: the link carries ${firstAddress}'s only`);
  });

  it('with --from, carries the sender named even when another sends first', async () => {
    const { link, first, second, seen, replies, close } = await setup((s) => ({ host: '127.0.0.1', port: s.address().port }));
    second.send('second 0', link.port, '127.0.0.1');
    first.send('first 0', link.port, '127.0.0.1');
    await until(replies.first, 1);
    link.close();
    close();
    expect([replies.first, replies.second, seen]).toEqual([['first 0'], [], ['first 0']]);
    expect(link.refused).toBe(1);
  });
});

describe('npm run link --link-model netem: one qdisc both ways, as netem on a loopback interface', () => {
  /** The round trip of a reply the receiver sends on the first of ten back-to-back datagrams, ms. */
  async function replyAfterBurst(flags: Record<string, string>): Promise<number> {
    const receiver = createSocket('udp4');
    await new Promise<void>((r) => receiver.bind(0, '127.0.0.1', () => r()));
    let answered = false;
    receiver.on('message', (_m, from) => {
      if (!answered) receiver.send('ok', from.port, from.address);
      answered = true;
    });
    const link = await EmulatedLink.open({
      link: readLinkFlags({ 'link-model': 'netem', bandwidth: '1', latency: '10', ...flags }),
      seed: 1,
      traces: loadTrace,
      listen: { host: '127.0.0.1', port: 0 },
      to: { host: '127.0.0.1', port: receiver.address().port },
      logRows: 0,
      maxHeldBytes: 1 << 20,
    });
    const sender = createSocket('udp4');
    await new Promise<void>((r) => sender.bind(0, '127.0.0.1', () => r()));
    const reply = new Promise<number>((resolve) => sender.once('message', () => resolve(performance.now())));
    const t0 = performance.now();
    // 1222 bytes and 28 of headers: 10 ms each at 1 Mbit/s
    for (let i = 0; i < 10; i++) sender.send(Buffer.alloc(1222, i), link.port, '127.0.0.1');
    const rtt = (await reply) - t0;
    link.close();
    for (const s of [sender, receiver]) s.close();
    return rtt;
  }

  it('a reply waits behind the data queued before it: out at 20 ms, back after the last datagram, 110 ms', async () => {
    expect(await replyAfterBurst({})).toBeGreaterThan(105);
  });

  it('with a qdisc each way it comes back after its own delay and transmission, about 30 ms', { retry: 2 }, async () => {
    expect(await replyAfterBurst({ 'netem-qdisc': 'each-direction' })).toBeLessThan(100);
  });
});
