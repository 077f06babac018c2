import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { type FromSocket, PortSocket, proxySocket } from '../../web/worker/socketPort.ts';

/** A WebSocket server on loopback that records what it is sent, and holds each handshake until `release`. */
async function socketServer() {
  const server: Server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  const s = { port: 0, upgrades: 0, received: [] as (string | number[])[], closeCodes: [] as number[], release: () => {}, sockets: [] as import('ws').WebSocket[] };
  const held = new Promise<void>((resolve) => (s.release = resolve));
  server.on('upgrade', async (req, socket, head) => {
    s.upgrades++;
    await held;
    wss.handleUpgrade(req, socket, head, (ws) => {
      s.sockets.push(ws);
      ws.on('message', (d: Buffer, binary) => s.received.push(binary ? [...d] : d.toString()));
      ws.on('close', (code) => s.closeCodes.push(code));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const ws of s.sockets) ws.terminate();
      wss.close();
      server.close(() => resolve());
    });
  return Object.assign(s, { close });
}

const open: ((() => Promise<void>) | (() => void))[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c();
});

/** Waits, bounded, until `cond` holds. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

describe('the live fetch’s socket, split between the page’s worker and the sandbox', () => {
  it('opens the page’s own bridge only; of what the sandbox sends, acts on a frame once the socket is open and on a close, nothing else', async () => {
    const relay = await socketServer();
    const elsewhere = await socketServer();
    elsewhere.release();
    open.push(relay.close, elsewhere.close);
    const own = { protocol: 'http:', host: `127.0.0.1:${relay.port}` };
    const opened: string[] = [];
    const openSocket = (u: string) => (opened.push(u), new WebSocket(u));
    const { port1, port2 } = new MessageChannel();
    open.push(() => (port1.close(), port2.close()));
    // a URL that is not the page's bridge is refused before anything is opened
    expect(() => proxySocket(port1, `ws://127.0.0.1:${elsewhere.port}/bridge`, own, openSocket)).toThrow(`a live fetch connects to its page's relay only, not ws://127.0.0.1:${elsewhere.port}/bridge`);
    expect(() => proxySocket(port1, `ws://127.0.0.1:${relay.port}/api/relay`, own, openSocket)).toThrow(/page's relay only/);
    expect(() => proxySocket(port1, `wss://127.0.0.1:${relay.port}/bridge`, own, openSocket)).toThrow(/page's relay only/);
    const url = `ws://127.0.0.1:${relay.port}/bridge?target=127.0.0.1%3A9801`;
    proxySocket(port1, url, own, openSocket);
    const seen: unknown[] = [];
    port1.addEventListener('message', (e) => seen.push((e as MessageEvent).data));
    const told: FromSocket[] = [];
    port2.onmessage = (e) => told.push(e.data);
    // forged by the sandbox while the relay still holds the handshake: a connection elsewhere, frames before open, shapes it does not take
    const spyUrl = `ws://127.0.0.1:${elsewhere.port}/bridge`;
    const forged = [
      { kind: 'connect', url: spyUrl },
      { kind: 'open', url: spyUrl },
      { kind: 'send', data: new Uint8Array([9, 9]).buffer },
      { kind: 'send', data: 'early' },
      { kind: 'send', data: 7 },
      { kind: 'send', data: { length: 1 } },
      'send',
      null,
      { url: spyUrl },
    ];
    for (const m of forged) port2.postMessage(m);
    await until(() => seen.length === forged.length && relay.upgrades === 1);
    relay.release();
    await until(() => told.some((m) => m.kind === 'open'));
    // open now: the shapes it does not take still go nowhere
    for (const m of forged.filter((f) => !(typeof f === 'object' && f?.kind === 'send' && (typeof f.data === 'string' || f.data instanceof ArrayBuffer)))) port2.postMessage(m);
    port2.postMessage({ kind: 'send', data: 'hello' });
    const bytes = new Uint8Array([1, 2, 3]).buffer;
    port2.postMessage({ kind: 'send', data: bytes }, [bytes]);
    await until(() => relay.received.length === 2);
    expect(relay.received).toEqual(['hello', [1, 2, 3]]);
    relay.sockets[0].send(Buffer.from([4, 5]));
    relay.sockets[0].send('{"type":"pong"}');
    await until(() => told.length === 3);
    expect(told[0]).toEqual({ kind: 'open' });
    expect(told[1].kind === 'message' && new Uint8Array(told[1].data as ArrayBuffer)).toEqual(new Uint8Array([4, 5]));
    expect(told[2]).toEqual({ kind: 'message', data: '{"type":"pong"}' });
    port2.postMessage({ kind: 'close', code: 4000, reason: 'ignored' });
    await until(() => relay.closeCodes.length === 1 && told.length === 4);
    expect(relay.closeCodes).toEqual([1000]);
    expect(told[3]).toEqual({ kind: 'close' });
    expect(opened).toEqual([url]);
    expect(elsewhere.upgrades).toBe(0);
    expect(relay.upgrades).toBe(1);
  });

  it('the sandbox’s side reads the socket’s events and hands each frame over, its bytes moved, not copied', async () => {
    const { port1, port2 } = new MessageChannel();
    open.push(() => (port1.close(), port2.close()));
    const socket = new PortSocket(port1);
    const events: string[] = [];
    socket.addEventListener('open', () => events.push('open'));
    socket.addEventListener('message', (e) => events.push(e.data instanceof ArrayBuffer ? `bytes ${new Uint8Array(e.data).join(',')}` : `text ${e.data}`));
    socket.addEventListener('close', () => events.push('close'));
    const asked: unknown[] = [];
    port2.onmessage = (e) => asked.push(e.data);
    expect(socket.readyState).toBe(0);
    const frame = new Uint8Array([7, 8, 9]);
    const part = new Uint8Array(frame.buffer.slice(0), 1, 1);
    socket.send(frame);
    socket.send(part);
    socket.send('ping');
    expect(frame.byteLength).toBe(0); // moved to the other side
    expect(part.byteLength).toBe(1); // a view of part of its buffer: its bytes copied out
    const buffer = new Uint8Array([1]).buffer;
    port2.postMessage({ kind: 'open' });
    port2.postMessage({ kind: 'message', data: buffer }, [buffer]);
    port2.postMessage({ kind: 'message', data: 'pong' });
    port2.postMessage({ kind: 'close' });
    await until(() => events.length === 4 && asked.length === 3);
    expect(events).toEqual(['open', 'bytes 1', 'text pong', 'close']);
    expect(socket.readyState).toBe(3);
    expect(asked.map((m) => JSON.stringify(m, (_k, v) => (v instanceof ArrayBuffer ? [...new Uint8Array(v)] : v)))).toEqual([
      '{"kind":"send","data":[7,8,9]}',
      '{"kind":"send","data":[8]}',
      '{"kind":"send","data":"ping"}',
    ]);
  });
});
