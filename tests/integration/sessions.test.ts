import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseTraceCsv } from '../../shared/csv/trace.ts';
import { K } from '../../shared/log/kinds.ts';
import { rowsOf } from '../../shared/log/eventLog.ts';
import { generateFile } from '../../shared/offset/file.ts';
import { DEFAULT_POLICY, OffsetPolicy } from '../../shared/offset/policy.ts';
import { encodeDataRequest, encodeSizeRequest } from '../../shared/offset/protocol.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { SessionRecords } from '../../server/sessionRecords.ts';
import { importRun } from '../../web/worker/replay.ts';
import { asOperator, testRelay } from '../helpers/relay.ts';

/**
 * A student's client: stop-and-wait over UDP, paced at 5 ms, then Submit with the file's MD5. Like a real
 * client it re-asks on a timeout and skips answers to earlier questions that arrive late (on a loaded
 * machine a reply can take longer than the 50 ms timeout, and then two answers to one offset come back).
 */
const CLIENT = `
import hashlib, socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(('127.0.0.1', int(sys.argv[1])))
def ask(request, answer, timeout, pace=0):
    while True:
        time.sleep(pace)
        s.send(request)
        deadline = time.time() + timeout
        while time.time() < deadline:
            s.settimeout(max(0.001, deadline - time.time()))
            try:
                reply = s.recv(2000)
            except socket.timeout:
                break
            if reply.startswith(answer):
                return reply
size = int(ask(b'SendSize\\n\\n', b'Size: ', 0.5).split(b'Size: ')[1].split(b'\\n')[0])
data = bytearray(size)
for o in range(0, size, 1448):
    reply = ask(b'Offset: %d\\nNumBytes: 1448\\n\\n' % o, b'Offset: %d\\n' % o, 0.05, 0.005)
    data[o:o + 1448] = reply.split(b'\\n\\n', 1)[1]
print(ask(b'Submit: py@class\\nMD5: ' + hashlib.md5(bytes(data)).hexdigest().encode() + b'\\n\\n', b'Result: ', 1).decode(), end='')
print('Port:', s.getsockname()[1])
`;

describe('every offset-server session is recorded', () => {
  it("a Python client's session appears in /api/sessions with the Result and Penalty it printed, and its CSV has its requests", async () => {
    const relay = await testRelay({ fileSize: 30_000, singleThread: false });
    const port = relay.info.offsetConstant.split(':')[1];
    const out = await new Promise<string>((resolve, reject) => execFile('python3', ['-c', CLIENT, port], { timeout: 60_000 }, (e, stdout) => (e ? reject(e) : resolve(stdout))));
    const printed = { result: /Result: (\w+)/.exec(out)![1], penalty: Number(/Penalty: (\d+)/.exec(out)![1]), port: /Port: (\d+)/.exec(out)![1] };
    expect(printed.result).toBe('true');
    const sessions = await (await fetch(`${relay.url}/api/sessions`, asOperator(relay))).json();
    const mine = sessions.find((s: { key: string }) => s.key === `127.0.0.1:${printed.port}`);
    expect(mine).toMatchObject({ server: 'constant', result: true, penalty: printed.penalty, replies: expect.any(Number) });
    expect(mine.replies).toBeGreaterThanOrEqual(Math.ceil(30_000 / 1448));
    expect(mine.requests).toBeGreaterThanOrEqual(mine.replies + mine.penalty); // the rest were lost
    const csv = await (await fetch(`${relay.url}/api/sessions/${encodeURIComponent(mine.id)}/csv`, asOperator(relay))).text();
    const trace = parseTraceCsv(csv);
    expect(rowsOf(trace.log, K.send).length).toBe(mine.requests);
    expect(rowsOf(trace.log, K.reply).length).toBe(mine.replies);
    expect(mine.submittedAs).toBe('py@class');
    // the Submit's row as a client's own log has it: the result (1), the server's Time, the penalty
    const [done] = rowsOf(trace.log, K.done);
    const c = trace.log.columns;
    expect([c.seq[done], c.value[done], c.window[done]]).toEqual([1, mine.time, printed.penalty]);
    // …so Import reads the session's result and penalty back
    const imported = await importRun(csv, async () => null);
    expect(imported.summary.flows[0].offset).toMatchObject({ result: true, penalty: printed.penalty, timeMs: mine.time });
    expect((await fetch(`${relay.url}/api/sessions/nobody@1/csv`, asOperator(relay))).status).toBe(404);
    await relay.close();
    // Starting the relay's two offset-server threads compiles the model in each: seconds on a busy machine.
  }, 120_000);

  it('keeps the newest events of each session and forgets the oldest sessions first', () => {
    const policy = new OffsetPolicy({ ...DEFAULT_POLICY, loss: 0 }, generateFile(20_000, 1), new Rng(1));
    const records = new SessionRecords('constant', { sessions: 2, eventsPerSession: 4 });
    const ask = (key: string, bytes: Uint8Array, t: number) => {
      const d = policy.handle(key, bytes, t);
      records.record(key, policy.session(key)!.start, bytes.length, d, t, policy.rateAt(policy.session(key)!, t));
    };
    const now = Math.floor(performance.timeOrigin + performance.now());
    for (const key of ['a', 'b', 'c']) ask(key, encodeSizeRequest(), now);
    expect(records.summaries.map((s) => s.key)).toEqual(['b', 'c']);
    for (let i = 0; i < 10; i++) ask('c', encodeDataRequest(0, 100), now + 100 + 4 * i);
    const c = records.summaries.find((s) => s.key === 'c')!;
    expect(c).toMatchObject({ requests: 10, replies: 10, penalty: 0 });
    const trace = parseTraceCsv(records.csv(c.id)!);
    expect(trace.log.length).toBe(4); // the newest four: two requests and their replies
    expect([...trace.log.columns.kind]).toEqual([K.send, K.reply, K.send, K.reply]);
    // a request's bytes are its datagram, a reply's its chunk, as the model counts them
    expect([...trace.log.columns.bytes]).toEqual([encodeDataRequest(0, 100).length, 100, encodeDataRequest(0, 100).length, 100]);
  });
});
