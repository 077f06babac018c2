import type { SessionSeries } from '../../shared/metrics/sessionSeries.ts';
import type { ChartDef } from '../app/layers.ts';
import { COLORS, translucent } from '../charts/palette.ts';

const SQUISHED = 'rgba(204,121,167,0.25)';

/** The offset-server exercise's pictures of one recorded session, each with its squished periods shaded. */
export function sessionCharts(s: SessionSeries): ChartDef[] {
  const squished = s.run.squished.length ? [{ kind: 'bands' as const, data: s.run.squished, color: SQUISHED, label: 'squished' }] : [];
  return [
    {
      id: 'offsets',
      title: 'Offsets requested and replied',
      yLabel: 'offset (bytes)',
      fitY: true,
      layers: [
        ...squished,
        // Unanswered requests first and dark, as the playground draws drops: larger, and apart from replies in any colour vision.
        { kind: 'dots', data: s.run.drops, color: COLORS.ink, label: 'no reply (lost or no token)', size: 4 },
        { kind: 'dots', data: s.run.sends, color: COLORS.blue, label: 'request', size: 2 },
        { kind: 'dots', data: s.run.acks, color: COLORS.orange, label: 'reply', size: 2 },
      ],
    },
    {
      id: 'rounds',
      title: 'Requests per round (burst size)',
      yLabel: 'requests',
      layers: [...squished, { kind: 'dots', data: s.rounds, color: COLORS.blue, label: 'requests in a round', size: 3 }],
    },
    {
      id: 'penalty',
      title: 'Penalty',
      yLabel: 'token-less requests',
      layers: [...squished, { kind: 'step', data: s.penalty, color: COLORS.vermillion, label: 'penalty', size: 1.5 }],
    },
    {
      id: 'rate',
      title: `Replies per ${s.binMs} ms against the token rate`,
      yLabel: 'per second',
      layers: [
        ...squished,
        { kind: 'area', data: s.tokenRate, color: translucent(COLORS.grey, 0.2), label: 'under the token rate' },
        { kind: 'step', data: s.tokenRate, color: COLORS.grey, label: 'token rate (tokens/s)', size: 1 },
        { kind: 'step', data: s.replyRate, color: COLORS.blue, label: 'replies/s', size: 1.5 },
      ],
    },
  ];
}
