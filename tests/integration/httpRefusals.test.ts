import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainClientErrors } from '../../server/http.ts';

/** What the server answers to `bytes`, sent at once and nothing after: all it writes until it closes. */
function answerTo(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const s = connect(port, '127.0.0.1', () => s.write(bytes));
    s.on('data', (d) => (got += d));
    s.on('close', () => resolve(got));
  });
}

describe('requests refused before any route sees them', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // The relay's deadlines, shortened; checked every 50 ms instead of every 30 s
    server = createServer({ headersTimeout: 400, requestTimeout: 600, connectionsCheckingInterval: 50 }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('taken\n'));
    });
    explainClientErrors(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a body that stops short of its length: 408, with how long the server waits', async () => {
    const answer = await answerTo(port, 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\nabc');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer.split('\r\n\r\n')[1]).toBe('the request did not arrive in time: its headers are waited for 0.4 s, the whole of it 0.6 s\n');
  });

  it('headers that never end: 408 too', async () => {
    const answer = await answerTo(port, 'GET / HTTP/1.1\r\nhost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('a malformed length: 400 with what the parser found, not the bytes sent', async () => {
    const answer = await answerTo(port, 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: -5\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer.split('\r\n\r\n')[1]).toBe('bad request: Invalid character in Content-Length\n');
  });

  it('a whole request is served', async () => {
    const answer = await answerTo(port, 'POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\nconnection: close\r\n\r\nabc');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\ntaken\n$/);
  });
});
