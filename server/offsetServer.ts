import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { impairedDelay, NO_IMPAIRMENTS } from '../shared/link/impairments.ts';
import { OffsetPolicy, type OffsetPolicyConfig, type Submission } from '../shared/offset/policy.ts';
import { encodeError } from '../shared/offset/protocol.ts';
import { Rng } from '../shared/sim/rng.ts';
import { ReplyBudget, SessionAdmission } from './offsetAdmission.ts';
import { fromBridge, sessionKey, type PortSet } from './portSet.ts';
import { SessionRecords, type RecordLimits } from './sessionRecords.ts';

/**
 * Who sent a Submit: its source address, and for one of the bridge's sockets that socket (address:port),
 * whose page only the bridge knows.
 */
export interface SubmitSource {
  address: string;
  bridgedSocket: string | null;
}

/**
 * What becomes of a ranked Submit's record: settles null once it is on disk (or where the relay keeps no
 * records file), else with why it could not be written. The Submit's answer waits for it.
 */
export type SubmitKept = Promise<string | null> | undefined;

/**
 * The answer to a ranked Submit whose record the disk refused: the course's protocol says "not kept" only
 * with an ERROR line, and a `Result:` is an acknowledgement (ASCII only, as every header of the protocol;
 * the reason cut short so the whole answer stays a header any client reads).
 */
export const notKept = (why: string): Uint8Array => encodeError(`ERROR: Submit not kept: the relay cannot write its records (${why.replace(/[^\x20-\x7e]/g, '?').slice(0, 160)}); Submit again later`);

export interface OffsetServerOptions {
  host: string;
  port: number;
  policy: OffsetPolicyConfig;
  file: Uint8Array;
  seed: number;
  /** Sessions by source IP and port (each bridged browser has its own socket), or by IP as the course server. */
  keyBy: 'ip' | 'ip:port';
  /** Teaching options: replies held back by delay ± jitter; reordered ones skip the delay. */
  delayMs: number;
  jitterMs: number;
  reorder: number;
  /** Sessions silent this long are forgotten (never in a tournament). */
  idleMs: number;
  /** At its address's share, a new port of that address takes the place of its session silent this long. */
  quietMs: number;
  /** Sessions kept at once (see SessionAdmission for who gets a place), and those of one source address. */
  maxSessions: number;
  maxSessionsPerAddress: number;
  /** Bytes per second of replies one source address may draw (the bridge's sockets are budgeted by the bridge). */
  maxBytesPerAddress: number;
  /** The course server's tournament: Reset is ignored and sessions are not forgotten when idle. */
  tournament: boolean;
  /** Local ports of the bridge's sockets: each bridged browser keeps its own session in either key mode. */
  bridgedPorts: PortSet | null;
  /** Every Submit, as graded; a promise it returns holds the Submit's answer until its record is on disk, or refused. */
  onSubmit?: (s: Submission, from: SubmitSource) => SubmitKept;
  /** How many sessions, and events of each, are kept for /api/sessions. */
  records: RecordLimits;
  /** Milliseconds (default: the monotonic wall clock); a test's own, in this thread only. */
  clock?: () => number;
}

export interface OffsetServer {
  readonly port: number;
  readonly policy: OffsetPolicy;
  readonly records: SessionRecords;
  /** Datagrams handled since start. */
  readonly handled: number;
  /** Datagrams left unanswered: a newcomer refused a session (full table, or its address's share), or over its address's budget. */
  readonly refused: { full: number; perAddress: number; budget: number };
  close(): Promise<void>;
}

/**
 * Sends replies on the socket, each after the teaching options' delay ± jitter (a reordered one at once);
 * after `close` nothing more is sent, and none of the held replies.
 */
function replySender(o: OffsetServerOptions, socket: Socket, rng: Rng) {
  const impair = { ...NO_IMPAIRMENTS, jitter: o.jitterMs, reorder: o.reorder };
  const reorderRng = rng.stream('reorder');
  const jitterRng = rng.stream('jitter');
  const delayed = o.delayMs > 0 || o.jitterMs > 0 || o.reorder > 0;
  const held = new Set<ReturnType<typeof setTimeout>>();
  let closed = false;
  const now = (reply: Uint8Array, to: RemoteInfo) => {
    if (!closed) socket.send(reply, to.port, to.address);
  };
  return {
    send(reply: Uint8Array, to: RemoteInfo): void {
      const wait = delayed ? impairedDelay(o.delayMs, impair, reorderRng, jitterRng) : 0;
      if (wait <= 0) return now(reply, to);
      const h = setTimeout(() => {
        held.delete(h);
        now(reply, to);
      }, wait);
      held.add(h);
    },
    close(): void {
      closed = true;
      for (const h of held) clearTimeout(h);
    },
  };
}

