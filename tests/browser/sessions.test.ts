import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { rowsOf } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { ProbeEnds, startLinkProcess } from '../../server/link/probe.ts';
import { type EchoConnection, fitConnection } from '../../shared/relay/echo.ts';
import { bitrate, fixed } from '../../web/charts/format.ts';
import { open, playground } from '../helpers/page.ts';
import { asOperator } from '../helpers/relay.ts';
import { judgeTimingUnlessStarved, stealMeter, timerLagMeter } from '../helpers/steal.ts';
import { tempDir } from '../helpers/tempDir.ts';

/**
 * A student's burst client: rude at first (bursts of 40 every 20 ms, far above 250 tokens/s, so it is
 * squished), then it waits for a line on stdin, then fetches the rest politely (2 every 40 ms) and Submits.
 */
const BURST_CLIENT = `
import hashlib, socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(('127.0.0.1', int(sys.argv[1])))
s.send(b'SendSize\\n\\n')
size = int(s.recv(100).split(b'Size: ')[1].split(b'\\n')[0])
data = bytearray(size)
missing = list(range(0, size, 1448))
def rounds(n, burst, wait):
    for _ in range(n):
        for o in missing[:burst]:
            s.send(b'Offset: %d\\nNumBytes: 1448\\n\\n' % o)
        deadline = time.time() + wait
        while time.time() < deadline:
            s.settimeout(max(0.001, deadline - time.time()))
            try:
                head, body = s.recv(2000).split(b'\\n\\n', 1)
            except socket.timeout:
                break
            if head.startswith(b'Offset: '):
                o = int(head.split(b'\\n')[0][8:])
                if o in missing:
                    missing.remove(o)
                    data[o:o + len(body)] = body
print('Port:', s.getsockname()[1], flush=True)
rounds(12, 40, 0.02)
print('rude done', flush=True)
sys.stdin.readline()
while missing:
    rounds(1, 2, 0.04)
s.settimeout(1)
s.send(b'Submit: burst@class\\nMD5: ' + hashlib.md5(bytes(data)).hexdigest().encode() + b'\\n\\n')
print(s.recv(200).decode(), end='', flush=True)
`;

let env: Awaited<ReturnType<typeof playground>>;
beforeAll(async () => {
  env = await playground();
});
afterAll(() => env.close());

/**
 * Pixels of the chart titled `title` at least three-quarters covered (its marks: a line's antialiased
 * pixels, not the quarter-opaque squish shading), right of `from` (a fraction of its width).
 */
function painted(page: Page, title: string, from = 0): Promise<number> {
  return page.evaluate(
    ([t, f]) => {
      const c = document.querySelector<HTMLCanvasElement>(`figure.chart[aria-label="${t}"] canvas`);
      if (!c || c.width === 0) return 0;
      const x0 = Math.floor(c.width * f);
      const d = c.getContext('2d')!.getImageData(x0, 0, c.width - x0, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] >= 192) n++;
      return n;
    },
    [title, from] as const,
  );
}

