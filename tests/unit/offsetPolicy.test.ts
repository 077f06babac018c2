import { describe, expect, it } from 'vitest';
import { md5Hex } from '../../shared/offset/md5.ts';
import { boundMs, DEFAULT_POLICY, OffsetPolicy, type OffsetPolicyConfig } from '../../shared/offset/policy.ts';
import { encodeDataRequest, encodeSizeRequest, encodeSubmit, ERROR_INVALID, parseReply } from '../../shared/offset/protocol.ts';
import { generateFile } from '../../shared/offset/file.ts';
import { Rng } from '../../shared/sim/rng.ts';

const FILE = generateFile(20_000, 5);

function server(config: Partial<OffsetPolicyConfig> = {}) {
  const p = new OffsetPolicy({ ...DEFAULT_POLICY, loss: 0, ...config }, FILE, new Rng(1, 'policy'));
  const ask = (t: number, offset = 0, key = 'c') => p.handle(key, encodeDataRequest(offset, 1448), t);
  return { p, ask };
}

describe('offset policy: token bucket (the course server arithmetic)', () => {
  it('gives the first data request floor(elapsed · R) tokens, capped at B', () => {
    const { p, ask } = server();
    p.handle('c', encodeSizeRequest(), 0);
    expect(ask(20).outcome).toBe('served'); // floor(20 · 0.25) = 5 tokens
    expect(p.session('c')!.tokens).toBe(4);
    const { p: p2, ask: ask2 } = server();
    p2.handle('c', encodeSizeRequest(), 0);
    ask2(1000);
    expect(p2.session('c')!.tokens).toBe(9); // 10, capped, minus the reply
  });

  it('adds whole tokens for the time since the last reply, so requests closer than 1/R waste them', () => {
    const { p, ask } = server();
    p.handle('c', encodeSizeRequest(), 0);
    ask(20); // 5 → 4
    for (const t of [22, 24, 26, 28]) expect(ask(t).outcome).toBe('served'); // each adds floor(0.5) = 0
    expect(p.session('c')!.tokens).toBe(0);
    const refused = ask(30); // floor((30 − 28) · 0.25) = 0
    expect(refused.outcome).toBe('no-token');
    expect(refused.reply).toBeNull();
    expect(refused.penalty).toBe(1);
    expect(ask(32).outcome).toBe('served'); // 4 ms since the reply at 28: one token
  });

  it('serves every request paced at 5 ms and refuses most at 2 ms', () => {
    const paced = server();
    paced.p.handle('c', encodeSizeRequest(), 0);
    let served = 0;
    for (let t = 5; t <= 1000; t += 5) if (paced.ask(t).outcome === 'served') served++;
    expect(served).toBe(200);
    const rude = server();
    rude.p.handle('c', encodeSizeRequest(), 0);
    let refused = 0;
    for (let t = 2; t <= 1000; t += 2) if (rude.ask(t).outcome === 'no-token') refused++;
    expect(refused).toBeGreaterThan(250);
  });

  it('drops its loss share of token-holding requests without spending a token', () => {
    const p = new OffsetPolicy({ ...DEFAULT_POLICY }, FILE, new Rng(9, 'policy'));
    p.handle('c', encodeSizeRequest(), 0);
    let lost = 0;
    for (let i = 0; i < 20_000; i++) if (p.handle('c', encodeDataRequest(0, 10), 5 * (i + 1)).outcome === 'lost') lost++;
    expect(lost / 20_000).toBeCloseTo(0.11, 2);
  });

  it('offers an ideal continuous bucket as an option', () => {
    const { p, ask } = server({ idealBucket: true });
    p.handle('c', encodeSizeRequest(), 0);
    expect(ask(6).outcome).toBe('served'); // 1.5 tokens → 0.5
    expect(ask(8).outcome).toBe('served'); // 0.5 + 0.5 = 1
    expect(ask(9).outcome).toBe('no-token'); // 0.25
  });
});

