import { isIPv4 } from 'node:net';
import type { ParamSpec } from '../../shared/controllers/types.ts';
import { LINK_PARAMS, withLinkValues } from '../../shared/link/params.ts';
import { rateLink } from '../../shared/scenarios/presets.ts';
import type { LinkSpec } from '../../shared/scenarios/spec.ts';
import { readSchemaFlags, schemaHelp, schemaOptions, UsageError } from '../cli/flags.ts';
import { loadTrace } from '../traces.ts';
import type { Address } from './emulatedLink.ts';

/**
 * The link's flags, generated from the model's link schema. The one-way delay is `--latency`, as the
 * course's network simulator calls it; there `--delay` means jitter, so the proxy takes no `--delay`
 * rather than one that means something else to half its users.
 */
const RENAMED: Record<string, string> = { delay: 'latency' };
export const LINK_FLAG_PARAMS: readonly ParamSpec[] = LINK_PARAMS.map((p) => (RENAMED[p.name] ? { ...p, name: RENAMED[p.name] } : p));

export const linkOptions = {
  ...schemaOptions(LINK_FLAG_PARAMS),
  trace: { type: 'string' },
  'ack-trace': { type: 'string' },
} as const;

export const linkHelp = () =>
  `${schemaHelp(LINK_FLAG_PARAMS, 'Link (ack-… flags impair the reply direction)')}
  --trace FILE           a Mahimahi trace (bundled name or path) instead of --bandwidth for the data direction
  --ack-trace FILE       the reply direction's trace (default: the same as --trace)`;

/** The link the flags describe: a rate link, or a trace link when --trace is given. */
export function readLinkFlags(given: Record<string, unknown>): LinkSpec {
  const values = readSchemaFlags(LINK_FLAG_PARAMS, given, 'the link');
  for (const [from, to] of Object.entries(RENAMED)) {
    if (to in values) {
      values[from] = values[to];
      delete values[to];
    }
  }
  // Every setting starts at its schema default, as the sim's flags and the page's sliders do.
  let link = withLinkValues(rateLink(0, 0), { ...Object.fromEntries(LINK_PARAMS.map((p) => [p.name, p.default])), ...values });
  const trace = given.trace;
  if (typeof trace === 'string') {
    if (given.bandwidth !== undefined) throw new UsageError("--bandwidth and --trace both set the link's rate: give one");
    const ackTrace = typeof given['ack-trace'] === 'string' ? given['ack-trace'] : trace;
    loadTrace(trace);
    loadTrace(ackTrace);
    link = { ...link, kind: 'trace', trace, ackTrace, mbps: 0, ackMbps: 0 };
  } else if (given['ack-trace'] !== undefined) {
    throw new UsageError('--ack-trace needs --trace');
  }
  return link;
}

/** "HOST:PORT" with an IPv4 address (or localhost); port 0 only where `allowZero`. */
export function readAddress(flag: string, raw: string | undefined, allowZero: boolean): Address {
  if (raw === undefined) throw new UsageError(`--${flag} HOST:PORT is required`);
  const m = /^([^:]+):(\d+)$/.exec(raw);
  const host = m?.[1] === 'localhost' ? '127.0.0.1' : m?.[1];
  const port = Number(m?.[2]);
  if (!m || !host || !isIPv4(host) || !Number.isInteger(port) || port < (allowZero ? 0 : 1) || port > 65535) {
    throw new UsageError(`--${flag} must be HOST:PORT with an IPv4 address and a port from ${allowZero ? 0 : 1} to 65535 (got "${raw}")`);
  }
  return { host, port };
}

/** An explanation for flags people reach for by other tools' names. */
export function hintFor(message: string): string {
  if (message.includes("'--delay'")) return ' (the one-way delay is --latency; the course\'s "delay" is --jitter)';
  return '';
}
