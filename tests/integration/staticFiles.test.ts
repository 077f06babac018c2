import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRelay } from '../helpers/relay.ts';
import { tempDir } from '../helpers/tempDir.ts';

/** The app as the relay serves it: ETags and conditional GET, the build's compressed copies by Accept-Encoding. */
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
let relay: Awaited<ReturnType<typeof testRelay>>;
beforeAll(async () => {
  const dist = tempDir('pipefill-dist-');
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>page</title>');
  writeFileSync(join(dist, 'assets/app-1234.js'), SCRIPT);
  writeFileSync(join(dist, 'assets/app-1234.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dist, 'assets/app-1234.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dist, 'assets/plain-1234.css'), 'body { color: red }\n');
  relay = await testRelay({ distDir: dist });
});
afterAll(() => relay.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${relay.url}${path}`, { headers });

/** A GET as a browser revalidates a cached file (fetch would add cache-control: no-cache to a conditional one). */
function revalidate(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(`${relay.url}${path}`, { headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the app’s files', () => {
  it('are sent brotli-compressed to a browser that takes br, gzip to one that takes only gzip, else as they are', async () => {
    const br = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect([br.status, br.headers.get('content-encoding'), br.headers.get('content-type'), br.headers.get('vary')]).toEqual([200, 'br', 'text/javascript; charset=utf-8', 'Accept-Encoding']);
    expect(await br.text()).toBe(SCRIPT); // fetch decodes it
    const gz = await get('/assets/app-1234.js', { 'accept-encoding': 'gzip' });
    expect([gz.headers.get('content-encoding'), await gz.text()]).toEqual(['gzip', SCRIPT]);
    const plain = await get('/assets/app-1234.js', { 'accept-encoding': 'identity' });
    expect([plain.headers.get('content-encoding'), plain.headers.get('content-length'), await plain.text()]).toEqual([null, String(SCRIPT.length), SCRIPT]);
    // no compressed copy: the file itself, whatever the browser takes
    const css = await get('/assets/plain-1234.css', { 'accept-encoding': 'br' });
    expect([css.headers.get('content-encoding'), await css.text()]).toEqual([null, 'body { color: red }\n']);
  });

  it('carry an ETag, and a request that has it gets 304 with no body', async () => {
    const first = await get('/assets/app-1234.js', { 'accept-encoding': 'br' });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(await revalidate('/assets/app-1234.js', { 'accept-encoding': 'br', 'if-none-match': etag! })).toEqual({ status: 304, body: '' });
    // the encodings are told apart: another encoding's ETag does not match
    expect((await revalidate('/assets/app-1234.js', { 'accept-encoding': 'identity', 'if-none-match': etag! })).status).toBe(200);
  });

  it('hashed assets are cached for good, the page revalidated; a route is the page, a missing file 404', async () => {
    expect((await get('/assets/app-1234.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const page = await get('/sessions');
    expect([page.status, page.headers.get('cache-control'), await page.text()]).toEqual([200, 'no-cache', '<!doctype html><title>page</title>']);
    const missing = await get('/assets/gone-1.js');
    expect([missing.status, await missing.text()]).toEqual([404, 'no such file: "/assets/gone-1.js"\n']);
    const post = await fetch(`${relay.url}/`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });
});
