import { isSessionId } from '../../shared/relay/sessions.ts';
import { quote } from '../../shared/text/quote.ts';
import { watchUrl } from '../sessions/watchUrl.ts';
import type { Field } from './codec.ts';

/** The sessions view's URL fields: the recorded session whose charts are open, and the emulated link watched. */
export const SESSIONS_VIEW: readonly Field[] = [
  {
    name: 'session',
    kind: 'text',
    check: (raw) => (isSessionId(raw) ? null : `session ${quote(raw)} is not a session's id, which looks like CLIENT@START_MS`),
    doc: 'The recorded session whose charts are open',
  },
  {
    name: 'watch',
    kind: 'text',
    check: (raw) => {
      const r = watchUrl(raw);
      return 'error' in r ? `watch ${r.error}` : null;
    },
    doc: 'The emulated link (`npm run link -- --watch`) drawn as it runs',
  },
];
