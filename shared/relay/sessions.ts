/** One offset-server session as `GET /api/sessions` lists it. */
export interface SessionSummary {
  /** The session's client key and the millisecond it started (`sessionId`): unique across Resets. */
  id: string;
  key: string;
  /** For a session a page ran through the relay's bridge (its key is the relay's own socket): the page's address. */
  browser?: string;
  server: 'constant' | 'variable';
  started: string;
  requests: number;
  replies: number;
  penalty: number;
  squishes: number;
  result: boolean | null;
  time: number | null;
  /** The id its last Submit gave (the student, for a class), or null before any. */
  submittedAs: string | null;
}

/** A session's id: its client key (an address, or address:port) and the millisecond it started. */
export const sessionId = (key: string, startMs: number) => `${key}@${startMs}`;

/** Whether a text has the shape of a session's id; whether the relay still records that session is the relay's to say. */
export const isSessionId = (text: string) => /^[^\s@/]{1,100}@\d{1,16}$/.test(text);
