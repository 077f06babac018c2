import { useEffect, useRef, useState } from 'react';
import type { Accepted, Board, Reference, Roster, SubmissionView, TokenProblem } from '../../shared/contest/api.ts';
import { savedToken, saveToken } from './contestTokens.ts';

/**
 * The page's side of the relay's contest API (shared/contest/api.ts): the board and reference points kept
 * up to date through the event stream, and submitting with the id's token kept in this browser.
 */

export type ContestState = { status: 'loading' | 'none' | 'live'; board: Board | null; reference: Reference | null; operator: boolean };

const json = async <T>(path: string): Promise<T | null> => {
  const res = await fetch(path, { cache: 'no-store' });
  return res.ok ? ((await res.json()) as T) : null;
};

/** What the relay says of itself that the contest needs: whether it runs one, and whether the page is the operator's. */
const relayInfo = () => json<{ contest?: boolean; operator?: boolean }>('/api/relay').catch(() => null);

/** The contest as the relay shows it now; 'none' when the relay runs none (or the page has no relay). */
export function useContest(): ContestState {
  const [state, setState] = useState<ContestState>({ status: 'loading', board: null, reference: null, operator: false });
  useEffect(() => {
    let live = true;
    let events: EventSource | null = null;
    const load = async (operator: boolean) => {
      const [board, reference] = await Promise.all([json<Board>('/api/contest/leaderboard'), json<Reference>('/api/contest/reference')]).catch(() => [null, null]);
      if (live) setState({ status: board ? 'live' : 'none', board, reference, operator });
    };
    void relayInfo().then((info) => {
      if (!live) return;
      if (!info?.contest) return setState((s) => ({ ...s, status: 'none' }));
      const operator = info.operator === true;
      void load(operator);
      events = new EventSource('/api/contest/events');
      events.onmessage = () => void load(operator);
    });
    return () => {
      live = false;
      events?.close();
    };
  }, []);
  return state;
}

/** Whether the relay runs a contest (asked once per page). */
let contestOn: Promise<boolean> | null = null;
export const relayRunsContest = () => (contestOn ??= relayInfo().then((info) => info?.contest === true));

/**
 * A refusal, whether it is of the token (missing or not the id's: the page asks for it then), and for one
 * that passes (the id's least gap between submissions), in how many seconds the relay takes the next.
 */
export type Refused = { error: string; token: boolean; retryAfter?: number };

/**
 * Submits `code` under `id` with `token` (or the one kept for it): the submission and the id's token, kept
 * in this browser, or the relay's refusal as a sentence.
 */
export async function submitToContest(id: string, code: string, token = savedToken(id)): Promise<{ submission: string; token: string } | Refused> {
  try {
    const res = await fetch('/api/contest/submissions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, code, token }) });
    const body = (await res.json()) as Accepted & { error?: string; tokenProblem?: TokenProblem };
    // the relay names what was wrong with a token it refuses; its other refusals (an id the class roster
    // does not list) are no question of the token
    if (!res.ok) {
      const retryAfter = Number(res.headers.get('retry-after'));
      return { error: body.error ?? `the relay answered ${res.status}`, token: body.tokenProblem !== undefined, ...(retryAfter > 0 ? { retryAfter } : {}) };
    }
    saveToken(id, body.token);
    return { submission: body.submission, token: body.token };
  } catch {
    return { error: 'the relay did not answer', token: false };
  }
}

/** For the operator, the class roster's ids (null without one); never asked for by anyone else. */
export function useRosterIds(operator: boolean): string[] | null {
  const [ids, setIds] = useState<string[] | null>(null);
  useEffect(() => {
    if (operator)
      void json<Roster>('/api/contest/roster')
        .catch(() => null)
        .then((r) => setIds(r?.ids ?? null));
  }, [operator]);
  return ids;
}

/**
 * What each failed submission said, for the operator, who may read every one. A failed submission's error
 * changes only at the reveal (a held-out trace's failure is named then), so each is asked for once a side
 * of it; one that could not be read is asked for again as the board next changes.
 */
export function useFailureTexts(submissions: readonly string[], revealed: boolean): (submission: string) => string | undefined {
  const [texts, setTexts] = useState<ReadonlyMap<string, string>>(new Map());
  const asked = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const key = (s: string) => `${revealed} ${s}`;
  const wanted = submissions.join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked when the list of submissions or the reveal changes, which `wanted` and `revealed` spell.
  useEffect(() => {
    for (const k of submissions.map(key).filter((k) => !asked.current.has(k))) {
      asked.current.add(k);
      void json<SubmissionView>(`/api/contest/submissions/${k.split(' ')[1]}`)
        .catch(() => null)
        .then((v) => {
          if (!v?.error) asked.current.delete(k);
          else if (mounted.current) setTexts((t) => new Map(t).set(k, v.error!));
        });
    }
  }, [wanted, revealed]);
  return (s) => texts.get(key(s));
}

/** A submission's state until it is scored or failed, polled (never another submission's, even for a render). */
export function useSubmission(submission: string | null): SubmissionView | null {
  const [seen, setSeen] = useState<{ submission: string; view: SubmissionView } | null>(null);
  useEffect(() => {
    if (!submission) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const v = await json<SubmissionView>(`/api/contest/submissions/${submission}`).catch(() => null);
      if (v) setSeen({ submission, view: v });
      if (!v || v.status === 'queued' || v.status === 'running') timer = setTimeout(() => void poll(), 1000);
    };
    void poll();
    return () => clearTimeout(timer);
  }, [submission]);
  return seen?.submission === submission ? seen.view : null;
}
