import { type ComponentType, lazy, Suspense } from 'react';
import { encodeView, VIEW_IDS, type ViewId, viewOf } from '../state/view.ts';
import { App } from './App.tsx';

// The other views load when opened: the playground's first chart does not wait for their code.
const ContestLab = lazy(() => import('../labs/ContestLab.tsx').then((m) => ({ default: m.ContestLab })));
const TransportLab = lazy(() => import('../labs/TransportLab.tsx').then((m) => ({ default: m.TransportLab })));
const SharedLab = lazy(() => import('../labs/SharedLab.tsx').then((m) => ({ default: m.SharedLab })));
const MeasurementLab = lazy(() => import('../labs/MeasurementLab.tsx').then((m) => ({ default: m.MeasurementLab })));
const Leaderboard = lazy(() => import('../leaderboard/Leaderboard.tsx').then((m) => ({ default: m.Leaderboard })));
const StressLab = lazy(() => import('../labs/StressLab.tsx').then((m) => ({ default: m.StressLab })));
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
};

/** The page's navigation: each view is its own URL (?view=…), carrying its own state. */
export function Root() {
  const shown = viewOf(window.location.search);
  const current = VIEWS[shown];
  const View = current.view;
  return (
    <>
      <nav className="views" aria-label="Views">
        <strong>Pipefill</strong>
        {VIEW_IDS.map((id) => (
          <a key={id} href={`?${encodeView(id, [], {})}`} aria-current={id === shown ? 'page' : undefined}>
            {VIEWS[id].title}
          </a>
        ))}
      </nav>
      <Suspense fallback={<p role="status">Loading {current.title.toLowerCase()}…</p>}>
        <View />
      </Suspense>
    </>
  );
}
