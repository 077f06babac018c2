import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { encodeView, VIEW_IDS, type ViewId, viewOf } from '../state/view.ts';
import { App } from './App.tsx';
import { listenToHistory } from './history.ts';
import { mayLeave } from './leaving.ts';
import { PLAYGROUND_RESULTS_ID } from './landmarks.ts';

// The other views load when opened: the playground's first chart does not wait for their code.
const ContestLab = lazy(() => import('../labs/ContestLab.tsx').then((m) => ({ default: m.ContestLab })));
const TransportLab = lazy(() => import('../labs/TransportLab.tsx').then((m) => ({ default: m.TransportLab })));
const SharedLab = lazy(() => import('../labs/SharedLab.tsx').then((m) => ({ default: m.SharedLab })));
const MeasurementLab = lazy(() => import('../labs/MeasurementLab.tsx').then((m) => ({ default: m.MeasurementLab })));
const Leaderboard = lazy(() => import('../leaderboard/Leaderboard.tsx').then((m) => ({ default: m.Leaderboard })));
const StressLab = lazy(() => import('../labs/StressLab.tsx').then((m) => ({ default: m.StressLab })));
const ContestView = lazy(() => import('../contest/ContestView.tsx').then((m) => ({ default: m.ContestView })));
const Sessions = lazy(() => import('../sessions/Sessions.tsx').then((m) => ({ default: m.Sessions })));

const VIEWS: Record<ViewId, { title: string; view: ComponentType }> = {
  '': { title: 'Playground', view: App },
  'contest-lab': { title: 'Contest lab', view: ContestLab },
  'transport-lab': { title: 'Reliable transport lab', view: TransportLab },
  'shared-lab': { title: 'Shared bottleneck lab', view: SharedLab },
  measurement: { title: 'Measurement lab', view: MeasurementLab },
  leaderboard: { title: 'Leaderboard', view: Leaderboard },
  sessions: { title: 'Sessions', view: Sessions },
  stress: { title: 'Break my controller', view: StressLab },
  contest: { title: 'Class contest', view: ContestView },
};

/**
 * The first thing a keyboard reaches: past the navigation (and, in the playground, past the toolbar and
 * the settings, some fifty stops) to where the view's results start.
 */
function SkipLink({ playground }: { playground: boolean }) {
  const target = playground ? PLAYGROUND_RESULTS_ID : 'main';
  const skip = (e: React.MouseEvent) => {
    // Focus moves with the jump, so the next Tab goes on from there (Play, in the playground).
    const to = document.getElementById(target);
    if (!to) return;
    e.preventDefault();
    to.focus();
    to.scrollIntoView({ block: 'start' });
  };
  return (
    <a className="skip-link" href={`#${target}`} onClick={skip}>
      {playground ? 'Skip to the runs' : 'Skip to the content'}
    </a>
  );
}

/** The page's navigation: each view is its own URL (?view=…), carrying its own state. */
export function Root() {
  // Back and Forward open the view again on the state its address holds.
  const [visit, setVisit] = useState(0);
  useEffect(() => listenToHistory(() => setVisit((v) => v + 1)), []);
  const shown = viewOf(window.location.search);
  const current = VIEWS[shown];
  const View = current.view;
  return (
    <>
      <header className="page-head">
        <SkipLink playground={shown === ''} />
        <h1>Pipefill</h1>
        <nav className="views" aria-label="Views">
          {VIEW_IDS.map((id) => (
            <a key={id} href={`?${encodeView(id, [], {})}`} aria-current={id === shown ? 'page' : undefined} onClick={(e) => mayLeave() || e.preventDefault()}>
              {VIEWS[id].title}
            </a>
          ))}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p role="status">Loading {current.title.toLowerCase()}…</p>}>
          <View key={visit} />
        </Suspense>
      </main>
    </>
  );
}
