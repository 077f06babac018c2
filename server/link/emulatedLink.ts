import { createSocket, type Socket } from 'node:dgram';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { K } from '../../shared/log/kinds.ts';
import type { Packet, PacketSink } from '../../shared/net/packet.ts';
import { buildNetwork } from '../../shared/scenarios/network.ts';
import type { TraceSource } from '../../shared/scenarios/run.ts';
import { flow } from '../../shared/scenarios/presets.ts';
import type { LinkSpec, ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { Rng } from '../../shared/sim/rng.ts';
import { DelayHistogram } from './histogram.ts';
import { RealTimeDriver } from './realTime.ts';
import { CountingLog, type DirectionStats } from './tap.ts';

/** IPv4 and UDP headers: what a datagram occupies on the link beyond its payload. */
export const HEADER_BYTES = 28;
const SOCKET_BUFFER = 4 << 20;

export interface Address {
  host: string;
  port: number;
}

export interface EmulatedLinkOptions {
  link: LinkSpec;
  seed: number;
  traces: TraceSource;
  /** Where the sender sends to (port 0 picks a free one). */
  listen: Address;
  /** The receiver. */
  to: Address;
  /** Trace rows to keep for the CSV; 0 keeps none. */
  logRows: number;
  /** Wire bytes the link may hold at once; datagrams beyond it are refused (the queue is infinite by default). */
  maxHeldBytes: number;
  /** The one sender the link carries; null binds it to the first that sends. */
  from?: Address | null;
}

/** Other senders the link tells apart in its summary; past this many it counts their datagrams only. */
export const MAX_REFUSED_SENDERS = 1024;

/**
 * A UDP proxy between a real sender and receiver through the model's link, run in real time: the
 * sender's datagrams cross the data direction (loss, duplication, the bottleneck and its queue, delay,
 * jitter and reordering) to the receiver, the receiver's replies cross the ACK direction back to the
 * sender. The link carries one sender: the one `from` names, else the first to send. Datagrams from
 * anyone else are refused and counted (they get nothing back, and never see the sender's replies).
 * Payloads ride in the model's packets and come out byte for byte.
 */
export class EmulatedLink {
  readonly driver = new RealTimeDriver();
  readonly log: CountingLog;
  /** Datagrams from anyone but the receiver on the upstream socket, ignored. */
  strays = 0;
  sendErrors = 0;
  /** Datagrams from senders other than the link's, refused. */
  refused = 0;
  private readonly refusedFrom = new Set<string>();
  /** Time each delivered datagram spent inside the link (queue, transmission, delay), ms. */
  readonly forwardDelay = new DelayHistogram();
  readonly reverseDelay = new DelayHistogram();
  private client: Address | null = null;
  private forwardId = 0;
  private reverseId = 0;
  private readonly enterForward: PacketSink;
  private readonly enterReverse: PacketSink;

  private constructor(
    readonly options: EmulatedLinkOptions,
    private readonly front: Socket,
    private readonly back: Socket,
  ) {
    const { link, traces } = options;
    const scheduler = this.driver.scheduler;
    const rng = new Rng(options.seed);
    this.log = new CountingLog(options.logRows);
    const isTrace = link.kind === 'trace';
    const { data, acks } = buildNetwork(scheduler, link, this.log, { data: isTrace ? traces(link.trace) : null, acks: isTrace && link.ackTrace !== '' ? traces(link.ackTrace) : null }, rng);
    data.exit.next = { receive: (p, now) => this.deliver(p, now, this.log.forward, this.forwardDelay, this.back, options.to) };
    acks.exit.next = { receive: (p, now) => this.deliver(p, now, this.log.reverse, this.reverseDelay, this.front, this.client) };
    this.enterForward = data.entry;
    this.enterReverse = acks.entry;
    this.client = options.from ?? null;
    front.on('message', (m, from) => {
      this.client ??= { host: from.address, port: from.port };
      if (this.client.port === from.port && this.client.host === from.address) this.admit(m, false);
      else this.refuse(`${from.address}:${from.port}`);
    });
    back.on('message', (m, from) => {
      if (from.port !== options.to.port || from.address !== options.to.host) this.strays++;
      else this.admit(m, true);
    });
    for (const s of [front, back]) s.on('error', (e) => console.error(`link: socket error: ${e.message}`));
  }

  static async open(options: EmulatedLinkOptions): Promise<EmulatedLink> {
    const bind = (addr: Address) =>
      new Promise<Socket>((resolve, reject) => {
        const s = createSocket({ type: 'udp4', recvBufferSize: SOCKET_BUFFER, sendBufferSize: SOCKET_BUFFER });
        s.once('error', reject);
        s.bind(addr.port, addr.host, () => {
          s.off('error', reject);
          resolve(s);
        });
      });
    const front = await bind(options.listen);
    // The upstream socket faces the receiver: on loopback when the receiver is.
    const back = await bind({ host: options.to.host.startsWith('127.') ? options.to.host : '0.0.0.0', port: 0 }).catch((e) => {
      front.close();
      throw e;
    });
    return new EmulatedLink(options, front, back);
  }

  /** The sender the link carries, once known. */
  get sender(): Address | null {
    return this.client;
  }

  /** How many other senders were refused (at most MAX_REFUSED_SENDERS are told apart). */
  get refusedSenders(): number {
    return this.refusedFrom.size;
  }

  private refuse(from: string): void {
    this.refused++;
    if (this.refusedFrom.size < MAX_REFUSED_SENDERS) this.refusedFrom.add(from);
  }

  get port(): number {
    return this.front.address().port;
  }

  get forward(): DirectionStats {
    return this.log.forward;
  }

  get reverse(): DirectionStats {
    return this.log.reverse;
  }

  /** Sender's datagrams inside the link: admitted and duplicated, less those delivered or dropped. */
  get forwardInFlight(): number {
    const f = this.log.forward;
    return this.forwardId + f.duplicated - f.delivered - f.queueDrops - f.lossDrops;
  }

  /** Whether rows are kept for the trace CSV. */
  get recording(): boolean {
    return this.options.logRows > 0;
  }

  /** Seconds of wall time since the link opened. */
  get seconds(): number {
    return this.driver.now / 1000;
  }

  close(): void {
    this.driver.stop();
    this.front.close();
    this.back.close();
  }

  /** The trace CSV of what crossed the link, described as a reliable transfer of `fileBytes` (or of unknown size). */
  csv(fileBytes: number | null = null): string {
    return formatTraceCsv(this.log, this.spec(fileBytes));
  }

  /** The experiment as the trace CSV records it: a reliable transfer between programs outside the model. */
  spec(fileBytes: number | null): ScenarioSpec {
    return { workload: 'reliable', link: this.options.link, flows: [flow('external', {}, 0, fileBytes)], seed: this.options.seed, durationMs: this.driver.now, offset: null };
  }

  /** Notes the end of the sender's transfer in the trace (the lab's "done" row). */
  markDone(startedAt: number): void {
    const now = this.driver.now;
    this.log.push(now, K.done, 0, 0, 0, now - startedAt, 0);
  }

  private admit(payload: Buffer, reply: boolean): void {
    const stats = reply ? this.log.reverse : this.log.forward;
    const bytes = payload.length + HEADER_BYTES;
    stats.datagrams++;
    stats.bytes += bytes;
    if (this.log.held + bytes > this.options.maxHeldBytes) {
      stats.overflow++;
      return;
    }
    this.log.held += bytes;
    this.driver.inject((now) => {
      const seq = reply ? this.reverseId++ : this.forwardId++;
      const packet: Packet = { flow: 0, seq, bytes, isAck: reply, sentAt: now, receivedAt: 0, ack: 0, payload, retransmit: false, ecn: 0 };
      if (!reply) this.log.push(now, K.send, 0, seq, bytes, this.forwardInFlight, 0);
      (reply ? this.enterReverse : this.enterForward).receive(packet, now);
    });
  }

  private deliver(packet: Packet, now: number, stats: DirectionStats, delay: DelayHistogram, socket: Socket, to: Address | null): void {
    this.driver.noteLateness(now);
    delay.add(now - packet.sentAt);
    this.log.held -= packet.bytes;
    if (stats.delivered === 0) stats.firstDelivery = now;
    stats.lastDelivery = now;
    stats.delivered++;
    stats.deliveredBytes += packet.bytes;
    if (!packet.isAck) this.log.push(now, K.deliver, 0, packet.seq, packet.bytes, now - packet.sentAt, 0);
    if (!to) return;
    socket.send(packet.payload!, to.port, to.host, (e) => {
      if (e) this.sendErrors++;
    });
  }
}
