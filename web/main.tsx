import { createRoot } from 'react-dom/client';
import { openedExperiment } from './app/exerciseSetup.ts';
import { Root } from './app/Root.tsx';
import { askFirstRuns } from './app/useRuns.ts';
import './app/styles.css';
import { restoreUserCode } from './editor/userCode.ts';
import { playgroundPool } from './worker/pool.ts';
import { workersHandedOver } from './worker/sandboxHost.ts';
import { specFor } from './state/spec.ts';
import { viewOf } from './state/view.ts';

const opened = viewOf(window.location.search) === '' ? openedExperiment(window.location.search).value : null;
// The workers load their code and traces while the page loads and renders the rest.
if (opened) playgroundPool([specFor(opened, 'a'), specFor(opened, 'b')]);
// A link or the last session may run the user's own controller: it is loaded before the URL is read.
await restoreUserCode(window.location.search);
if (opened) askFirstRuns(opened);
// The workers' code goes to the sandbox frame before the page renders: the page's render then waits on
// the workers, not they on it.
await workersHandedOver(100);
createRoot(document.getElementById('root')!).render(<Root />);