describe('offset policy: squish', () => {
  it('squishes after more than 100 token-less requests, marks replies, and releases after the squish length; the releasing reply has no Squished line', () => {
    const { p, ask } = server({ squishLength: 3 });
    p.handle('c', encodeSizeRequest(), 0);
    for (let i = 0; i < 100; i++) expect(ask(0).squishChange).toBe(0);
    const hundredFirst = ask(0);
    expect(hundredFirst.squishChange).toBe(1);
    expect(hundredFirst.penalty).toBe(101);
    // squished: 62 tokens/s
    const first = ask(1000); // floor(min(1000 · 0.062, 10)) = 10 tokens
    expect(first.outcome).toBe('served');
    expect(new TextDecoder().decode(first.reply!)).toMatch(/^Offset: 0\nNumBytes: 1448\nSquished\n\n/);
    expect(parseReply(ask(1000).reply!)).toMatchObject({ squished: true });
    const last = ask(1000);
    expect(last.squishChange).toBe(-1);
    expect(parseReply(last.reply!)).toMatchObject({ squished: false });
    expect(parseReply(ask(1000).reply!)).toMatchObject({ squished: false });
  });

  it('does not restart a squish while squished, and squishes again on the first token-less request after release', () => {
    const { p, ask } = server({ squishLength: 1 });
    p.handle('c', encodeSizeRequest(), 0);
    let squishes = 0;
    for (let i = 0; i < 251; i++) if (ask(0).squishChange === 1) squishes++;
    expect(squishes).toBe(1); // the running count is 150 now, but the client is already squished
    expect(ask(1000).squishChange).toBe(-1); // 10 tokens at 62/s, the one squished request releases
    for (let i = 0; i < 9; i++) expect(ask(1000).outcome).toBe('served');
    const again = ask(1000);
    expect(again).toMatchObject({ outcome: 'no-token', squishChange: 1 });
    expect(p.session('c')!.squishes).toBe(2);
  });

  it('refills at the squished rate while squished', () => {
    const { p, ask } = server({ squishLength: 100 });
    p.handle('c', encodeSizeRequest(), 0);
    for (let i = 0; i < 101; i++) ask(0);
    ask(1000); // 10 tokens (capped), 9 left
    for (let i = 0; i < 9; i++) ask(1000);
    expect(ask(1016).outcome).toBe('no-token'); // 16 ms · 0.062 = 0.99 → no whole token (250/s would give 4)
    expect(ask(1017).outcome).toBe('served'); // 17 ms · 0.062 = 1.05 → one
  });
});

describe('offset policy: first request and clock', () => {
  it('sets the bucket on every data request until a reply is actually sent', () => {
    const { p, ask } = server({ loss: 1 }); // every token-holding request is dropped: nothing is ever sent
    p.handle('c', encodeSizeRequest(), 0);
    expect(ask(8).outcome).toBe('lost');
    expect(p.session('c')!.tokens).toBe(2); // floor(8 · 0.25)
    expect(ask(12).outcome).toBe('lost');
    expect(p.session('c')!.tokens).toBe(3); // set to floor(12 · 0.25), not 2 + floor(4 · 0.25)
  });

  it('reads time as whole milliseconds', () => {
    const { p, ask } = server();
    p.handle('c', encodeSizeRequest(), 0.9); // start 0
    ask(20.99); // 20 ms: 5 tokens
    expect(p.session('c')!.tokens).toBe(4);
    expect(parseReply(p.handle('c', encodeSubmit('a@b', md5Hex(FILE)), 1234.7).reply!)).toMatchObject({ time: 1234 });
  });
});

describe('offset policy: variable rate', () => {
  it('schedule model: 250/s for 2 s, then 125/s and 1000/s alternating every 2 s', () => {
    const { p } = server({ variable: true, variableModel: 'schedule' });
    p.handle('c', encodeSizeRequest(), 0);
    const s = p.session('c')!;
    expect([100, 1999, 2000, 3999, 4000, 5999, 6000, 8000].map((t) => p.rateAt(s as never, t))).toEqual([250, 250, 125, 125, 1000, 1000, 125, 1000]);
  });

  it('course model: flips only inside a request that found a token, after refilling at the old rate', () => {
    const { p, ask } = server({ variable: true });
    p.handle('c', encodeSizeRequest(), 0);
    for (let i = 0; i < 10; i++) expect(ask(1990).outcome).toBe('served'); // bucket set to 10, all spent
    expect(p.rateAt(p.session('c') as never, 2500)).toBe(250); // past 2 s, but no request has flipped it
    ask(2002); // refill at 250: floor(12 · 0.25) = 3; then the flip to 125
    expect(p.session('c')).toMatchObject({ tokens: 2, rate: 125 });
    ask(2002);
    ask(2002);
    expect(ask(2009).outcome).toBe('no-token'); // floor(7 · 0.125) = 0
    expect(ask(2010).outcome).toBe('served'); // floor(8 · 0.125) = 1
  });

  it('schedule model: the same requests refill at the scheduled rate', () => {
    const { p, ask } = server({ variable: true, variableModel: 'schedule' });
    p.handle('c', encodeSizeRequest(), 0);
    for (let i = 0; i < 10; i++) ask(1990);
    ask(2002); // floor(12 · 0.125) = 1
    expect(p.session('c')!.tokens).toBe(0);
  });

  it('course model: leaves a squish at 250/s whatever phase it was in', () => {
    const { p, ask } = server({ variable: true, squishLength: 1 });
    p.handle('c', encodeSizeRequest(), 0);
    for (let i = 0; i < 101; i++) ask(0);
    expect(ask(5000).squishChange).toBe(-1); // the schedule would say 1000/s here
    expect(p.rateAt(p.session('c') as never, 5000)).toBe(250);
  });
});

