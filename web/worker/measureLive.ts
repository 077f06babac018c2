import { fitLatency, type MeasurementResult } from '../../shared/scenarios/measurement.ts';
import { network } from './sandbox.ts';
import { BridgeSession, bridgeUrl, type WebSocketLike } from '../live/bridgeSession.ts';

/**
 * Ping-pong through the bridge to the echo server over TCP: one message at a time, each timed by the
 * relay's clock from when it went out to when its last byte came back, so the WebSocket hop drops out.
 */
export async function measureLive(relay: string, target: string, sizes: number[], repeats: number): Promise<MeasurementResult> {
  const ws = new network.WebSocket(bridgeUrl(relay.replace(/^http/, 'ws'), target, 'tcp', 'receipts'));
  const samples: { size: number; rttMs: number }[] = [];
  let sentAt = Number.NaN;
  let expect = 0;
  let got = 0;
  let next: (() => void) | null = null;
  let session: BridgeSession | null = null;
  const failed = new Promise<never>((_, reject) => {
    session = new BridgeSession(ws as unknown as WebSocketLike, {
      onReady: () => next?.(),
      onSent: (_count, relayTime) => {
        sentAt = relayTime;
      },
      onData: (payload, relayTime) => {
        got += payload.length;
        if (got < expect) return;
        samples.push({ size: expect, rttMs: relayTime - sentAt });
        next?.();
      },
      onError: (message, fatal) => fatal && reject(new Error(message)),
    });
  });
  const step = () => new Promise<void>((resolve) => (next = resolve));
  await Promise.race([step(), failed]);
  for (const size of sizes) {
    for (let r = 0; r < repeats; r++) {
      const m = new Uint8Array(size);
      new DataView(m.buffer).setUint16(0, size);
      expect = size;
      got = 0;
      const done = step();
      session!.send(m);
      await Promise.race([done, failed]);
    }
  }
  session!.close();
  return { samples, fit: fitLatency(samples) };
}
