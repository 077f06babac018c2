import { isIPv4 } from 'node:net';
import type { ParamSpec } from '../../shared/controllers/types.ts';
import { changesNothing, LINK_PARAMS, unusedLinkParams, withLinkValues } from '../../shared/link/params.ts';
import { NETEM_ON_TRACE } from '../../shared/scenarios/network.ts';
import { rateLink } from '../../shared/scenarios/presets.ts';
import type { LinkSpec } from '../../shared/scenarios/spec.ts';
import { flagHelp } from '../cli/flagHelp.ts';
import { type FlagSpec, flagName, readSchemaFlags, requiredFlag, splitHostPort, textFlag, UsageError } from '../cli/flags.ts';
import { loadTrace } from '../traces.ts';
import type { Address } from './emulatedLink.ts';

/**
 * The link's flags, generated from the model's link schema. The one-way delay is `--latency`, as the
 * course's network simulator calls it; there `--delay` means jitter, so the proxy takes no `--delay`
 * rather than one that means something else to half its users.
 */
const RENAMED: Record<string, string> = { delay: 'latency' };
export const LINK_FLAG_PARAMS: readonly ParamSpec[] = LINK_PARAMS.map((p) => (RENAMED[p.name] ? { ...p, name: RENAMED[p.name] } : p));

/** The flags that run the link on traces instead of a rate. */
const TRACE_FLAGS = [
  textFlag('trace', 'FILE', null, 'a Mahimahi trace (bundled name or path) instead of --bandwidth for the data direction'),
  textFlag('ackTrace', 'FILE', null, "the reply direction's trace (default: the same as --trace)"),
];

/** Every flag that describes the link, for the tool's command line. */
export const LINK_FLAGS: readonly FlagSpec[] = [...LINK_FLAG_PARAMS, ...TRACE_FLAGS];

export const linkHelp = () => `Link (ack-… flags impair the reply direction):\n${flagHelp(LINK_FLAGS)}`;

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
    if (link.model === 'netem') throw new UsageError(`--trace and --link-model netem: ${NETEM_ON_TRACE}`);
    link = { ...link, kind: 'trace', trace, ackTrace, mbps: 0, ackMbps: 0 };
  } else if (given['ack-trace'] !== undefined) {
    throw new UsageError('--ack-trace needs --trace');
  }
  refuseUnusedLinkFlags(link, given);
  return link;
}

/** Refuses a link flag the link makes no use of (`unusedLinkParams`), for the link tool and sim alike. */
export function refuseUnusedLinkFlags(link: LinkSpec, given: Record<string, unknown>): void {
  for (const [name, why] of unusedLinkParams(link)) if (given[flagName(name)] !== undefined) throw new UsageError(changesNothing(`--${flagName(name)}`, why));
}

/** "HOST:PORT" with an IPv4 address (or localhost) and a port from `minPort` to 65535. */
const isAddress = (minPort: number) => (raw: string) => {
  const a = splitHostPort(raw, minPort);
  return a !== null && (a.host === 'localhost' || isIPv4(a.host));
};
const addressMeans = (minPort: number) => `HOST:PORT with an IPv4 address and a port from ${minPort} to 65535`;

/** A HOST:PORT flag of the proxy; port 0 (any free port) where `minPort` is 0. */
export const addressFlag = <const N extends string>(name: N, minPort: 0 | 1, doc: string) => textFlag(name, 'HOST:PORT', null, doc, { accepts: isAddress(minPort), means: addressMeans(minPort) });
export const requiredAddressFlag = <const N extends string>(name: N, minPort: 0 | 1, doc: string) =>
  requiredFlag(name, 'HOST:PORT', doc, { accepts: isAddress(minPort), means: addressMeans(minPort) });

/** A checked HOST:PORT flag's address; localhost is 127.0.0.1. */
export function toAddress(raw: string): Address {
  const { host, port } = splitHostPort(raw, 0)!;
  return { host: host === 'localhost' ? '127.0.0.1' : host, port };
}

/** An explanation for flags people reach for by other tools' names. */
export function hintFor(message: string): string {
  if (message.includes("'--delay'")) return ' (the one-way delay is --latency; the course\'s "delay" is --jitter)';
  return '';
}
