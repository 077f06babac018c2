import type { RelaySession } from '../../shared/bridge/protocol.ts';
import type { SessionSummary } from '../../shared/relay/sessions.ts';

/**
 * The relay sessions this page's own live fetches ran as, kept in this tab's sessionStorage (another tab,
 * or a classmate's page, has its own): the Sessions view marks them "this page". The relay tells each page
 * its own session's key alone (server/bridgeSession.ts's ready message).
 */
const STORAGE_KEY = 'pipefill.ownSessions';
/** The most kept: a class's worth of fetches from one tab. */
const MAX_KEPT = 200;
/**
 * How much earlier than the bridge session's opening a recorded session may seem to start and still be
 * its own: the two are dated by different threads' clocks. A port is the session's alone while it is open.
 */
const CLOCK_SLACK_MS = 1000;

const isRelaySession = (s: unknown): s is RelaySession =>
  typeof s === 'object' && s !== null && typeof (s as RelaySession).key === 'string' && (s as RelaySession).key.length <= 100 && Number.isFinite((s as RelaySession).since);

/** The sessions this tab has run, oldest first. */
export function ownSessions(): RelaySession[] {
  try {
    const kept: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(kept) ? kept.filter(isRelaySession) : [];
  } catch {
    return []; // no storage (disabled), or not what this page wrote
  }
}

/** Keeps a fetch's session (checked: the result it came with was handed over by the sandboxed controller). */
export function rememberOwnSession(s: unknown): void {
  if (!isRelaySession(s)) return;
  const kept = ownSessions().filter((o) => o.key !== s.key || o.since !== s.since);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...kept, { key: s.key, since: s.since }].slice(-MAX_KEPT)));
  } catch {
    // storage full or disabled: the session goes unmarked
  }
}

/** Whether a recorded session is one of `own`: its key, opened no earlier than the bridge session was. */
export function isOwnSession(row: SessionSummary, own: readonly RelaySession[]): boolean {
  const started = Date.parse(row.started);
  return own.some((o) => o.key === row.key && started >= o.since - CLOCK_SLACK_MS);
}
