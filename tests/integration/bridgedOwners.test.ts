import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { asOperator, openBridge, testRelay, until } from '../helpers/relay.ts';

/** A GET from a chosen local address: its status and body. */
function getFrom(url: string, from: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { localAddress: from, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/**
 * A page at 127.0.0.2 fetches through the bridge: its records name the relay's own socket (127.0.0.1:port),
 * yet they are the page's, as a class reads them and as --share-records shows them.
 */
describe("a bridged page's records are its own address's", () => {
  let relay: Relay;
  let key = '';
  beforeAll(async () => {
    relay = await testRelay({ shareRecords: true });
    const udp = openBridge(relay.url, `target=${relay.info.offsetConstant}`, relay.url, { localAddress: '127.0.0.2' });
    await udp.got.ready;
    key = (udp.got.texts[0].session as { key: string }).key;
    udp.ws.send(Buffer.from('SendSize\n\n'));
    await until(() => udp.got.frames.length >= 1, 10_000);
    udp.ws.close();
    const tcp = openBridge(relay.url, `target=${relay.info.echo}&transport=tcp`, relay.url, { localAddress: '127.0.0.2' });
    await tcp.got.ready;
    tcp.ws.send(Buffer.from([0, 4, 0xaa, 0xbb]));
    await until(() => tcp.got.frames.length >= 1, 10_000);
    tcp.ws.close();
  });
  afterAll(() => relay.close());

  it("lists the page's session with its address to that address, and not to the relay's own", async () => {
    expect(key).toMatch(/^127\.0\.0\.1:\d+$/);
    const page = JSON.parse((await getFrom(`${relay.url}/api/sessions`, '127.0.0.2')).body);
    expect(page).toEqual([expect.objectContaining({ key, browser: '127.0.0.2', server: 'constant' })]);
    expect(JSON.parse((await getFrom(`${relay.url}/api/sessions`, '127.0.0.1')).body)).toEqual([]);
    const all = await (await fetch(`${relay.url}/api/sessions`, asOperator(relay))).json();
    expect(all).toEqual([expect.objectContaining({ key, browser: '127.0.0.2' })]);
  });

  it("gives the session's CSV to the page's address only", async () => {
    const [session] = JSON.parse((await getFrom(`${relay.url}/api/sessions`, '127.0.0.2')).body);
    const csv = `${relay.url}/api/sessions/${encodeURIComponent(session.id)}/csv`;
    expect((await getFrom(csv, '127.0.0.2')).status).toBe(200);
    expect(await getFrom(csv, '127.0.0.1')).toEqual({ status: 404, body: `no recorded session ${session.id}\n` });
  });

  it("lists the page's echo connection with its address to that address, and not to the relay's own", async () => {
    const page = JSON.parse((await getFrom(`${relay.url}/api/echo`, '127.0.0.2')).body);
    expect(page).toEqual([expect.objectContaining({ browser: '127.0.0.2', messages: 1 })]);
    expect(page[0].remote).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(JSON.parse((await getFrom(`${relay.url}/api/echo`, '127.0.0.1')).body)).toEqual([]);
  });
});
