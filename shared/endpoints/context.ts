import type { EventLog } from '../log/eventLog.ts';
import type { PacketSink } from '../net/packet.ts';
import type { Scheduler } from '../sim/scheduler.ts';

/** What an endpoint is wired to: the clock, the log, its flow number and the path towards its peer. */
export interface Endpoint {
  scheduler: Scheduler;
  log: EventLog;
  flow: number;
  out: PacketSink;
}
