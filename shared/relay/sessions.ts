/** One offset-server session as `GET /api/sessions` lists it. */
export interface SessionSummary {
  /** The session's client key and the millisecond it started: unique across Resets. */
  id: string;
  key: string;
  server: 'constant' | 'variable';
  started: string;
  requests: number;
  replies: number;
  penalty: number;
  squishes: number;
  result: boolean | null;
  time: number | null;
}
