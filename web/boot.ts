import { openedExperiment } from './app/exerciseSetup.ts';
import { heldOutTracesAnswer } from './app/heldOutTraces.ts';
import { playgroundPool } from './worker/pool.ts';
import { specFor } from './state/spec.ts';
import { viewOf } from './state/view.ts';

/**
 * The experiment the page opens on (none for a view of its own), and its workers started. The page's
 * entry imports this first, so the workers start loading before the page's rendering code is evaluated.
 */
const search = window.location.search;
const view = viewOf(search);
const playground = view === '';
const heldOut = heldOutTracesAnswer();
// A link naming a trace (the playground's or the contest lab's) is read once the relay has said which traces
// its class contest holds out: such a trace is named in a notice and never run, where the runs on it would
// only fail on a file it refuses.
if ((playground || view === 'contest-lab') && new URLSearchParams(search).has('trace')) await heldOut;
export const opened = playground ? openedExperiment(search).value : null;
if (opened) playgroundPool([specFor(opened, 'a'), specFor(opened, 'b')]);
