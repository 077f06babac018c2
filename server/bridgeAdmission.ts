import type { IncomingMessage } from 'node:http';
import { checkPolicyValues } from '../shared/offset/params.ts';
import { quote } from '../shared/text/quote.ts';
import { requestUrl } from './http.ts';
import { foreignPage } from './pageOrigin.ts';

export interface Admitted {
  target: string;
  host: string;
  port: number;
  transport: 'udp' | 'tcp';
  receipts: boolean;
  /** Binary messages carry the relay-clock time to send them at (a UDP session only). */
  timed: boolean;
  /** The address the session is counted against. */
  client: string;
  /** The offset-server policy the session asks for (checked `srv.*` values), or null for the server's. */
  policy: Record<string, number | string> | null;
}

export interface AdmissionRules {
  udpTargets: string[];
  tcpTargets: string[];
  origins: string[];
  maxSessions: number;
  maxSessionsPerClient: number;
  /** The relay's own offset servers: the targets a session may ask a policy of, when any may. */
  policyTargets: string[];
  /** How a session's policy is applied, when the operator allows sessions their own (else null). */
  sessionPolicy: ((...args: never[]) => unknown) | null;
  /** The address a request comes from (a trusted proxy's client), when not the socket's peer. */
  clientAddress?: (req: IncomingMessage) => string;
}

export function normalizeTarget(raw: string): string | null {
  const m = /^(localhost|[\d.]+|\[[\da-f:]+\]):(\d{1,5})$/i.exec(raw.trim());
  if (!m || Number(m[2]) > 65_535) return null;
  return `${m[1].toLowerCase() === 'localhost' ? '127.0.0.1' : m[1]}:${Number(m[2])}`;
}

/** Whether a new bridge session may open, and to what: the origin, the session caps, the transport and the target. */
export function admit(req: IncomingMessage, rules: AdmissionRules, counts: { total: number; perClient: ReadonlyMap<string, number> }): Admitted | { refusal: string; code: number } {
  // The relay hands over only requests whose path it read as /bridge.
  const url = requestUrl(req)!;
  const foreign = foreignPage(req, rules.origins);
  if (foreign !== null) return { refusal: foreign, code: 1008 };
  if (counts.total >= rules.maxSessions) return { refusal: `the relay already has ${rules.maxSessions} sessions; try again later`, code: 1013 };
  const client = rules.clientAddress?.(req) ?? req.socket.remoteAddress ?? 'unknown';
  if ((counts.perClient.get(client) ?? 0) >= rules.maxSessionsPerClient) {
    return { refusal: `${client} already has ${rules.maxSessionsPerClient} sessions on this relay; close one first`, code: 1013 };
  }
  const transport = url.searchParams.get('transport') ?? 'udp';
  if (transport !== 'udp' && transport !== 'tcp') return { refusal: `transport must be udp or tcp (got ${quote(transport)})`, code: 1008 };
  const target = normalizeTarget(url.searchParams.get('target') ?? '');
  const allowed = (transport === 'udp' ? rules.udpTargets : rules.tcpTargets).map((t) => normalizeTarget(t));
  if (!target || !allowed.includes(target)) {
    const asked = url.searchParams.get('target');
    return { refusal: `target ${asked === null ? '(none)' : quote(asked)} over ${transport} is not allowed; allowed: ${allowed.join(', ') || 'none'}`, code: 1008 };
  }
  const timed = url.searchParams.get('timed') === '1';
  if (timed && transport !== 'udp') return { refusal: 'timed sends are for UDP targets only', code: 1008 };
  const policy = askedPolicy(url, rules, target);
  if (typeof policy === 'string') return { refusal: policy, code: 1008 };
  const colon = target.lastIndexOf(':');
  return {
    target,
    host: target.slice(0, colon).replace(/^\[|\]$/g, ''),
    port: Number(target.slice(colon + 1)),
    transport,
    receipts: url.searchParams.get('receipts') === '1' || timed,
    timed,
    client,
    policy,
  };
}

/** The `srv.*` values of a bridge URL, checked against the policy schema's bounds, or why they are refused. */
function askedPolicy(url: URL, rules: AdmissionRules, target: string): Record<string, number | string> | null | string {
  // No prototype: a name such as __proto__ is a key like any other, refused as no parameter of the server.
  const raw: Record<string, string> = Object.create(null);
  for (const [k, v] of url.searchParams) if (k.startsWith('srv.')) raw[k.slice(4)] = v;
  if (Object.keys(raw).length === 0) return null;
  if (!rules.sessionPolicy) return "this relay's offset servers keep their own policy (the operator may start it with --allow-session-policy)";
  if (!rules.policyTargets.includes(target)) return "a session policy applies to the relay's own offset servers only";
  const checked = checkPolicyValues(raw);
  return 'error' in checked ? checked.error : checked.values;
}
