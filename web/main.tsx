import { createRoot } from 'react-dom/client';
import { pageCatalogue } from './app/catalogue.ts';
import { Root } from './app/Root.tsx';
import './app/styles.css';
import { restoreUserCode } from './editor/userCode.ts';
import { playgroundPool } from './worker/pool.ts';
import { decodeExperiment } from './state/experiment.ts';
import { specFor } from './state/spec.ts';
import { viewOf } from './state/view.ts';

// The workers load their code and traces while the page loads and renders the rest.
if (viewOf(window.location.search) === '') {
  const e = decodeExperiment(window.location.search, pageCatalogue()).value;
  playgroundPool([specFor(e, 'a'), specFor(e, 'b')]);
}
// A link or the last session may run the user's own controller: it is loaded before the URL is read.
await restoreUserCode(window.location.search);
createRoot(document.getElementById('root')!).render(<Root />);