/** Binds the socket, or rejects with why it cannot (a port in use). */
function bind(socket: Socket, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

/**
 * The offset server on a real UDP socket: each datagram goes through the shared policy and its answer,
 * if any, goes back to the sender. Nothing a client sends can throw past the handler.
 */
export async function startOffsetServer(o: OffsetServerOptions): Promise<OffsetServer> {
  const rng = new Rng(o.seed, o.policy.variable ? 'variable' : 'constant');
  const policy = new OffsetPolicy(o.policy, o.file, rng.stream('policy'), { maxSessions: o.maxSessions, tournament: o.tournament });
  const records = new SessionRecords(o.policy.variable ? 'variable' : 'constant', o.records);
  const socket: Socket = createSocket({ type: 'udp4', recvBufferSize: 4 << 20, sendBufferSize: 4 << 20 });
  const replies = replySender(o, socket, rng);
  let handled = 0;
  /** The address the socket is bound to, once bound (a host name resolved): where the bridge's datagrams come from. */
  let boundTo = '';

  const clock = o.clock ?? (() => performance.timeOrigin + performance.now());
  const admission = new SessionAdmission(policy, o);
  const budget = new ReplyBudget(o.maxBytesPerAddress);
  let overBudget = 0;
  /** The answer to one datagram, if any: its source's budget and a place for its session allowing. */
  const answer = (msg: Buffer, from: RemoteInfo) => {
    // The course server reads the wall clock in milliseconds; the policy floors each reading, and this
    // clock (monotonic, unlike Date.now) ticks over whole milliseconds when the wall clock does.
    const now = clock();
    const capped = !fromBridge(o.bridgedPorts, from.address, from.port, boundTo);
    if (capped && !budget.allows(from.address, now)) return void overBudget++;
    const key = sessionKey(o.keyBy, from.address, from.port, o.bridgedPorts, boundTo);
    const d = admission.handle(key, from.address, capped, msg, now);
    if (!d) return;
    const session = policy.session(key);
    if (session) records.record(key, session.start, msg.length, d, now, policy.rateAt(session, now));
    const stored = d.submission && o.onSubmit?.(d.submission, { address: from.address, bridgedSocket: capped ? null : `${from.address}:${from.port}` });
    const reply = d.reply;
    if (!reply) return;
    if (capped) budget.spend(from.address, reply.length, now);
    if (!stored) return replies.send(reply, from);
    // Answered once the record is on disk; one the disk refused is answered so, never with a Result, and
    // counts toward none of the session's ranked Submits: its client's next Submit may be kept.
    const answerKept = (why: string | null) => {
      if (why === null) return replies.send(reply, from);
      if (session) policy.unrank(session);
      const refusal = notKept(why);
      if (capped) budget.spend(from.address, refusal.length - reply.length, clock());
      replies.send(refusal, from);
    };
    void stored.then(answerKept, (e: unknown) => answerKept(String((e as Error | undefined)?.message ?? e)));
  };
  socket.on('message', (msg, from) => {
    handled++;
    try {
      answer(msg, from);
    } catch (e) {
      // A bug must not take the server down for everyone else; say what happened once per datagram.
      console.error(`offset server ${o.port}: ${(e as Error).message}`);
    }
  });
  socket.on('error', (e) => console.error(`offset server ${o.port}: ${e.message}`));
  await bind(socket, o.port, o.host);
  boundTo = socket.address().address;
  const reclaim = setInterval(() => admission.reclaim(clock()), Math.min(10_000, o.idleMs));
  const prune = setInterval(() => budget.prune(clock()), 1000);
  reclaim.unref();
  prune.unref();

  return {
    port: socket.address().port,
    policy,
    records,
    get handled() {
      return handled;
    },
    get refused() {
      return { ...admission.refused, budget: overBudget };
    },
    close: () =>
      new Promise<void>((resolve) => {
        replies.close();
        clearInterval(reclaim);
        clearInterval(prune);
        socket.close(() => resolve());
      }),
  };
}
