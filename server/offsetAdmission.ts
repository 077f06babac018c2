import { type Decision, type OffsetPolicy, RANKED_SUBMITS } from '../shared/offset/policy.ts';

export interface AdmissionLimits {
  /** Sessions the server keeps. */
  maxSessions: number;
  /** Sessions one capped source address may hold. */
  maxSessionsPerAddress: number;
  /** A session silent this long may make room for a newcomer (never in a tournament). */
  idleMs: number;
  /** At its address's share, a newcomer takes the place of that address's session silent this long. */
  quietMs: number;
  tournament: boolean;
}

/**
 * Who gets a new session on a full offset server. A session that has been served data is a student's
 * run: no newcomer of another address displaces it before its idle time (in a tournament, ever). A
 * newcomer takes the place of the oldest session that was never served (a SendSize, a Submit, a probe) or
 * of one idle past its time; if there is none, it is refused and gets nothing. One source address holds at
 * most its share of sessions (the bridge's sockets, one per page, are capped by the bridge instead); at
 * its share, a newcomer of that address takes the place of the address's own session heard from least
 * recently, if that one has been silent `quietMs` (a student mid-fetch asks again within its timeout), so
 * that sockets gone quiet cannot lock out the others behind the same address (a lab's NAT).
 */
export class SessionAdmission {
  /** Keys with a session never served data, oldest first: those a newcomer may displace. */
  private readonly unserved = new Set<string>();
  /** Keys of capped addresses; each address's keys, least recently heard first, with when each was heard. */
  private readonly addressOf = new Map<string, string>();
  private readonly heardAt = new Map<string, Map<string, number>>();
  /** Newcomers refused: the table was full of served sessions, or their address held its share and none was quiet. */
  refused = { full: 0, perAddress: 0 };

  constructor(
    private readonly policy: OffsetPolicy,
    private readonly o: AdmissionLimits,
  ) {}

  /**
   * The policy's decision on a datagram from `key` (of source `address`; `capped` unless it is a bridged
   * page's socket), or null when the key has no session and none may start: it gets no answer.
   */
  handle(key: string, address: string, capped: boolean, datagram: Uint8Array, now: number): Decision | null {
    const known = this.policy.session(key) !== undefined;
    if (!known && !this.admits(address, capped, now)) return null;
    const d = this.policy.handle(key, datagram, now);
    if (!this.policy.session(key)) return d;
    if (known) this.heard(key, now);
    else this.started(key, address, capped, now);
    // Served data, the session is a student's run: no newcomer of another address displaces it until idle.
    if (d.outcome === 'served') this.unserved.delete(key);
    return d;
  }

  /** Whether a key with no session may start one now, making room if the table or its address's share is full. */
  private admits(address: string, capped: boolean, now: number): boolean {
    const held = capped ? this.heardAt.get(address) : undefined;
    if (held && held.size >= this.o.maxSessionsPerAddress) {
      const quiet = this.quietest(held, now);
      if (quiet === undefined) {
        this.refused.perAddress++;
        return false;
      }
      this.displace(quiet);
    }
    if (this.policy.sessionCount < this.o.maxSessions) return true;
    if (!this.o.tournament) this.reclaim(now);
    if (this.policy.sessionCount < this.o.maxSessions) return true;
    const displaced = this.unserved.values().next();
    if (displaced.done) {
      this.refused.full++;
      return false;
    }
    this.displace(displaced.value);
    return true;
  }

  /** A key's session has just been started. */
  private started(key: string, address: string, capped: boolean, now: number): void {
    this.unserved.add(key);
    if (!capped) return;
    this.addressOf.set(key, address);
    const held = this.heardAt.get(address) ?? new Map<string, number>();
    this.heardAt.set(address, held.set(key, now));
  }

  /** A datagram has come from a key that has a session. */
  private heard(key: string, now: number): void {
    const address = this.addressOf.get(key);
    if (address === undefined) return;
    const held = this.heardAt.get(address)!;
    held.delete(key);
    held.set(key, now);
  }

  /** Forgets the sessions idle past their time (never in a tournament). */
  reclaim(now: number): void {
    if (this.o.tournament || this.policy.reclaim(now, this.o.idleMs) === 0) return;
    for (const key of [...this.unserved, ...this.addressOf.keys()]) if (!this.policy.session(key)) this.forgotten(key);
  }

  /**
   * The address's session a newcomer of it takes the place of: the least recently heard of those silent
   * `quietMs`, passing over one whose whole fetch may still be ranked while a quiet one's may not (a student
   * who fetched and has yet to Submit loses most), or none.
   */
  private quietest(held: Map<string, number>, now: number): string | undefined {
    let fallback: string | undefined;
    for (const [key, at] of held) {
      if (now - at < this.o.quietMs) break;
      if (!this.mayStillRank(key)) return key;
      fallback ??= key;
    }
    return fallback;
  }

  /** Whether the key's session was served the whole file and has ranked Submits left (Submission.ranked). */
  private mayStillRank(key: string): boolean {
    const s = this.policy.session(key);
    return s !== undefined && s.servedBytes >= this.policy.file.length && s.rankedSubmits < RANKED_SUBMITS;
  }

  private displace(key: string): void {
    this.policy.forget(key);
    this.forgotten(key);
  }

  private forgotten(key: string): void {
    this.unserved.delete(key);
    const address = this.addressOf.get(key);
    if (address === undefined) return;
    this.addressOf.delete(key);
    const held = this.heardAt.get(address)!;
    held.delete(key);
    if (held.size === 0) this.heardAt.delete(address);
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
