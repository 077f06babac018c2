import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import type { Admitted } from './bridgeAdmission.ts';
import type { PortSet } from './portSet.ts';

export interface TargetEvents {
  data(payload: Uint8Array): void;
  /** `fatal` ends the session. */
  error(message: string, fatal: boolean): void;
  closed(): void;
  /** TCP only: writes to the target back up past `maxBuffered`, or have drained. */
  backedUp(): void;
  drained(): void;
  /** The socket has its local port: the address (with the target's host) its datagrams or bytes come from. */
  localPort?(port: number): void;
}

/** A bridge session's socket to its target: a UDP socket, or a TCP connection that can be paused. */
export interface Target {
  readonly datagrams: boolean;
  /** Sends the bytes; `sent` runs once they have left (for receipts). */
  send(bytes: Buffer, sent: (() => void) | null): void;
  /** TCP: stop or resume reading from the target while the page is not reading. */
  pause(): void;
  resumeIfPaused(): void;
  /** UDP: the socket's local port once it is connected (what the target sees the session come from). */
  readonly bound: Promise<number>;
  close(): void;
}

export function openTarget(a: Admitted, on: TargetEvents, maxBuffered: number, bridgedPorts: PortSet | null, bridgedTcpPorts: PortSet | null): Target {
  if (a.transport === 'udp') {
    const socket = createSocket({ type: a.host.includes(':') ? 'udp6' : 'udp4', recvBufferSize: 1 << 20 });
    let port = 0;
    socket.on('message', on.data);
    socket.on('error', (e) => on.error(`UDP: ${e.message}`, false));
    const bound = new Promise<number>((resolve) =>
      socket.on('connect', () => {
        port = socket.address().port;
        bridgedPorts?.add(port);
        on.localPort?.(port);
        resolve(port);
      }),
    );
    socket.connect(a.port, a.host);
    return {
      datagrams: true,
      bound,
      send: (bytes, sent) => (sent ? socket.send(bytes, (e) => (e ? on.error(`UDP: ${e.message}`, false) : sent())) : socket.send(bytes)),
      pause: () => {},
      resumeIfPaused: () => {},
      close: () => {
        if (port) bridgedPorts?.delete(port);
        socket.close();
      },
    };
  }
  const socket = connect({ host: a.host, port: a.port, noDelay: true });
  // The target is an address (no lookup), so the connect call is made on the next tick and the local port
  // is known right after it: marked then, before the echo server in this process hears of the connection.
  let port = 0;
  process.nextTick(() => {
    port = socket.localPort ?? 0;
    if (!port) return;
    bridgedTcpPorts?.add(port);
    on.localPort?.(port);
  });
  socket.on('close', () => port && bridgedTcpPorts?.delete(port));
  socket.on('data', on.data);
  socket.on('error', (e: NodeJS.ErrnoException) => on.error(`TCP: ${tcpFailure(e, a.target)}`, true));
  socket.on('close', on.closed);
  socket.on('drain', on.drained);
  return {
    datagrams: false,
    bound: Promise.resolve(0),
    send: (bytes, sent) => {
      const more = sent ? socket.write(bytes, sent) : socket.write(bytes);
      if (!more && socket.writableLength > maxBuffered) on.backedUp();
    },
    pause: () => socket.pause(),
    resumeIfPaused: () => socket.isPaused() && socket.resume(),
    close: () => socket.destroy(),
  };
}

/** What a TCP error means to the page: the two a student meets, in words; any other as Node gives it. */
function tcpFailure(e: NodeJS.ErrnoException, target: string): string {
  if (e.code === 'ECONNRESET') return `${target} reset the connection (it may have refused what was sent, such as a length below 2 for the echo server)`;
  if (e.code === 'ECONNREFUSED') return `nothing is listening at ${target}`;
  return e.message;
}
