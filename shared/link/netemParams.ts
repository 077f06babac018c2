import { choice, num, type ParamSpec } from '../controllers/types.ts';
import type { ImpairmentSpec } from './impairments.ts';
import { NETEM_LIMIT } from './netem.ts';
import { LINK_MODELS, NETEM_QDISCS, type LinkSpec } from './spec.ts';

/** A fraction as the percentage typed for it: 0.009 reads 0.9, not 0.9000000000000001. */
export const percent = (fraction: number): number => Number((fraction * 100).toPrecision(12));

/** The link model's choice, and the netem model's limit. */
export const MODEL_PARAMS: readonly ParamSpec[] = [
  choice(
    'linkModel',
    LINK_MODELS,
    'mahimahi',
    'How the link is emulated: Mahimahi (a queue, then the propagation delay) or Linux netem (one qdisc: a packet leaves after the larger of its delay and the backlog before it, plus its transmission)',
  ),
  num('limit', 'packets', 1, 1e9, 1, NETEM_LIMIT, 'netem: packets the qdisc holds, delayed ones included (tc-netem limit)'),
  choice('netemQdisc', NETEM_QDISCS, 'loopback', "netem: one qdisc both directions cross, as tc on the loopback interface (the data direction's settings), or one per direction"),
];

/** The netem model's settings of each direction beyond the impairments both models share. */
export const NETEM_IMPAIRMENT_PARAMS: readonly ParamSpec[] = [
  num('gap', 'packets', 1, 1e6, 1, 1, 'netem: packets sent with the delay after a reordered one before the next may be reordered (tc-netem gap)'),
  num('lossCorrelation', '%', 0, 100, 1, 0, "netem: how much a packet's loss draw leans on the last one"),
  num('duplicateCorrelation', '%', 0, 100, 1, 0, "netem: how much a packet's duplicate draw leans on the last one"),
  num('reorderCorrelation', '%', 0, 100, 1, 0, "netem: how much a packet's reorder draw leans on the last one"),
  num('jitterCorrelation', '%', 0, 100, 1, 0, "netem: how much a packet's jitter draw leans on the last one"),
];

/** The impairments of a direction, by their data-direction names (both models' and netem's own). */
const ACK_IMPAIRMENTS = ['loss', 'burstP', 'burstR', 'burstLoss', 'duplicate', 'reorder', 'jitter', ...NETEM_IMPAIRMENT_PARAMS.map((p) => p.name)];

/** The netem settings of one direction, named with `name` ("loss" → "ackLoss" for the ACK direction). */
export function netemImpairmentValues(s: ImpairmentSpec, name: (n: string) => string): Record<string, number> {
  const c = s.correlation;
  return {
    [name('gap')]: s.gap ?? 1,
    [name('lossCorrelation')]: percent(c?.loss ?? 0),
    [name('duplicateCorrelation')]: percent(c?.duplicate ?? 0),
    [name('reorderCorrelation')]: percent(c?.reorder ?? 0),
    [name('jitterCorrelation')]: percent(c?.jitter ?? 0),
  };
}

/** The netem fields of one direction's spec from checked values; none under the Mahimahi model. */
export function netemImpairment(get: (n: string) => number, netem: boolean): Partial<ImpairmentSpec> {
  if (!netem) return {};
  return {
    gap: get('gap'),
    correlation: { loss: get('lossCorrelation') / 100, duplicate: get('duplicateCorrelation') / 100, reorder: get('reorderCorrelation') / 100, jitter: get('jitterCorrelation') / 100 },
  };
}

/** The link with the model checked values choose: its fields absent for Mahimahi, so its specs read as before. */
export function withModel(link: LinkSpec, v: Record<string, number | string>): LinkSpec {
  const { model: _model, limit: _limit, ...rest } = link;
  const { netemQdisc: _qdisc, ...mahimahi } = rest;
  if (v.linkModel !== 'netem') return mahimahi;
  return { ...mahimahi, model: 'netem', limit: Math.round(Number(v.limit)), ...(v.netemQdisc === 'each-direction' ? { netemQdisc: 'each-direction' } : {}) };
}

/** The settings one link model has and the other makes no use of, each with why. */
export function unusedModelParams(link: LinkSpec, ackName: (n: string) => string): Map<string, string> {
  const unused = new Map<string, string>();
  const netemOnly = ['limit', 'netemQdisc', ...NETEM_IMPAIRMENT_PARAMS.flatMap((p) => [p.name, ackName(p.name)])];
  if (link.model !== 'netem') {
    for (const name of netemOnly) unused.set(name, 'it is a setting of the netem link model (--link-model netem)');
    return unused;
  }
  const why = 'the netem link model has no queue discipline: it holds up to --limit packets, delayed ones included';
  for (const name of ['queue', 'queueLimit', 'discipline']) unused.set(name, why);
  if (link.netemQdisc !== 'each-direction') {
    const one = "one netem qdisc carries both directions, with the data direction's settings (--netem-qdisc each-direction gives each its own)";
    for (const p of ACK_IMPAIRMENTS) unused.set(ackName(p), one);
    return unused;
  }
  // netem draws loss from one model: a Gilbert–Elliott chain replaces the random loss
  if (link.forward.burst) unused.set('loss', 'netem draws loss from one model, and the Gilbert–Elliott burst is set (--burst-p)');
  if (link.reverse.burst) unused.set(ackName('loss'), "netem draws loss from one model, and the ACK direction's Gilbert–Elliott burst is set (--ack-burst-p)");
  return unused;
}