describe('the Sessions view in Chromium', () => {
  it("a session started from outside appears, its dots draw as it happens, and the page's CSV is the relay's record", async () => {
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=sessions`);
    await page.getByText('Live: every session').waitFor();
    // The relay's own servers, as a client would address them (this relay's ports are free ones, not the defaults).
    const { offsetConstant, offsetVariable } = env.relay.info;
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain(`from any client (UDP, ${offsetConstant} at a constant rate and ${offsetVariable} at a variable one)`);
    const client = spawn('python3', ['-c', BURST_CLIENT, env.relay.info.offsetConstant.split(':')[1]], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    client.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => client.on('exit', r));
    try {
      await expect.poll(() => out, { timeout: 20_000 }).toContain('rude done');
      const key = `127.0.0.1:${/Port: (\d+)/.exec(out)![1]}`;
      await page.getByRole('button', { name: key }).click();
      expect(new URL(page.url()).searchParams.get('session')).toMatch(new RegExp(`^${key}@\\d+$`));
      // mid-session, the client waiting on stdin: requests, replies, burst sizes and penalty are drawn
      await expect.poll(() => painted(page, 'Offsets requested and replied'), { timeout: 10_000 }).toBeGreaterThan(200);
      expect(await painted(page, 'Requests per round (burst size)')).toBeGreaterThan(20);
      expect(await painted(page, 'Penalty')).toBeGreaterThan(20);
      const row = page.locator(`tr[data-session^="${key}@"]`);
      // the table is polled apart from the trace, so it may show the squish a poll after the charts do
      await expect.poll(async () => Number(await row.locator('td').nth(7).innerText()), { timeout: 5000 }).toBeGreaterThanOrEqual(1); // squished
      await page.screenshot({ path: join(tmpdir(), 'pipefill-sessions-midway.png') });

      client.stdin.write('go\n');
      expect(await exited).toBe(0);
      const printed = { result: /Result: (\w+)/.exec(out)![1], penalty: /Penalty: (\d+)/.exec(out)![1] };
      expect(printed.result).toBe('true');
      await expect.poll(() => row.locator('td').nth(8).innerText(), { timeout: 5000 }).toBe('true');
      expect(await row.locator('td').nth(6).innerText()).toBe(printed.penalty);
      expect(await row.locator('td').nth(1).innerText()).toBe('burst@class');
      // the polite rounds came after the pause, in the last part of the session: their dots are there too
      await expect.poll(() => painted(page, 'Offsets requested and replied', 0.7), { timeout: 5000 }).toBeGreaterThan(20);
      await page.screenshot({ path: join(tmpdir(), 'pipefill-sessions-done.png') });

      // The table and the trace are polled apart, so the export may lag the table by a poll: it must catch up.
      const exported = async () => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="session-csv"]').click()]);
        const file = join(tempDir(), 'session.csv');
        await download.saveAs(file);
        const { log } = parseTraceCsv(readFileSync(file, 'utf8'));
        return [rowsOf(log, K.send).length, rowsOf(log, K.reply).length];
      };
      const listed = [Number(await row.locator('td').nth(4).innerText()), Number(await row.locator('td').nth(5).innerText())];
      await expect.poll(exported, { timeout: 10_000, interval: 600 }).toEqual(listed);
      expect(problems).toEqual([]);
    } finally {
      client.kill();
      await page.close();
    }
  }, 90_000);
});

/**
 * A ping-pong client as students write them, playing a link of 8 Mbit/s and 2 ms each way: before each
 * ping it waits what that link would add to the round trip of the echo just received.
 */
const PING_PONG = `
import socket, struct, sys, time
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
for size in [1000] * 4 + [20000] * 4 + [60000] * 4:
    s.sendall(struct.pack('>H', size) + b'x' * (size - 2))
    got = 0
    while got < size:
        got += len(s.recv(65536))
    time.sleep(0.004 + 2 * 8 * size / 8e6)
print('done')
`;

describe('the measurement lab in Chromium', () => {
  it("fits an outside ping-pong client's recorded series, and keeps “hide the truth” in the URL", async (ctx) => {
    // The client's sleeps stretch when the machine does not run it: its timing is judged last, and only when it did.
    const steal = stealMeter();
    const lag = timerLagMeter();
    const out = await new Promise<string>((resolve, reject) =>
      execFile('python3', ['-c', PING_PONG, env.relay.info.echo.split(':')[1]], { timeout: 30_000 }, (e, stdout) => (e ? reject(e) : resolve(stdout))),
    );
    expect(out.trim()).toBe('done');
    const { page, problems } = await open(env.context, `${env.relay.url}/?view=measurement&hide=1`);
    expect(await page.getByLabel('hide the truth').isChecked()).toBe(true);
    await page.getByText(`the relay's echo server (TCP, ${env.relay.info.echo}: each message`).waitFor();
    expect(await page.locator('[data-testid="estimates"]').innerText()).not.toContain('truth');
    const [connection] = (await (await fetch(`${env.relay.url}/api/echo`, asOperator(env.relay))).json()) as EchoConnection[];
    await page.getByRole('button', { name: connection.remote }).click();
    const fitted = fitConnection(connection);
    if ('error' in fitted) throw new Error(fitted.error);
    const shown = page.locator('[data-testid="recorded-estimates"]');
    expect(await shown.locator('[data-estimate="mbps"]').innerText()).toBe(bitrate(fitted.fit.mbps));
    expect(await shown.locator('[data-estimate="delay"]').innerText()).toBe(`${fixed(fitted.fit.delayMs, 3)} ms`);
    expect(await page.locator('section[aria-label="Recorded ping-pong clients"] circle').count()).toBe(9); // each size's 3 round trips after its first message
    await page.screenshot({ path: join(tmpdir(), 'pipefill-measurement-recorded.png'), fullPage: true });
    await page.getByLabel('hide the truth').uncheck();
    await expect.poll(() => new URL(page.url()).searchParams.get('hide')).not.toBe('1');
    expect(await page.locator('[data-testid="estimates"]').innerText()).toContain('truth');
    expect(problems).toEqual([]);
    await page.close();
    judgeTimingUnlessStarved(ctx, steal, lag);
    // the link the client played, read back: 8 Mbit/s and 2 ms (plus loopback's and the sleeps' overshoot)
    expect(fitted.fit.mbps).toBeGreaterThan(7.2);
    expect(fitted.fit.mbps).toBeLessThan(8.8);
    // The delay is the fit's intercept: each 1% the slope is off (a 60 KB echo stretched by a busy machine)
    // moves it by about 0.3 ms, so it is held to a quarter under the 2 ms played.
    expect(fitted.fit.delayMs).toBeGreaterThan(1.5);
    expect(fitted.fit.delayMs).toBeLessThan(3.5);
  }, 60_000);
});

/** A port nothing listens on just now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('watching an emulated link in Chromium', () => {
  it('draws what crosses `npm run link -- --watch`, as it crosses', async () => {
    const ends = await ProbeEnds.open();
    ends.echo = true;
    const watchPort = await freePort();
    const link = await startLinkProcess(['--to', `127.0.0.1:${ends.receiverPort}`, '--bandwidth', '2', '--latency', '10', '--watch', `127.0.0.1:${watchPort}`]);
    try {
      for (let i = 0; i < 100; i++) ends.send(link.port, i, 1000);
      const { page, problems } = await open(env.context, `${env.relay.url}/?view=sessions&watch=${encodeURIComponent(`http://127.0.0.1:${watchPort}`)}`);
      const title = 'Sequence numbers sent and acknowledged';
      await expect.poll(() => painted(page, title), { timeout: 10_000 }).toBeGreaterThan(100);
      // the y axis follows the sequence numbers: 0–99 first, then up to 299
      const topTick = () =>
        page.evaluate((t) => Math.max(...[...document.querySelectorAll(`figure.chart[aria-label="${t}"] svg text`)].map((e) => Number(e.textContent)).filter(Number.isFinite)), title);
      expect(await topTick()).toBeLessThan(150);
      expect(await painted(page, 'Queue at the bottleneck')).toBeGreaterThan(20);
      for (let i = 100; i < 300; i++) ends.send(link.port, i, 1000);
      await expect.poll(topTick, { timeout: 10_000 }).toBeGreaterThanOrEqual(250);
      expect(await painted(page, title)).toBeGreaterThan(100);
      await page.screenshot({ path: join(tmpdir(), 'pipefill-link-watch.png') });
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await link.stop();
      ends.close();
    }
  }, 60_000);
});
