import { useEffect, useState } from 'react';

import type { RelayInfo } from '../../shared/relay/info.ts';

export type RelayState = RelayInfo | 'absent' | 'unknown';

/** What the relay serving this page says of itself now, or null when none answers (a static host of the bundle). */
export function fetchRelayInfo(): Promise<RelayInfo | null> {
  return fetch('/api/relay', { cache: 'no-store' })
    .then((r) => (r.ok ? (r.json() as Promise<RelayInfo>) : null))
    .catch(() => null);
}

/** What the relay serving this page offers (its offset and echo servers), or that no relay answers. */
export function useRelay(): RelayState {
  const [relay, setRelay] = useState<RelayState>('unknown');
  useEffect(() => {
    void fetchRelayInfo().then((info) => setRelay(info ?? 'absent'));
  }, []);
  return relay;
}

export const relayInfo = (relay: RelayState): RelayInfo | null => (relay === 'absent' || relay === 'unknown' ? null : relay);
