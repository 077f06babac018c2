import type { OffsetPolicy } from '../shared/offset/policy.ts';

export interface AdmissionLimits {
  /** Sessions the server keeps. */
  maxSessions: number;
  /** Sessions one capped source address may hold. */
  maxSessionsPerAddress: number;
  /** A session silent this long may make room for a newcomer (never in a tournament). */
  idleMs: number;
  tournament: boolean;
}

/**
 * Who gets a new session on a full offset server. A session that has been served data is a student's
 * run: no newcomer displaces it before its idle time (in a tournament, ever). A newcomer takes the place
 * of the oldest session that was never served (a SendSize, a Submit, a probe) or of one idle past its
 * time; if there is none, it is refused and gets nothing. One source address holds at most its share
 * of sessions (the bridge's sockets, one per page, are capped by the bridge instead).
 */
export class SessionAdmission {
  /** Keys with a session never served data, oldest first: those a newcomer may displace. */
  private readonly unserved = new Set<string>();
  /** Keys of capped addresses, and how many each address holds. */
  private readonly addressOf = new Map<string, string>();
  private readonly perAddress = new Map<string, number>();
  /** Newcomers refused: the table was full of served sessions, or their address held its share. */
  refused = { full: 0, perAddress: 0 };

  constructor(
    private readonly policy: OffsetPolicy,
    private readonly o: AdmissionLimits,
  ) {}

  /** Whether a key with no session may start one now, making room if the table is full. */
  admits(address: string, capped: boolean, now: number): boolean {
    if (capped && (this.perAddress.get(address) ?? 0) >= this.o.maxSessionsPerAddress) {
      this.refused.perAddress++;
      return false;
    }
    if (this.policy.sessionCount < this.o.maxSessions) return true;
    if (!this.o.tournament) this.reclaim(now);
    if (this.policy.sessionCount < this.o.maxSessions) return true;
    const displaced = this.unserved.values().next();
    if (displaced.done) {
      this.refused.full++;
      return false;
    }
    this.policy.forget(displaced.value);
    this.forgotten(displaced.value);
    return true;
  }

  /** A key's session has just been started. */
  started(key: string, address: string, capped: boolean): void {
    this.unserved.add(key);
    if (!capped) return;
    this.addressOf.set(key, address);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
  }

  /** A key's session has been served data: it stays until idle. */
  served(key: string): void {
    this.unserved.delete(key);
  }

  /** Forgets the sessions idle past their time (never in a tournament). */
  reclaim(now: number): void {
    if (this.o.tournament || this.policy.reclaim(now, this.o.idleMs) === 0) return;
    for (const key of [...this.unserved, ...this.addressOf.keys()]) if (!this.policy.session(key)) this.forgotten(key);
  }

  private forgotten(key: string): void {
    this.unserved.delete(key);
    const address = this.addressOf.get(key);
    if (address === undefined) return;
    this.addressOf.delete(key);
    const n = (this.perAddress.get(address) ?? 1) - 1;
    if (n === 0) this.perAddress.delete(address);
    else this.perAddress.set(address, n);
  }
}

/**
 * Bytes per second an offset server sends one source address: a reply is 57 times its request, so a
 * spoofed source could point a server at someone else. An address over its budget gets no answer until
 * the bucket refills (one second's worth at most); addresses with a full bucket are forgotten.
 */
export class ReplyBudget {
  private readonly buckets = new Map<string, { bytes: number; at: number }>();

  constructor(private readonly bytesPerSecond: number) {}

  /** Whether the address may be answered now (its bucket is not in debt). */
  allows(address: string, now: number): boolean {
    const b = this.buckets.get(address);
    if (!b) return true;
    b.bytes = Math.min(this.bytesPerSecond, b.bytes + ((now - b.at) * this.bytesPerSecond) / 1000);
    b.at = now;
    return b.bytes > 0;
  }

  /** Takes a reply's bytes from the address's bucket (which may go into debt by that reply). */
  spend(address: string, bytes: number, now: number): void {
    const b = this.buckets.get(address);
    if (b) b.bytes -= bytes;
    else this.buckets.set(address, { bytes: this.bytesPerSecond - bytes, at: now });
  }

  /** Forgets the buckets that have refilled, so a flood of source addresses leaves nothing behind. */
  prune(now: number): void {
    for (const [address, b] of this.buckets) if (b.bytes + ((now - b.at) * this.bytesPerSecond) / 1000 >= this.bytesPerSecond) this.buckets.delete(address);
  }
}
