import { createSocket } from 'node:dgram';
import { liveFetch, type FetchOutcome, type LiveFetchOptions } from '../live/liveFetch.ts';
import { nodeClock } from './clock.ts';

/** Fetches the file from an offset server over a real UDP socket. */
export async function fetchOverUdp(host: string, port: number, o: LiveFetchOptions): Promise<FetchOutcome> {
  const socket = createSocket({ type: 'udp4', recvBufferSize: 1 << 20 });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.connect(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return liveFetch(
    {
      send: (d) => socket.send(d),
      listen: (onDatagram, onFailure) => {
        socket.on('message', onDatagram);
        socket.on('error', (e: Error & { code?: string }) => onFailure(e.code === 'ECONNREFUSED' ? `nothing listens on ${host}:${port} over UDP (is the offset server running?)` : e.message));
      },
      close: () => socket.close(),
    },
    nodeClock(),
    o,
  ).done;
}
