import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Relay } from '../../server/relay.ts';
import { openBridge, testRelay } from '../helpers/relay.ts';

/** A GET of the relay that follows no redirect. */
const get = (relay: Relay, path: string, headers: Record<string, string> = {}) => fetch(`${relay.url}${path}`, { headers, redirect: 'manual' });

describe('the operator is whoever holds the token printed at start, not whoever is on loopback', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await testRelay({ singleThread: true });
  });
  afterAll(() => relay.close());

  it('prints a URL with the token; opening it sets a cookie that makes the page the operator', async () => {
    const line = relay.lines.find((l) => l.startsWith('operator'))!;
    expect(line).toContain(`${relay.url}/?token=${relay.operator.token}`);
    expect(relay.operator.token).toMatch(/^[\w-]{32}$/);

    // From 127.0.0.1 but without the token: a client like any other.
    expect((await get(relay, '/api/sessions')).status).toBe(403);
    expect((await get(relay, '/api/echo')).status).toBe(403);
    expect(await (await get(relay, '/api/relay')).json()).toMatchObject({ operator: false });

    expect((await get(relay, '/?token=not-the-token')).status).toBe(403);
    const signIn = await get(relay, `/?view=sessions&token=${relay.operator.token}`);
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/?view=sessions');
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    expect(signIn.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);

    expect((await get(relay, '/api/sessions', { cookie })).status).toBe(200);
    expect(await (await get(relay, '/api/relay', { cookie })).json()).toMatchObject({ operator: true });
    expect(await (await get(relay, '/api/relay', { authorization: `Bearer ${relay.operator.token}` })).json()).toMatchObject({ operator: true });
    expect((await get(relay, '/api/sessions', { cookie: cookie.replace(/=.*/, '=x') })).status).toBe(403);
  });

  it("the cookie counts only on the relay's own pages: another origin of the same site gets no operator rights", async () => {
    // SameSite=Strict still sends the cookie from another port of the host or another subdomain of the site.
    const signIn = await get(relay, `/?token=${relay.operator.token}`);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
    const asOperator = async (origin: string) => ((await (await get(relay, '/api/relay', { cookie, origin })).json()) as { operator: boolean }).operator;
    expect(await asOperator(relay.url)).toBe(true);
    expect(await asOperator(`http://127.0.0.1:${Number(new URL(relay.url).port) + 1}`)).toBe(false);
    expect(await asOperator('http://students.localhost')).toBe(false);
    expect(await (await get(relay, '/api/relay', { authorization: `Bearer ${relay.operator.token}`, origin: 'http://x.example' })).json()).toMatchObject({ operator: true });
  });
});

describe('a trusted proxy names the client; anyone else is not believed', () => {
  /** Whether a bridge session from 127.0.0.1 forwarded for `client` opens. */
  const opens = async (relay: Relay, client: string) => {
    const { ws, got } = openBridge(relay.url, `target=${relay.info.offsetConstant}`, relay.url, { headers: { 'x-forwarded-for': `203.0.113.9, ${client}` } });
    const opened = await got.ready.then(
      () => true,
      () => false,
    );
    return { opened, ws };
  };

  it('with --trust-proxy 127.0.0.1 each forwarded client has its own sessions; without it, X-Forwarded-For changes nothing', async () => {
    const trusting = await testRelay({ singleThread: true, maxSessionsPerClient: 1, trustProxies: ['127.0.0.1'] });
    const plain = await testRelay({ singleThread: true, maxSessionsPerClient: 1 });
    try {
      const first = await opens(trusting, '10.0.0.1');
      const second = await opens(trusting, '10.0.0.2');
      const again = await opens(trusting, '10.0.0.1');
      expect([first.opened, second.opened, again.opened]).toEqual([true, true, false]);
      const one = await opens(plain, '10.0.0.1');
      const other = await opens(plain, '10.0.0.2');
      expect([one.opened, other.opened]).toEqual([true, false]);
      for (const s of [first, second, again, one, other]) s.ws.close();
    } finally {
      await trusting.close();
      await plain.close();
    }
  });
});