describe('offset policy: loss streams, tournament, session table', () => {
  const pattern = (p: OffsetPolicy, key: string) => {
    p.handle(key, encodeSizeRequest(), 0);
    return Array.from({ length: 64 }, (_, i) => p.handle(key, encodeDataRequest(0, 10), 4 * (i + 1)).outcome[0]).join('');
  };
  const lossy = () => new OffsetPolicy({ ...DEFAULT_POLICY, loss: 0.5 }, FILE, new Rng(7, 'policy'));

  it("draws each session's losses from its own stream: reproducible, independent of other clients", () => {
    const alone = pattern(lossy(), 'a');
    const shared = lossy();
    const b = pattern(shared, 'b');
    expect(pattern(shared, 'a')).toBe(alone); // b's traffic did not shift a's draws
    expect(b).not.toBe(alone);
    expect(alone).toMatch(/l/);
  });

  it('tournament: Reset is ignored', () => {
    const p = new OffsetPolicy({ ...DEFAULT_POLICY, loss: 0 }, FILE, new Rng(1), { maxSessions: 10, tournament: true });
    p.handle('c', encodeSizeRequest(), 0);
    p.handle('c', encodeDataRequest(0, 10), 0);
    p.handle('c', encodeSizeRequest(true), 500);
    expect(p.session('c')).toMatchObject({ start: 0, penalty: 1 });
    expect(parseReply(p.handle('c', encodeSubmit('a@b', md5Hex(FILE)), 700).reply!)).toMatchObject({ time: 700, penalty: 1 });
  });

  it('keeps at most maxSessions, forgetting the one heard from least recently', () => {
    const p = new OffsetPolicy(DEFAULT_POLICY, FILE, new Rng(1), { maxSessions: 3, tournament: false });
    for (const [k, t] of [
      ['a', 0],
      ['b', 1],
      ['c', 2],
      ['a', 3],
      ['d', 4],
    ] as const)
      p.handle(k, encodeSizeRequest(), t);
    expect(p.sessionCount).toBe(3);
    expect(p.session('b')).toBeUndefined();
    expect(p.session('a')).toBeDefined();
  });
});

