// First: it starts the workers, which load their code and traces while the rest evaluates and renders.
import { opened } from './boot.ts';
import { createRoot } from 'react-dom/client';
import { Root } from './app/Root.tsx';
import { askFirstRuns } from './app/useRuns.ts';
import './app/styles.css';
import { restoreUserCode } from './editor/userCode.ts';
import { workersHandedOver } from './worker/sandboxHost.ts';

// A link or the last session may run the user's own controller: it is loaded before the URL is read.
await restoreUserCode(window.location.search);
if (opened) askFirstRuns(opened);
// The workers' code goes to the sandbox frame before the page renders: the page's render then waits on
// the workers, not they on it.
await workersHandedOver(100);
createRoot(document.getElementById('root')!).render(<Root />);
