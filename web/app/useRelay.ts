import { useEffect, useState } from 'react';

import type { RelayInfo } from '../../shared/relay/info.ts';

export type RelayState = RelayInfo | 'absent' | 'unknown';

/** What the relay serving this page offers (its offset and echo servers), or that no relay answers. */
export function useRelay(): RelayState {
  const [relay, setRelay] = useState<RelayState>('unknown');
  useEffect(() => {
    fetch('/api/relay')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then(
        (info: RelayInfo) => setRelay(info),
        () => setRelay('absent'),
      );
  }, []);
  return relay;
}

export const relayInfo = (relay: RelayState): RelayInfo | null => (relay === 'absent' || relay === 'unknown' ? null : relay);
