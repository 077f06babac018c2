import { useState } from 'react';
import { useNotices } from '../components/useNotices.ts';
import { useInitialState, useUrlState } from '../components/useViewUrl.ts';
import { SESSIONS_VIEW } from '../state/sessions.ts';

/**
 * The sessions view's URL (?view=sessions&session=ID&watch=ADDRESS), so that a link opens the same
 * session and link; null is none. Its notices start with what was wrong in it.
 */
export function useSessionsUrl() {
  const initial = useInitialState(SESSIONS_VIEW);
  const notices = useNotices(initial);
  const [selected, select] = useState<string | null>((initial.value.session as string) || null);
  const [watched, watch] = useState<string | null>((initial.value.watch as string) || null);
  useUrlState('sessions', SESSIONS_VIEW, { session: selected ?? '', watch: watched ?? '' });
  return { selected, select, watched, watch, notices };
}