describe('offset policy: Size, Submit, Reset, errors', () => {
  it('answers SendSize at no cost and Submit with Result, Time and Penalty', () => {
    const { p, ask } = server();
    expect(new TextDecoder().decode(p.handle('c', encodeSizeRequest(), 100).reply!)).toBe('Size: 20000\n\n');
    ask(100); // no token yet: one penalty
    const right = parseReply(p.handle('c', encodeSubmit('ann@team', md5Hex(FILE)), 2910).reply!);
    expect(right).toEqual({ kind: 'result', result: true, time: 2810, penalty: 1 });
    const wrong = parseReply(p.handle('c', encodeSubmit('ann@team', '0'.repeat(32)), 3000).reply!);
    expect(wrong).toMatchObject({ result: false, time: 2900 });
  });

  it('Reset restarts the session: timer, bucket and penalty', () => {
    const { p, ask } = server();
    p.handle('c', encodeSizeRequest(), 0);
    ask(0);
    p.handle('c', encodeSizeRequest(true), 500);
    expect(p.session('c')).toMatchObject({ start: 500, penalty: 0, tokens: 0 });
    expect(parseReply(p.handle('c', encodeSubmit('a@b', md5Hex(FILE)), 700).reply!)).toMatchObject({ time: 200, penalty: 0 });
  });

  it('answers garbage with one error and keeps other sessions untouched', () => {
    const { p, ask } = server();
    p.handle('good', encodeSizeRequest(), 0);
    const d = p.handle('bad', new Uint8Array([1, 2, 3]), 5);
    expect(new TextDecoder().decode(d.reply!)).toBe(`${ERROR_INVALID}\n\n`);
    expect(p.session('bad')).toBeUndefined();
    expect(ask(20, 0, 'good').outcome).toBe('served');
  });

  it('ranks a Submit only once the session was served the file’s size, then only its first three, all under the first one’s id', () => {
    const { p, ask } = server();
    p.handle('c', encodeSizeRequest(), 0);
    const submit = (t: number) => p.handle('c', encodeSubmit('ann@team', md5Hex(FILE)), t);
    const early = submit(1);
    expect(early).toMatchObject({ outcome: 'result', offset: -1, squished: false, submission: { id: 'ann@team', result: true, time: 1, penalty: 0, ranked: false } });
    // 14 chunks of 1448 bytes cover the 20,000 bytes; 13 leave 1,176 unserved
    for (let k = 0; k < 13; k++) expect(ask(5 * (k + 1), k * 1448).outcome).toBe('served');
    expect(p.session('c')!.servedBytes).toBe(13 * 1448);
    expect(submit(100).submission!.ranked).toBe(false);
    expect(ask(105, 13 * 1448).outcome).toBe('served');
    expect(p.session('c')!.servedBytes).toBe(20_000);
    const other = (t: number) => p.handle('c', encodeSubmit('bob@team', md5Hex(FILE)), t);
    expect([submit(200), other(201), submit(202), other(203), submit(204), submit(205)].map((d) => [d.submission!.id, d.submission!.ranked])).toEqual([
      ['ann@team', true],
      ['bob@team', false],
      ['ann@team', true],
      ['bob@team', false],
      ['ann@team', true],
      ['ann@team', false],
    ]);
    // Every one is answered as the course server answers it, ranked or not.
    expect(new TextDecoder().decode(other(206).reply!)).toBe(`Result: true\nTime: 206\nPenalty: 0\n\n`);
  });

  it('answers a malformed request with its error, outside any session, carrying the sender’s penalty', () => {
    const { p, ask } = server();
    p.handle('c', encodeSizeRequest(), 0);
    ask(1); // no token yet: one penalty
    expect(p.handle('c', new Uint8Array([1]), 2)).toMatchObject({ outcome: 'error', offset: -1, squished: false, squishChange: 0, penalty: 1 });
    expect(p.handle('c', encodeSizeRequest(), 3)).toMatchObject({ outcome: 'size', offset: -1, squished: false, penalty: 1 });
  });

  it('keys sessions apart and reclaims idle ones', () => {
    const { p } = server();
    p.handle('a', encodeSizeRequest(), 0);
    p.handle('b', encodeSizeRequest(), 50_000);
    expect(p.sessionCount).toBe(2);
    expect(p.reclaim(70_000, 60_000)).toBe(1);
    expect(p.session('a')).toBeUndefined();
  });
});

describe('the bound: a perfectly paced client', () => {
  it('takes chunks ÷ rate from the constant server: 691 chunks at 250 tokens/s is 2764 ms', () => {
    expect(boundMs(DEFAULT_POLICY, 691)).toBe(2764);
  });

  it('follows the variable server’s schedule: 500 tokens in the first 2 s at 250/s, the other 191 at 125/s, 3528 ms', () => {
    const variable = { ...DEFAULT_POLICY, variable: true };
    expect(boundMs(variable, 691)).toBe(3528);
    expect(boundMs(variable, 400)).toBe(1600);
    // 500 + 250 (2 s at 125/s) + 2000 (2 s at 1000/s), then 250 more at 125/s
    expect(boundMs(variable, 3000)).toBe(8000);
    expect(boundMs({ ...variable, rates: [0, 0] }, 691)).toBe(Number.POSITIVE_INFINITY);
    expect(boundMs({ ...variable, rates: [0, 0] }, 400)).toBe(1600);
  });

  it('is unknown for a file of unknown size (a live fetch cut off before the size came), and ends on any input', () => {
    const variable = { ...DEFAULT_POLICY, variable: true };
    expect(boundMs(variable, Number.NaN)).toBeNaN();
    expect(boundMs(DEFAULT_POLICY, Number.NaN)).toBeNaN();
    expect(boundMs(variable, 0)).toBe(0);
    expect(boundMs(variable, Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(boundMs({ ...variable, rates: [Number.NaN, 1000] }, 691)).toBeNaN();
  });
});
