import { get as httpGet } from 'node:http';
import WebSocket from 'ws';
import { DEFAULT_POLICY } from '../../shared/offset/policy.ts';
import { startRelay } from '../../server/relay.ts';
import { DEFAULT_RELAY, type RelayOptions } from '../../server/relayOptions.ts';

/** A relay on free ports of 127.0.0.1, with a small file so fetches are quick. */
export function testRelay(o: Partial<RelayOptions> = {}) {
  return startRelay({
    ...DEFAULT_RELAY,
    httpPort: 0,
    constantPort: 0,
    variablePort: 0,
    echoPort: 0,
    fileSize: 60_000,
    policy: DEFAULT_POLICY,
    ...o,
  });
}

/** Headers that make a request the operator's (records of every client, operator-only actions). */
export const asOperator = (relay: { operator: { token: string } }) => ({ headers: { authorization: `Bearer ${relay.operator.token}` } });

export interface Received {
  frames: Buffer[];
  texts: { type: string; message?: string; fatal?: boolean; [k: string]: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
  ready: Promise<void>;
}

/** Opens a bridge session and records everything that comes back; `more` sets headers or the local address. */
export function openBridge(relayUrl: string, query: string, origin: string | undefined = relayUrl, more: WebSocket.ClientOptions = {}): { ws: WebSocket; got: Received } {
  const ws = new WebSocket(`${relayUrl.replace('http', 'ws')}/bridge?${query}`, origin ? { origin, ...more } : more);
  const got: Received = { frames: [], texts: [], closed: null as never, ready: null as never };
  got.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  got.ready = new Promise((resolve, reject) => {
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) got.frames.push(data);
      else {
        const m = JSON.parse(data.toString());
        got.texts.push(m);
        if (m.type === 'ready') resolve();
        if (m.type === 'error' && m.fatal) reject(new Error(m.message));
      }
    });
    ws.on('error', reject);
  });
  got.ready.catch(() => {});
  return { ws, got };
}

export async function until(cond: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return cond();
}

/**
 * A GET from a chosen local address (127.0.0.2 for a second client): its status once headers arrive,
 * and `close` to leave the response (an event stream) open until then.
 */
export function getFrom(url: string, localAddress: string, headers: Record<string, string> = {}): Promise<{ status: number; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { localAddress, headers }, (res) => resolve({ status: res.statusCode ?? 0, close: () => req.destroy() }));
    req.on('error', reject);
  });
}
