import { ROUND_GAP_MS } from '../../shared/metrics/sessionSeries.ts';
import { RANKED_SUBMITS } from '../../shared/offset/policy.ts';
import { useLightDismiss } from '../components/useLightDismiss.ts';

/** A short "what am I looking at" for each view, folded away until asked for. */

export type GuideView = 'contest' | 'offset' | 'contest-lab' | 'transport-lab' | 'shared-lab' | 'measurement' | 'leaderboard' | 'sessions' | 'stress';

const GUIDES: Record<GuideView, { title: string; lines: string[] }> = {
  contest: {
    title: 'Two congestion controllers, A and B, send over the same cellular link',
    lines: [
      'The cards give each run’s throughput and 95th-percentile signal delay; the plane puts both on one picture — up and to the right is better, the star is a sender that knew the link in advance.',
      'Window: packets in flight. The dashed line is the pipe (capacity × minimum RTT): window above it can only wait in the queue, so it becomes delay.',
      'Sequence: sends climb, ACKs follow one RTT later, drops sit underneath. Ticks on every chart’s time axis mark timeouts (vermillion, middle height), losses the sender detected from ACKs (green, short), CE marks of an ECN queue (ochre, shortest) and squish on/off (reddish purple, tallest).',
      'Move a slider: both sides re-run at once. Drag across a chart to zoom, double-click to see the whole run. The URL holds everything: copy it to share the experiment.',
    ],
  },
  offset: {
    title: 'Fetching a file from the offset server, which hands out tokens at a fixed rate',
    lines: [
      'Time is what the server measures: from the session’s start to the Submit. Penalty counts requests that found no token; too many and the server squishes the client (the shaded bands).',
      'A client that paces just under the token rate finishes near the Bound (chunks at the token rate, along its schedule on the variable server) with no penalty.',
    ],
  },
  'contest-lab': {
    title: 'Sweeps of a controller’s parameter on a contest trace',
    lines: [
      'Each run is one point on the throughput–delay plane; each sweep’s frontier joins the runs no other run of it beats on both axes.',
      'The ★ marks the best score, ln(throughput ÷ delay95), and the best power. A setting tuned on one trace may not be best on another: try the same sweep on a second trace.',
    ],
  },
  stress: {
    title: 'A search for the link that breaks a controller',
    lines: [
      'Each trace tried is made of segments: stretches of constant rate and outages. The search breeds the traces on which the controller’s score, ln(throughput ÷ delay95), falls furthest below the score of a sender that knew the link in advance.',
      'The gap is that difference: the larger, the worse the controller copes. Its charts on the worst trace show why: a window that keeps a rate the link no longer has fills the queue; one that backs off too far leaves the link idle.',
      'The same seed finds the same trace, here and with npm run stress. Download the trace to run it anywhere, or copy the link to show it.',
    ],
  },
  'transport-lab': {
    title: 'The reliable-transport test matrix, run for the chosen controller',
    lines: [
      'Each row is one link (rate, delay, loss, reordering) and file; it passes when the receiver’s bytes equal the file on every seed within the timeout.',
      'The grade compares goodput with a minimum and a target (half the bandwidth): PERFnn is how far between them, OKAY is at the target. Hover a grade for its numbers.',
    ],
  },
  'shared-lab': {
    title: 'Several flows share one bottleneck',
    lines: [
      'Throughput of each flow shows who gets what and how fast late flows catch up; Jain’s index is 1 when all get the same, 1/n when one takes everything.',
      'Each flow’s point on the plane shows the delay it saw for the throughput it got.',
      'The fairness grid runs every pair of the checked schemes, one flow each, for a minute on one bottleneck: a square reads the row flow’s share of the fair rate, then the column flow’s. On a shallow drop-tail queue BBR takes most of the link from CUBIC; FQ-CoDel gives each flow its own queue, and the shares come out near even.',
    ],
  },
  measurement: {
    title: 'Estimating a link’s bandwidth and delay from ping-pong round trips',
    lines: [
      'Each dot is one message’s round trip over the simulated link: it crosses whole at the link’s bandwidth and waits the delay, out and back; the jitter adds a uniform ± noise to each way’s delay.',
      'The line is the least-squares fit through each size’s fastest round trip. Its slope is 2 × 8 bits per byte over the bandwidth, its intercept twice the one-way delay; the dashed green line is the truth. On a real link noise only adds delay, so the fastest is the cleanest; here the ± jitter makes it a little fast, and the delay comes out a little low.',
      'Hide the truth to practise: its controls, the truth line and the errors disappear, and a link opened hidden without a truth of its own is a new unknown one. Estimate both from two sizes, then reveal and compare. The address carries a hidden link sealed, so it can be shared.',
      'Below, the same fit through the round trips of the relay’s echo server, measured from this page, and of any client of the echo server: real links, with no truth to compare with.',
    ],
  },
  leaderboard: {
    title: 'The class leaderboard: the Submits the relay’s offset servers rank, as they arrive',
    lines: [
      'Result is whether the MD5 was right. Time is the server’s own measure, from the session’s start to the Submit; Penalty counts the requests that found no token. Server is the one fetched from: the constant or the variable token rate.',
      `A Submit counts only from a session that was served the whole file, and only its first ${RANKED_SUBMITS} under the id it first submitted as: a bare Submit proves nothing, and one fetch ranks one student.`,
      'Ranked: correct results first, then the shortest time, then the smallest penalty; Latest first lists them as they came. Export CSV saves every entry.',
    ],
  },
  sessions: {
    title: 'Every session of the relay’s offset servers, from any client, as the server records it',
    lines: [
      'A row is one client’s session: Requests counts its data requests, Replies the chunks sent back, Penalty the requests that found no token, Squishes how often it was squished; Result and Time come with its Submit.',
      `Choose a row to draw it, following it while it runs: offsets requested and replied, requests per round (the burst size: requests within ${ROUND_GAP_MS} ms of each other are one round), the penalty, and replies per second against the token rate. Shaded bands are squished periods.`,
      'Watch draws what crosses an emulated link started with npm run link -- --watch. Any drawing exports as CSV, PNG or SVG.',
    ],
  },
};

export function Guide({ view }: { view: GuideView }) {
  const g = GUIDES[view];
  const menu = useLightDismiss();
  return (
    <details className="menu guide" data-guide={view} ref={menu}>
      <summary>What am I looking at?</summary>
      <div>
        <strong>{g.title}</strong>
        {g.lines.map((l) => (
          <p key={l}>{l}</p>
        ))}
      </div>
    </details>
  );
}
