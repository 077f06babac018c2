import { NETEM_LIMIT } from '../../shared/link/netem.ts';
import type { LinkSpec } from '../../shared/scenarios/spec.ts';
import { type EmulatedLink, MAX_REFUSED_SENDERS } from './emulatedLink.ts';
import type { DelayHistogram } from './histogram.ts';
import { deliveredMbps, type DirectionStats } from './tap.ts';

const f = (v: number, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : '—');

/** One line naming the link's settings, as the proxy prints them when it starts. */
export function describeLink(link: LinkSpec): string {
  const rate = link.kind === 'trace' ? `trace ${link.trace} / ${link.ackTrace}${link.once ? ' (once)' : ''}` : `${link.mbps} Mbit/s`;
  const queue =
    link.model === 'netem'
      ? `netem, limit ${link.limit ?? NETEM_LIMIT} packets${link.netemQdisc === 'each-direction' ? ', a qdisc each way' : ', one qdisc both ways'}`
      : link.queue.kind === 'infinite'
        ? 'infinite queue'
        : `drop-tail ${link.queue.limit} ${link.queue.kind}`;
  const impair = (name: string, s: LinkSpec['forward']) => {
    const parts = [
      s.loss && `${s.loss * 100}% loss`,
      s.burst && `burst loss p ${s.burst.p * 100}% r ${s.burst.r * 100}% bad ${s.burst.lossBad * 100}%`,
      s.duplicate && `${s.duplicate * 100}% duplicate`,
      s.reorder && `${s.reorder * 100}% reorder`,
      s.jitter && `jitter ±${s.jitter} ms`,
    ].filter(Boolean);
    return parts.length ? ` · ${name}: ${parts.join(', ')}` : '';
  };
  return `${rate} · ${link.delayMs} ms each way · ${queue}${impair('data', link.forward)}${impair('replies', link.reverse)}`;
}

type DirectionReport = DirectionStats & { mbps: number; delayP50: number; delayP99: number };

export interface LinkReport {
  seconds: number;
  forward: DirectionReport;
  reverse: DirectionReport;
  /** How late the model's events reached the sockets, ms. */
  lateness: { p50: number; p99: number; max: number };
  strays: number;
  /** The sender the link carried (null if none sent), and what it refused from others. */
  sender: string | null;
  refused: { datagrams: number; senders: number };
  sendErrors: number;
  /** Where the link delivers the sender's datagrams (--to). */
  receiver: string;
  /** Rows left out of the trace CSV at its limit (null when no CSV is kept). */
  unrecordedRows: number | null;
}

export function linkReport(link: EmulatedLink): LinkReport {
  const l = link.driver.lateness;
  return {
    seconds: link.seconds,
    forward: directionReport(link.forward, link.forwardDelay),
    reverse: directionReport(link.reverse, link.reverseDelay),
    lateness: { p50: l.quantile(0.5), p99: l.quantile(0.99), max: l.max },
    strays: link.strays,
    sender: link.sender ? `${link.sender.host}:${link.sender.port}` : null,
    refused: { datagrams: link.refused, senders: link.refusedSenders },
    sendErrors: link.sendErrors,
    receiver: `${link.options.to.host}:${link.options.to.port}`,
    unrecordedRows: link.recording ? link.log.unrecorded : null,
  };
}

function directionReport(s: DirectionStats, delay: DelayHistogram): DirectionReport {
  return { ...s, mbps: deliveredMbps(s), delayP50: delay.quantile(0.5), delayP99: delay.quantile(0.99) };
}

function directionLine(name: string, s: DirectionReport): string {
  const dropped = s.queueDrops + s.lossDrops + s.overflow;
  const overflow = s.overflow ? `, ${s.overflow} over the proxy's limit` : '';
  return (
    `${name}: ${s.datagrams} datagrams in (${s.bytes} B), ${s.delivered} delivered (${s.deliveredBytes} B, ${f(s.mbps, 3)} Mbit/s), ` +
    `${dropped} dropped (queue ${s.queueDrops}, loss ${s.lossDrops}${overflow}), ${s.duplicated} duplicated; ` +
    `time in the link p50 ${f(s.delayP50, 2)} ms, p99 ${f(s.delayP99, 2)} ms`
  );
}

export function formatLinkReport(r: LinkReport): string {
  const lines = [
    `link ran ${f(r.seconds, 1)} s · events ran late by p50 ${f(r.lateness.p50, 3)} ms, p99 ${f(r.lateness.p99, 3)} ms, max ${f(r.lateness.max, 3)} ms`,
    directionLine('sender → receiver', r.forward),
    directionLine('receiver → sender', r.reverse),
  ];
  if (r.refused.datagrams) {
    const senders = r.refused.senders >= MAX_REFUSED_SENDERS ? `${MAX_REFUSED_SENDERS} or more other senders` : `${r.refused.senders} other sender${r.refused.senders === 1 ? '' : 's'}`;
    lines.push(`${r.refused.datagrams} datagrams from ${senders} refused: the link carries ${r.sender}'s only`);
  }
  if (r.strays) lines.push(`${r.strays} datagrams from others than the receiver ignored`);
  // Linux tells an unconnected socket nothing of a port where nothing listens: "delivered" is as far as the link knows.
  else if (r.forward.delivered > 0 && r.reverse.datagrams === 0) lines.push(`nothing came back from ${r.receiver}: is the receiver running there?`);
  if (r.sendErrors) lines.push(`${r.sendErrors} datagrams could not be sent`);
  if (r.unrecordedRows) lines.push(`the trace CSV stopped at its row limit: ${r.unrecordedRows} rows not kept`);
  return lines.join('\n');
}
