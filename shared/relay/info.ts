import type { OffsetPolicyConfig } from '../offset/policy.ts';

/**
 * What the page asks the relay about itself, to offer live mode. Nothing here lets a client grade
 * itself: the file's MD5 stays on the server.
 */
export interface RelayInfo {
  offsetConstant: string;
  offsetVariable: string;
  echo: string;
  bridge: string;
  fileSize: number;
  /** Reset is ignored and every Submit goes on the leaderboard as in the course's tournament. */
  tournament: boolean;
  /** The policy the offset servers enforce (the variable-rate one sets `variable`). */
  policy: OffsetPolicyConfig;
  /** The operator lets a bridged session ask for its own policy (`--allow-session-policy`). */
  sessionPolicy?: boolean;
  /** The relay runs the class contest (`--contest`: /api/contest/…). */
  contest?: boolean;
  /** The bundled trace files the class contest holds out (not served): a page asks for none of them. */
  heldOutFiles?: string[];
  /** The client asking holds the operator's token (each client is told about itself). */
  operator?: boolean;
  /** The client asking may see clients' records (sessions, echo connections): the operator, or a relay that shares them. */
  clientRecords?: boolean;
  /** The class's records on disk: how many, how many not yet written (held while the disk refuses them), and why. */
  records?: { kept: number; backlog: number; error: string | null } | null;
  /** A UDP round trip on the relay's loopback path, ms, measured when asked (the median of a few pings). */
  loopbackRttMs?: number;
}
