import { openedExperiment } from './app/exerciseSetup.ts';
import { playgroundPool } from './worker/pool.ts';
import { specFor } from './state/spec.ts';
import { viewOf } from './state/view.ts';

/**
 * The experiment the page opens on (none for a view of its own), and its workers started. The page's
 * entry imports this first, so the workers start loading before the page's rendering code is evaluated.
 */
export const opened = viewOf(window.location.search) === '' ? openedExperiment(window.location.search).value : null;
if (opened) playgroundPool([specFor(opened, 'a'), specFor(opened, 'b')]);
