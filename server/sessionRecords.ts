import { formatTraceCsv } from '../shared/csv/trace.ts';
import { parseReply } from '../shared/offset/protocol.ts';
import { EventLog } from '../shared/log/eventLog.ts';
import { DROP, ESTIMATE, K } from '../shared/log/kinds.ts';
import type { Decision } from '../shared/offset/policy.ts';
import { type SessionSummary, sessionId } from '../shared/relay/sessions.ts';

export type { SessionSummary };

const FIELDS = 6;

interface Recorded {
  summary: SessionSummary;
  start: number;
  /** The token rate in force as last recorded: a row is added each time it changes. */
  rate: number;
  /** Events, FIELDS numbers each (t, kind, seq, bytes, value, window), flat so that each costs 48 bytes. */
  rows: number[];
}

export interface RecordLimits {
  sessions: number;
  eventsPerSession: number;
}

/**
 * Every session of one offset server as the model's events (request, reply, drop, squish, penalty, done),
 * the newest `eventsPerSession` of each, for the `sessions` most recently started.
 */
export class SessionRecords {
  private readonly byId = new Map<string, Recorded>();
  private readonly current = new Map<string, Recorded>();

  constructor(
    private readonly server: 'constant' | 'variable',
    private readonly limits: RecordLimits,
  ) {}

  /** One datagram's decision, at the reading `now` the policy was given, and the token rate then in force. */
  record(key: string, sessionStart: number, datagramBytes: number, d: Decision, now: number, rate: number): void {
    let r = this.current.get(key);
    if (!r || r.start !== sessionStart) r = this.begin(key, sessionStart);
    const at = Math.floor(now) - sessionStart;
    const s = r.summary;
    const push = (kind: number, bytes: number, value: number, seq = d.offset, window = 0) => r.rows.push(at, kind, seq, bytes, value, window);
    if (rate !== r.rate) {
      r.rate = rate;
      push(K.estimate, 0, rate, ESTIMATE.tokenRate);
    }
    if (d.outcome === 'served' || d.outcome === 'lost' || d.outcome === 'no-token') {
      s.requests++;
      push(K.send, datagramBytes, 0);
    }
    if (d.outcome === 'served') {
      s.replies++;
      // a reply's bytes are its chunk, as the model logs them (the file's end is its offset plus them)
      const reply = parseReply(d.reply!);
      push(K.reply, reply.kind === 'data' ? reply.numBytes : d.reply!.length, 0);
    } else if (d.outcome === 'lost') push(K.drop, datagramBytes, DROP['server-loss']);
    else if (d.outcome === 'no-token') {
      push(K.drop, datagramBytes, DROP['no-token']);
      push(K.penalty, 0, d.penalty);
    }
    if (d.squishChange !== 0) {
      s.squishes += d.squishChange > 0 ? 1 : 0;
      push(K.squish, 0, d.squishChange > 0 ? 1 : 0);
    }
    if (d.submission) {
      s.result = d.submission.result;
      s.time = d.submission.time;
      s.submittedAs = d.submission.id;
      // as a client's own log has it (shared/endpoints/offsetClient.ts): the result, the Time, the penalty
      push(K.done, 0, d.submission.time, d.submission.result ? 1 : 0, d.submission.penalty);
    }
    s.penalty = d.penalty;
    // Amortized: one splice per eventsPerSession events.
    if (r.rows.length >= 2 * FIELDS * this.limits.eventsPerSession) r.rows.splice(0, FIELDS * this.limits.eventsPerSession);
  }

  private begin(key: string, start: number): Recorded {
    const id = sessionId(key, start);
    const r: Recorded = {
      start,
      rate: -1,
      rows: [],
      summary: { id, key, server: this.server, started: new Date(start).toISOString(), requests: 0, replies: 0, penalty: 0, squishes: 0, result: null, time: null, submittedAs: null },
    };
    this.byId.set(id, r);
    this.current.set(key, r);
    if (this.byId.size > this.limits.sessions) {
      const [oldId, old] = this.byId.entries().next().value!;
      this.byId.delete(oldId);
      if (this.current.get(old.summary.key) === old) this.current.delete(old.summary.key);
    }
    return r;
  }

  get summaries(): SessionSummary[] {
    return [...this.byId.values()].map((r) => ({ ...r.summary }));
  }

  /** The session's trace CSV in the project's schema, or null for an unknown id. */
  csv(id: string): string | null {
    const r = this.byId.get(id);
    if (!r) return null;
    const rows = r.rows.slice(-FIELDS * this.limits.eventsPerSession);
    const log = new EventLog(Math.max(16, rows.length / FIELDS));
    for (let i = 0; i < rows.length; i += FIELDS) log.push(rows[i], rows[i + 1], 0, rows[i + 2], rows[i + 3], rows[i + 4], rows[i + 5]);
    return formatTraceCsv(log, { live: { server: `${this.server} offset server`, scheme: 'unknown', params: {}, via: 'udp', variable: this.server === 'variable' } });
  }
}
