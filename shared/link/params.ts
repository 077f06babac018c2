import { checkValues, choice, num, type ParamSpec } from '../controllers/types.ts';
import { ALL_DISCIPLINE_PARAMS, DISCIPLINE_ENTRIES, DISCIPLINES, type Discipline, disciplineEntry, disciplineParams } from './disciplines.ts';
import type { ImpairmentSpec } from './impairments.ts';
import { NETEM_LIMIT } from './netem.ts';
import { MODEL_PARAMS, NETEM_IMPAIRMENT_PARAMS, netemImpairment, netemImpairmentValues, percent, unusedModelParams, withModel } from './netemParams.ts';
import type { LinkSpec } from './spec.ts';

/**
 * The link's settings as parameter schemas, like the controllers': the UI's link sliders and the CLI's
 * link flags are generated from these. Percentages here become fractions in the spec.
 */
const IMPAIRMENT_PARAMS: readonly ParamSpec[] = [
  num('loss', '%', 0, 100, 0.1, 0, 'Independent random loss'),
  num('burstP', '%', 0, 100, 0.1, 0, 'Gilbert–Elliott: chance per packet of entering the bad state'),
  num('burstR', '%', 0, 100, 0.1, 100, 'Gilbert–Elliott: chance per packet of leaving the bad state'),
  num('burstLoss', '%', 0, 100, 1, 100, 'Gilbert–Elliott: loss while in the bad state'),
  num('duplicate', '%', 0, 100, 0.1, 0, 'Packets delivered twice'),
  num('reorder', '%', 0, 100, 0.1, 0, 'Packets sent at once, skipping the delay (so they overtake)'),
  num('jitter', 'ms', 0, 1000, 1, 0, 'Uniform ± variation of the propagation delay'),
  ...NETEM_IMPAIRMENT_PARAMS,
];

export const LINK_PARAMS: readonly ParamSpec[] = [
  ...MODEL_PARAMS,
  num('delay', 'ms', 0, 5000, 1, 20, 'Propagation delay each way'),
  num('bandwidth', 'Mbit/s', 0.001, 100_000, 0.1, 12, 'Rate of a constant-rate link (both directions)'),
  choice('queue', ['infinite', 'packets', 'bytes'], 'infinite', 'Queue before the bottleneck: unlimited, or limited in packets or bytes'),
  num('queueLimit', 'packets or bytes', 1, 1e10, 1, 100, 'Queue limit'),
  choice('discipline', DISCIPLINES, 'drop-tail', `Queue discipline: ${DISCIPLINE_ENTRIES.map((d) => d.title).join(', ')}`),
  ...ALL_DISCIPLINE_PARAMS,
  choice('ecn', ['off', 'on'], 'off', 'ECN (RFC 3168): the AQM (CoDel, PIE …) marks ECN-capable packets CE instead of dropping them; ECN schemes send ECT(0) or ECT(1)'),
  choice('loop', ['loop', 'once'], 'loop', 'Loop the trace with the period of its last timestamp, or play it once'),
  ...IMPAIRMENT_PARAMS,
  ...IMPAIRMENT_PARAMS.map((p) => ({ ...p, name: key('ack', p.name), doc: `ACK direction: ${p.doc}` })),
];

/** The parameters each queue discipline takes, by their LINK_PARAMS names (the sidebar shows the chosen one's). */
export const DISCIPLINE_PARAMS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(DISCIPLINE_ENTRIES.map((d) => [d.kind, disciplineParams(d).map((p) => p.name)]));

/**
 * The link parameters a link makes no use of, each with why: a rate on a link a trace paces, a
 * discipline's setting without that discipline. Tools refuse them rather than run as if they were set.
 */
export function unusedLinkParams(link: LinkSpec): Map<string, string> {
  const unused = unusedModelParams(link, (n) => key('ack', n));
  if (link.kind === 'trace') unused.set('bandwidth', "this link's rate is its trace's");
  if (link.queue.kind === 'infinite') unused.set('queueLimit', 'the queue is infinite: a limit takes a queue of packets or bytes (--queue)');
  const discipline = link.queue.discipline?.kind ?? 'drop-tail';
  for (const [kind, names] of Object.entries(DISCIPLINE_PARAMS)) {
    if (kind !== discipline) for (const name of names) unused.set(name, `it is a setting of ${kind}, and the queue's discipline is ${discipline}`);
  }
  return unused;
}

