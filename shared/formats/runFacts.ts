import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { MAX_CHUNK } from '../offset/protocol.ts';
import type { LiveRun, ScenarioSpec } from '../scenarios/spec.ts';

/** A run as every format reads and writes it: its event log and the experiment it came from, when known. */
export interface Run {
  log: EventLog;
  spec: ScenarioSpec | LiveRun | null;
}

/** The spec when it is a simulated scenario's (a live run's, or none, has no workload). */
export const scenarioOf = (run: Run): ScenarioSpec | null => (run.spec && 'workload' in run.spec ? run.spec : null);

/** Whether the run is an offset-server session: requests and replies by offset, over UDP. */
export function isOffsetRun(run: Run): boolean {
  const spec = run.spec;
  if (spec && 'live' in spec) return true;
  if (spec && 'workload' in spec) return spec.workload === 'offset';
  return run.log.count(K.reply) > 0;
}

/**
 * Whether the run's packets are real programs' datagrams carried by an emulated link (npm run link, a
 * testall row): the model logged them by number and size, and not what they carry.
 */
export const isExternalRun = (run: Run) => scenarioOf(run)?.flows.some((f) => f.scheme === 'external') === true;

/** Whether an ACK's sequence number is cumulative (the next packet expected) rather than the packet it answers. */
export const cumulativeAcks = (run: Run) => scenarioOf(run)?.workload === 'reliable';

/** Each flow's largest data packet (send or retransmit), in bytes: the size its window and flight count in. */
export function dataPacketBytes(log: EventLog): Map<number, number> {
  const c = log.columns;
  const out = new Map<number, number>();
  for (let i = 0; i < log.length; i++) {
    if (c.kind[i] !== K.send && c.kind[i] !== K.retransmit) continue;
    out.set(c.flow[i], Math.max(out.get(c.flow[i]) ?? 0, c.bytes[i]));
  }
  return out;
}

/**
 * Bytes a packet of each flow's window stands for: its data packet, or in an offset-server session the
 * chunk a reply carries (the window counts requests, each answered by a chunk).
 */
export function windowUnits(run: Run): Map<number, number> {
  if (!isOffsetRun(run)) return dataPacketBytes(run.log);
  const c = run.log.columns;
  const out = new Map<number, number>();
  for (let i = 0; i < run.log.length; i++) if (c.kind[i] === K.send) out.set(c.flow[i], MAX_CHUNK);
  return out;
}
