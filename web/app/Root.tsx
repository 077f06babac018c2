import { lazy, Suspense } from 'react';
import { App } from './App.tsx';

// The other views load when opened: the playground's first chart does not wait for their code.
const ContestLab = lazy(() => import('../labs/ContestLab.tsx').then((m) => ({ default: m.ContestLab })));
const TransportLab = lazy(() => import('../labs/TransportLab.tsx').then((m) => ({ default: m.TransportLab })));
const SharedLab = lazy(() => import('../labs/SharedLab.tsx').then((m) => ({ default: m.SharedLab })));
const MeasurementLab = lazy(() => import('../labs/MeasurementLab.tsx').then((m) => ({ default: m.MeasurementLab })));
const Leaderboard = lazy(() => import('../leaderboard/Leaderboard.tsx').then((m) => ({ default: m.Leaderboard })));
const Sessions = lazy(() => import('../sessions/Sessions.tsx').then((m) => ({ default: m.Sessions })));

const VIEWS = [
  { id: '', title: 'Playground', view: App },
  { id: 'contest-lab', title: 'Contest lab', view: ContestLab },
  { id: 'transport-lab', title: 'Reliable transport lab', view: TransportLab },
  { id: 'shared-lab', title: 'Shared bottleneck lab', view: SharedLab },
  { id: 'measurement', title: 'Measurement lab', view: MeasurementLab },
  { id: 'leaderboard', title: 'Leaderboard', view: Leaderboard },
  { id: 'sessions', title: 'Sessions', view: Sessions },
];

/** The view a page's query opens: an unknown one opens the playground. */
export function viewOf(search: string): { id: string; asked: string; isPlayground: boolean } {
  const asked = new URLSearchParams(search).get('view') ?? '';
  const id = VIEWS.some((v) => v.id === asked) ? asked : '';
  return { id, asked, isPlayground: id === '' };
}

/** The page's navigation: each view is its own URL (?view=…), carrying its own state. */
export function Root() {
  const { id: shown, asked: id } = viewOf(window.location.search);
  const current = VIEWS.find((v) => v.id === shown)!;
  const View = current.view;
  return (
    <>
      <nav className="views" aria-label="Views">
        <strong>Pipefill</strong>
        {VIEWS.map((v) => (
          <a key={v.id} href={v.id ? `?view=${v.id}` : '?'} aria-current={v === current ? 'page' : undefined}>
            {v.title}
          </a>
        ))}
        {current.id !== id && <span className="error">There is no view “{id}”: here is the playground.</span>}
      </nav>
      <Suspense fallback={<p role="status">Loading {current.title.toLowerCase()}…</p>}>
        <View />
      </Suspense>
    </>
  );
}
