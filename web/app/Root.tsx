import { App } from './App.tsx';
import { ContestLab } from '../labs/ContestLab.tsx';
import { TransportLab } from '../labs/TransportLab.tsx';
import { SharedLab } from '../labs/SharedLab.tsx';
import { MeasurementLab } from '../labs/MeasurementLab.tsx';
import { Leaderboard } from '../leaderboard/Leaderboard.tsx';
import { Sessions } from '../sessions/Sessions.tsx';

const VIEWS = [
  { id: '', title: 'Playground', view: App },
  { id: 'contest-lab', title: 'Contest lab', view: ContestLab },
  { id: 'transport-lab', title: 'Reliable transport lab', view: TransportLab },
  { id: 'shared-lab', title: 'Shared bottleneck lab', view: SharedLab },
  { id: 'measurement', title: 'Measurement lab', view: MeasurementLab },
  { id: 'leaderboard', title: 'Leaderboard', view: Leaderboard },
  { id: 'sessions', title: 'Sessions', view: Sessions },
];

/** The page's navigation: each view is its own URL (?view=…), carrying its own state. */
export function Root() {
  const id = new URLSearchParams(window.location.search).get('view') ?? '';
  const current = VIEWS.find((v) => v.id === id) ?? VIEWS[0];
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
      <View />
    </>
  );
}