/** How the command line and the page name a setting the link makes no use of (`unusedLinkParams` says why). */
export const changesNothing = (setting: string, why: string): string => `${setting} would change nothing: ${why}`;

/** "loss" for the data direction, "ackLoss" for the ACK direction. */
function key(prefix: '' | 'ack', name: string): string {
  return prefix ? `${prefix}${name[0].toUpperCase()}${name.slice(1)}` : name;
}

/** The current value of every link parameter in `spec`, as the schema expresses it. */
export function linkValues(link: LinkSpec): Record<string, number | string> {
  const impair = (prefix: '' | 'ack', s: ImpairmentSpec) => ({
    [key(prefix, 'loss')]: percent(s.loss),
    [key(prefix, 'burstP')]: percent(s.burst?.p ?? 0),
    [key(prefix, 'burstR')]: percent(s.burst?.r ?? 1),
    [key(prefix, 'burstLoss')]: percent(s.burst?.lossBad ?? 1),
    [key(prefix, 'duplicate')]: percent(s.duplicate),
    [key(prefix, 'reorder')]: percent(s.reorder),
    [key(prefix, 'jitter')]: s.jitter,
    ...netemImpairmentValues(s, (n) => key(prefix, n)),
  });
  return {
    linkModel: link.model ?? 'mahimahi',
    limit: link.limit ?? NETEM_LIMIT,
    netemQdisc: link.netemQdisc ?? 'loopback',
    delay: link.delayMs,
    bandwidth: link.mbps,
    queue: link.queue.kind,
    queueLimit: link.queue.kind === 'infinite' ? 100 : link.queue.limit,
    ...disciplineValues(link.queue.discipline),
    ecn: link.ecn ? 'on' : 'off',
    loop: link.once ? 'once' : 'loop',
    ...impair('', link.forward),
    ...impair('ack', link.reverse),
  };
}

/** Applies checked values (as from linkValues) to a link spec, returning a new one. */
export function withLinkValues(link: LinkSpec, values: Record<string, number | string>): LinkSpec {
  const v = { ...linkValues(link), ...values };
  const impair = (prefix: '' | 'ack'): ImpairmentSpec => {
    const get = (n: string) => Number(v[key(prefix, n)]);
    const p = get('burstP') / 100;
    return {
      loss: get('loss') / 100,
      burst: p > 0 ? { p, r: get('burstR') / 100, lossBad: get('burstLoss') / 100 } : null,
      duplicate: get('duplicate') / 100,
      reorder: get('reorder') / 100,
      jitter: get('jitter'),
      ...netemImpairment(get, v.linkModel === 'netem'),
    };
  };
  const queueKind = v.queue as LinkSpec['queue']['kind'];
  const discipline = disciplineOf(v);
  return {
    ...withModel(link, v),
    delayMs: Number(v.delay),
    mbps: Number(v.bandwidth),
    ackMbps: link.kind === 'rate' ? Number(v.bandwidth) : link.ackMbps,
    queue: { ...(queueKind === 'infinite' ? { kind: 'infinite' } : { kind: queueKind, limit: Math.round(Number(v.queueLimit)) }), discipline },
    // absent when off, so a spec without ECN reads (and links) as it did before the option
    ecn: v.ecn === 'on' ? true : undefined,
    once: v.loop === 'once',
    forward: impair(''),
    reverse: impair('ack'),
  };
}

/** Every discipline parameter at its schema default, so the values of a link without that discipline are whole. */
const DISCIPLINE_DEFAULTS = Object.fromEntries(ALL_DISCIPLINE_PARAMS.map((p) => [p.name, p.default]));

function disciplineValues(d: Discipline | undefined): Record<string, number | string> {
  const entry = disciplineEntry(d?.kind);
  const v: Record<string, number | string> = { discipline: entry.kind, ...DISCIPLINE_DEFAULTS };
  const settings = (d ?? {}) as Record<string, unknown>;
  for (const [field, p] of Object.entries(entry.params)) v[p.name] = settings[field] as number;
  return v;
}

function disciplineOf(v: Record<string, number | string>): Discipline {
  const entry = disciplineEntry(String(v.discipline));
  const settings: Record<string, number | string> = { kind: entry.kind };
  for (const [field, p] of Object.entries(entry.params)) settings[field] = Number(v[p.name]);
  return settings as Discipline;
}

/** Checks raw values (strings from flags or the URL) against the link schema. */
export function checkLinkValues(raw: Record<string, string | number>) {
  return checkValues(LINK_PARAMS, raw, 'the link');
}
