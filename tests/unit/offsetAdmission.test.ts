import { describe, expect, it } from 'vitest';
import { type AdmissionLimits, SessionAdmission } from '../../server/offsetAdmission.ts';
import { generateFile } from '../../shared/offset/file.ts';
import { md5Hex } from '../../shared/offset/md5.ts';
import { DEFAULT_POLICY, OffsetPolicy } from '../../shared/offset/policy.ts';
import { encodeDataRequest, encodeSizeRequest, encodeSubmit } from '../../shared/offset/protocol.ts';
import { Rng } from '../../shared/sim/rng.ts';

/** Two chunks: a session served both was served the whole file, so its Submits may be ranked. */
const FILE = generateFile(2 * 1448, 5);

/** An offset server's table without sockets: each address holds 2 sessions, and 5 s of silence is quiet. */
function table(limits: Partial<AdmissionLimits> = {}) {
  const o: AdmissionLimits = { maxSessions: 100, maxSessionsPerAddress: 2, idleMs: 120_000, quietMs: 5000, tournament: false, ...limits };
  const policy = new OffsetPolicy({ ...DEFAULT_POLICY, loss: 0 }, FILE, new Rng(1, 'policy'), o);
  const admission = new SessionAdmission(policy, o);
  const keys = new Set<string>();
  /** A datagram from `key` ("address:port") at `t` ms; its outcome, or 'refused' for no session (no answer). */
  const send = (key: string, t: number, datagram = encodeSizeRequest(), capped = true) => {
    keys.add(key);
    return admission.handle(key, key.split(':')[0], capped, datagram, t)?.outcome ?? 'refused';
  };
  /** A SendSize at `t`, then `chunks` data requests 20 ms later (5 tokens by then), each served. */
  const fetch = (key: string, t: number, chunks = 1) => [send(key, t), ...Array.from({ length: chunks }, (_, i) => send(key, t + 20, encodeDataRequest(i * 1448, 1448)))];
  /** The keys that have a session. */
  const held = () => [...keys].filter((k) => policy.session(k)).sort();
  return { admission, send, fetch, held };
}

describe('offset admission: at its share, a newcomer of an address takes the place of its quiet session', () => {
  it('refuses while every session of the address was heard within quietMs, and takes the place of the least recently heard once it has been silent quietMs', () => {
    const { admission, send, fetch, held } = table();
    expect(fetch('A:1', 0)).toEqual(['size', 'served']); // heard last at 20
    expect(send('A:2', 1000)).toBe('size'); // never served
    expect(send('A:3', 5019)).toBe('refused'); // A:1 silent 4,999 ms
    expect(admission.refused.perAddress).toBe(1);
    expect(send('A:3', 5020)).toBe('size'); // A:1 silent 5,000 ms: served data, its place taken all the same
    expect(held()).toEqual(['A:2', 'A:3']);
    expect(send('A:4', 5020)).toBe('refused'); // A:2 silent 4,020 ms
    expect(send('A:4', 6000)).toBe('size');
    expect(held()).toEqual(['A:3', 'A:4']);
    expect(admission.refused).toEqual({ full: 0, perAddress: 2 });
  });

  it('orders by the last datagram heard, not by when the session started', () => {
    const { send, fetch, held } = table();
    fetch('A:1', 0);
    expect(send('A:2', 10)).toBe('size');
    expect(send('A:1', 3000, encodeDataRequest(0, 1448))).toBe('served'); // A:1 heard again
    expect(send('A:3', 5009)).toBe('refused'); // A:2 silent 4,999 ms, A:1 1,999 ms
    expect(send('A:3', 5010)).toBe('size');
    expect(held()).toEqual(['A:1', 'A:3']);
    expect(send('A:2', 5010)).toBe('refused'); // the displaced key is a newcomer again, and A:1 is not quiet
  });

  it('never displaces a session of another address, however long silent', () => {
    const { admission, send, fetch, held } = table({ maxSessions: 4 });
    fetch('B:1', 0);
    fetch('B:2', 0);
    fetch('A:1', 9000);
    fetch('A:2', 9000);
    expect(send('A:3', 10_000)).toBe('refused'); // B's sessions are quiet, A's are not
    expect(send('C:1', 10_000)).toBe('refused'); // the table is full of served sessions, none idle
    expect(admission.refused).toEqual({ full: 1, perAddress: 1 });
    expect(held()).toEqual(['A:1', 'A:2', 'B:1', 'B:2']);
    expect(send('B:3', 10_000)).toBe('size'); // B's own newcomer takes the place of B:1
    expect(held()).toEqual(['A:1', 'A:2', 'B:2', 'B:3']);
  });

  it('passes over a whole fetch that may still be ranked while a quiet session has nothing to lose, then not', () => {
    const { send, fetch, held } = table();
    expect(fetch('A:1', 0, 2)).toEqual(['size', 'served', 'served']); // the whole file, no Submit yet
    expect(send('A:2', 100, encodeDataRequest(0, 1448))).toBe('no-token'); // a first request finds no token
    expect(send('A:3', 6000)).toBe('size'); // both quiet: A:2, heard later, goes
    expect(held()).toEqual(['A:1', 'A:3']);
    expect(send('A:4', 6000)).toBe('size'); // A:1 is the only quiet one: its place is taken
    expect(held()).toEqual(['A:3', 'A:4']);
  });

  it('treats a whole fetch whose ranked Submits are spent as any other session', () => {
    const { send, fetch, held } = table();
    fetch('A:1', 0, 2);
    for (const t of [30, 40, 50]) expect(send('A:1', t, encodeSubmit('me@class', md5Hex(FILE)))).toBe('result');
    send('A:2', 100);
    expect(send('A:3', 6000)).toBe('size');
    expect(held()).toEqual(['A:2', 'A:3']);
  });

  it('in a tournament, idle sessions stay for good but an address at its share still takes back its quiet ones', () => {
    const { admission, send, fetch, held } = table({ maxSessions: 3, tournament: true });
    fetch('A:1', 0);
    fetch('A:2', 0);
    fetch('B:1', 0);
    expect(send('C:1', 1e9)).toBe('refused'); // full of served sessions, never idle in a tournament
    expect(send('A:3', 1e9)).toBe('size');
    expect(held()).toEqual(['A:2', 'A:3', 'B:1']);
    expect(admission.refused).toEqual({ full: 1, perAddress: 0 });
  });

  it("leaves a bridged page's sessions out of its address's share", () => {
    const { send, held } = table();
    for (const port of [1, 2, 3]) expect(send(`A:${port}`, 0, encodeSizeRequest(), false)).toBe('size');
    expect(send('A:4', 0)).toBe('size');
    expect(send('A:5', 0)).toBe('size');
    expect(send('A:6', 10_000)).toBe('size'); // A:4 goes, the bridged ones were never candidates
    expect(held()).toEqual(['A:1', 'A:2', 'A:3', 'A:5', 'A:6']);
  });

  it('answers a malformed datagram from a newcomer at a full share with nothing', () => {
    const { send, fetch } = table();
    fetch('A:1', 0);
    fetch('A:2', 0);
    expect(send('A:3', 100, new TextEncoder().encode('nonsense'))).toBe('refused');
  });
});
