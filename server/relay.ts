import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFile } from '../shared/offset/file.ts';
import { md5Hex } from '../shared/offset/md5.ts';
import type { OffsetPolicyConfig } from '../shared/offset/policy.ts';
import { createBridge, type Bridge } from './bridge.ts';
import { startEchoServer, type EchoServer } from './echoServer.ts';
import { staticHandler } from './http.ts';
import { startOffsetServer, type OffsetServer } from './offsetServer.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface RelayOptions {
  host: string;
  httpPort: number;
  constantPort: number;
  variablePort: number;
  echoPort: number;
  policy: OffsetPolicyConfig;
  fileSize: number;
  filePath: string | null;
  seed: number;
  keyBy: 'ip' | 'ip:port';
  delayMs: number;
  jitterMs: number;
  reorder: number;
  allow: string[];
  allowOrigins: string[];
  maxSessions: number;
  maxMessageBytes: number;
  maxDatagramsPerSecond: number;
  idleMs: number;
  /** Serve the app through Vite with hot reload instead of the built files. */
  dev: boolean;
  /** Where the built app is. */
  distDir: string;
}

export const DEFAULT_RELAY: Omit<RelayOptions, 'policy'> = {
  host: '127.0.0.1',
  httpPort: 8080,
  constantPort: 9801,
  variablePort: 9802,
  echoPort: 18000,
  fileSize: 1_000_000,
  filePath: null,
  seed: 1,
  keyBy: 'ip:port',
  delayMs: 0,
  jitterMs: 0,
  reorder: 0,
  allow: [],
  allowOrigins: [],
  maxSessions: 64,
  maxMessageBytes: 65_535,
  maxDatagramsPerSecond: 50_000,
  idleMs: 120_000,
  dev: false,
  distDir: resolve(ROOT, 'dist'),
};

/** What the page asks the relay about itself, to offer live mode. */
export interface RelayInfo {
  offsetConstant: string;
  offsetVariable: string;
  echo: string;
  bridge: string;
  fileSize: number;
  md5: string;
}

export interface Relay {
  url: string;
  info: RelayInfo;
  constant: OffsetServer;
  variable: OffsetServer;
  echo: EchoServer;
  bridge: Bridge;
  http: Server;
  /** One line per service, as printed at start. */
  lines: string[];
  close(): Promise<void>;
}

/** Starts every service of the relay in this process. Port 0 picks a free port (tests). */
export async function startRelay(o: RelayOptions): Promise<Relay> {
  const file = o.filePath ? new Uint8Array(readFileSync(o.filePath)) : generateFile(o.fileSize, o.seed);
  const md5 = md5Hex(file);
  const common = { host: o.host, file, seed: o.seed, keyBy: o.keyBy, delayMs: o.delayMs, jitterMs: o.jitterMs, reorder: o.reorder, idleMs: o.idleMs };
  const constant = await startOffsetServer({ ...common, port: o.constantPort, policy: { ...o.policy, variable: false } });
  const variable = await startOffsetServer({ ...common, port: o.variablePort, policy: { ...o.policy, variable: true } });
  const echo = await startEchoServer({ host: o.host, port: o.echoPort, idleMs: o.idleMs, maxConnections: o.maxSessions });

  const http = createServer();
  await new Promise<void>((res, rej) => {
    http.once('error', rej);
    http.listen(o.httpPort, o.host, () => res());
  });
  const address = http.address();
  const httpPort = typeof address === 'object' && address ? address.port : o.httpPort;
  const url = `http://${o.host}:${httpPort}`;
  const local = (port: number) => `${o.host}:${port}`;
  const info: RelayInfo = {
    offsetConstant: local(constant.port),
    offsetVariable: local(variable.port),
    echo: local(echo.port),
    bridge: '/bridge',
    fileSize: file.length,
    md5,
  };
  const ownOrigins = [url, `http://localhost:${httpPort}`, `http://127.0.0.1:${httpPort}`];
  const bridge = createBridge({
    udpTargets: [info.offsetConstant, info.offsetVariable, ...o.allow],
    tcpTargets: [info.echo, ...o.allow],
    origins: [...ownOrigins, ...o.allowOrigins],
    maxSessions: o.maxSessions,
    maxMessageBytes: o.maxMessageBytes,
    maxDatagramsPerSecond: o.maxDatagramsPerSecond,
    burst: Math.max(100, o.maxDatagramsPerSecond / 10),
    idleMs: o.idleMs,
  });

  const serveApp = o.dev ? await viteMiddleware(http) : staticHandler(o.distDir);
  http.on('request', (req, res) => {
    if (req.url === '/api/relay') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(info));
      return;
    }
    serveApp(req, res);
  });
  http.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    if (new URL(req.url ?? '/', 'http://relay').pathname === '/bridge') bridge.handleUpgrade(req, socket, head);
    else if (!o.dev) socket.destroy();
  });

  const lines = [
    `playground      ${url}${o.dev ? ' (dev, hot reload)' : ''}`,
    `bridge          ws://${o.host}:${httpPort}/bridge`,
    `offset server   udp://${info.offsetConstant} (constant rate ${o.policy.rate}/s) · file ${file.length} bytes, MD5 ${md5}`,
    `offset server   udp://${info.offsetVariable} (variable rate ${o.policy.initialRate}/s then ${o.policy.rates.join('/')}/s)`,
    `echo server     tcp://${info.echo}`,
  ];
  return {
    url,
    info,
    constant,
    variable,
    echo,
    bridge,
    http,
    lines,
    async close() {
      bridge.close();
      http.closeAllConnections();
      await Promise.all([new Promise<void>((r) => http.close(() => r())), constant.close(), variable.close(), echo.close()]);
    },
  };
}

/** Vite in middleware mode, sharing the relay's HTTP server for hot reload. */
async function viteMiddleware(http: Server) {
  const { createServer: createVite } = await import('vite');
  const vite = await createVite({
    configFile: resolve(ROOT, 'vite.config.ts'),
    server: { middlewareMode: true, hmr: { server: http } },
  });
  http.on('close', () => void vite.close());
  return (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) =>
    vite.middlewares(req, res, () => res.writeHead(404).end('not found\n'));
}
