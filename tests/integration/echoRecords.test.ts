import { execFile } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { handleApi } from '../../server/api.ts';
import { EchoRecords } from '../../server/echoRecords.ts';
import { Leaderboard } from '../../server/leaderboard.ts';
import { createOperator } from '../../server/operator.ts';
import { asOperator, testRelay } from '../helpers/relay.ts';

/** A ping-pong client as students write them: each ping sent once the previous pong is back. */
const PING_PONG = `
import socket, struct, sys, time
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
for size in [100, 100, 20000, 20000, 60000]:
    s.sendall(struct.pack('>H', size) + b'x' * (size - 2))
    got = b''
    while len(got) < size:
        got += s.recv(65536)
    time.sleep(0.02)
print('done')
`;

describe('the echo server records each connection', () => {
  it("a Python ping-pong client's message sizes and round trips appear at /api/echo", async () => {
    const relay = await testRelay({ singleThread: true }); // only the echo server is used
    const port = relay.info.echo.split(':')[1];
    const out = await new Promise<string>((resolve, reject) => execFile('python3', ['-c', PING_PONG, port], (e, stdout) => (e ? reject(e) : resolve(stdout))));
    expect(out.trim()).toBe('done');
    const [conn] = await (await fetch(`${relay.url}/api/echo`, asOperator(relay))).json();
    expect(conn).toMatchObject({ remote: expect.stringMatching(/^127\.0\.0\.1:\d+$/), messages: 5 });
    expect(conn.samples.map((s: { size: number }) => s.size)).toEqual([100, 100, 20000, 20000, 60000]);
    expect(conn.samples[0].roundTripMs).toBeNull();
    // the client sleeps 20 ms between a pong and its next ping: the server sees at least that
    for (const s of conn.samples.slice(1)) expect(s.roundTripMs).toBeGreaterThanOrEqual(19);
    expect(conn.samples.map((s: { atMs: number }) => s.atMs)).toEqual([...conn.samples.map((s: { atMs: number }) => s.atMs)].sort((a, b) => a - b));
    await relay.close();
  });

  it('keeps records for this machine unless the operator shares them, and then each client sees its own unless all are shared', async () => {
    const records = new EchoRecords();
    records.open('10.0.0.5:4000').message(100);
    records.open('10.0.0.6:4001').message(200);
    const summary = (key: string) => ({ id: `${key}@1`, key, server: 'constant' as const, started: '', requests: 0, replies: 0, penalty: 0, squishes: 0, result: null, time: null, submittedAs: null });
    const sessions = [summary('10.0.0.5:5000'), summary('10.0.0.6:5001')];
    const operator = createOperator({ token: 'the-token', trustedProxies: [] });
    const ask = async (url: string, remoteAddress: string, share: 'none' | 'own' | 'all', authorization?: string) => {
      const res = {
        status: 0,
        body: '',
        writeHead(code: number) {
          this.status = code;
          return this;
        },
        end(b: string) {
          this.body = b;
          return this;
        },
      };
      const req = { url, method: 'GET', headers: { authorization }, socket: { remoteAddress } } as unknown as IncomingMessage;
      handleApi(req, res as unknown as ServerResponse, {
        info: {} as never,
        operator,
        board: new Leaderboard(null),
        echo: records,
        shareRecords: share === 'own',
        shareAllRecords: share === 'all',
        sessions: async () => sessions,
        sessionCsv: async (id) => `csv of ${id}`,
      });
      await new Promise((r) => setTimeout(r, 0));
      return res;
    };
    const keys = async (url: string, who: string, share: 'none' | 'own' | 'all', authorization?: string) =>
      JSON.parse((await ask(url, who, share, authorization)).body).map((c: { remote?: string; key?: string }) => c.remote ?? c.key);
    expect((await ask('/api/echo', '10.0.0.5', 'none')).status).toBe(403);
    expect((await ask('/api/sessions', '10.0.0.5', 'none')).status).toBe(403);
    expect(await keys('/api/echo', '10.0.0.5', 'own')).toEqual(['10.0.0.5:4000']);
    expect(await keys('/api/sessions', '10.0.0.5', 'own')).toEqual(['10.0.0.5:5000']);
    expect((await ask('/api/sessions/10.0.0.6%3A5001%401/csv', '10.0.0.5', 'own')).status).toBe(404);
    expect(await keys('/api/echo', '10.0.0.5', 'all')).toEqual(['10.0.0.5:4000', '10.0.0.6:4001']);
    expect(await keys('/api/sessions', '10.0.0.5', 'all')).toEqual(['10.0.0.5:5000', '10.0.0.6:5001']);
    expect((await ask('/api/sessions/10.0.0.6%3A5001%401/csv', '10.0.0.5', 'all')).body).toBe('csv of 10.0.0.6:5001@1');
    // This machine is no one in particular: the token, from any address, is the operator.
    expect((await ask('/api/echo', '127.0.0.1', 'none')).status).toBe(403);
    expect((await ask('/api/sessions', '127.0.0.1', 'none', 'Bearer the-wrong-token')).status).toBe(403);
    expect(await keys('/api/echo', '10.0.0.7', 'none', 'Bearer the-token')).toHaveLength(2);
    expect(await keys('/api/sessions', '10.0.0.7', 'none', 'Bearer the-token')).toHaveLength(2);
  });
});
