import { createSocket } from 'node:dgram';
import { liveFetch, type FetchOutcome, type LiveFetchOptions } from '../live/liveFetch.ts';
import { nodeClock } from './clock.ts';

/**
 * Fetches the file from an offset server over a real UDP socket. When `stop` settles first, the fetch ends
 * there and rejects with FetchStopped, which carries what it had got.
 */
export async function fetchOverUdp(host: string, port: number, o: LiveFetchOptions, stop?: Promise<unknown>): Promise<FetchOutcome> {
  const socket = createSocket({ type: 'udp4', recvBufferSize: 1 << 20 });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.connect(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const run = liveFetch(
    {
      send: (d) => socket.send(d),
      listen: (onDatagram, onFailure) => {
        socket.on('message', (d) => onDatagram(d));
        socket.on('error', (e: Error & { code?: string }) => onFailure(e.code === 'ECONNREFUSED' ? `nothing listens on ${host}:${port} over UDP (is the offset server running?)` : e.message));
      },
      close: () => socket.close(),
    },
    nodeClock(),
    o,
  );
  void stop?.then(run.cancel);
  return run.done;
}
