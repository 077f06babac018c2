import { useEffect, useState } from 'react';
import type { LeaderboardEntry } from '../../shared/relay/leaderboard.ts';

export type BoardState = { entries: LeaderboardEntry[]; status: 'connecting' | 'live' | 'no relay' };

/** The relay's leaderboard, kept up to date through its event stream (EventSource reconnects by itself). */
export function useLeaderboard(): BoardState {
  const [state, setState] = useState<BoardState>({ entries: [], status: 'connecting' });
  useEffect(() => {
    const events = new EventSource('/api/leaderboard/events');
    events.addEventListener('all', (e) => setState({ entries: JSON.parse((e as MessageEvent).data), status: 'live' }));
    events.onmessage = (e) => setState((s) => ({ entries: [...s.entries, JSON.parse(e.data)], status: 'live' }));
    events.onerror = () => setState((s) => ({ ...s, status: events.readyState === EventSource.CLOSED ? 'no relay' : 'connecting' }));
    return () => events.close();
  }, []);
  return state;
}

/**
 * Every Submit the relay kept under `id` (the board shows only each id's best and latest), once fetched;
 * fetched again when `seen` (the Submits the board has of it) changes.
 */
export function useAttempts(id: string, seen: number): LeaderboardEntry[] | undefined {
  const [attempts, setAttempts] = useState<LeaderboardEntry[]>();
  useEffect(() => {
    const asked = new AbortController();
    fetch(`/api/leaderboard/attempts?id=${encodeURIComponent(id)}&seen=${seen}`, { signal: asked.signal })
      .then((r) => r.json())
      .then(setAttempts, () => setAttempts([]));
    return () => asked.abort();
  }, [id, seen]);
  return attempts;
}
