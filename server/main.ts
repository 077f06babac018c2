import { parseArgs } from 'node:util';
import { DEFAULT_POLICY } from '../shared/offset/policy.ts';
import { OFFSET_PARAMS, withPolicyValues } from '../shared/offset/params.ts';
import { readSchemaFlags, schemaHelp, schemaOptions, UsageError } from './cli/flags.ts';
import { DEFAULT_RELAY, startRelay } from './relay.ts';

const d = DEFAULT_RELAY;
const options = {
  host: { type: 'string', default: d.host },
  'http-port': { type: 'string', default: String(d.httpPort) },
  'udp-port': { type: 'string', default: String(d.constantPort) },
  'variable-port': { type: 'string', default: String(d.variablePort) },
  'echo-port': { type: 'string', default: String(d.echoPort) },
  'file-size': { type: 'string', default: String(d.fileSize) },
  file: { type: 'string' },
  seed: { type: 'string', default: String(d.seed) },
  key: { type: 'string', default: d.keyBy },
  delay: { type: 'string', default: '0' },
  jitter: { type: 'string', default: '0' },
  reorder: { type: 'string', default: '0' },
  allow: { type: 'string', multiple: true },
  'allow-origin': { type: 'string', multiple: true },
  'max-sessions': { type: 'string', default: String(d.maxSessions) },
  'max-message': { type: 'string', default: String(d.maxMessageBytes) },
  'max-rate': { type: 'string', default: String(d.maxDatagramsPerSecond) },
  idle: { type: 'string', default: String(d.idleMs) },
  dev: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  ...schemaOptions(OFFSET_PARAMS),
} as const;

const HELP = `Usage: npm start -- [options]

Starts the Pipefill relay: the playground over HTTP, the UDP↔WebSocket bridge at /bridge, the offset
servers (constant and variable rate) on UDP and the ping-pong echo server on TCP. Everything binds
127.0.0.1 unless --host says otherwise.

  --host ADDR           address every service binds (default ${d.host})
  --http-port N         the playground and the bridge (default ${d.httpPort})
  --udp-port N          constant-rate offset server (default ${d.constantPort})
  --variable-port N     variable-rate offset server (default ${d.variablePort})
  --echo-port N         ping-pong echo server, TCP (default ${d.echoPort})
  --file-size BYTES     size of the generated file (default ${d.fileSize})
  --file PATH           serve this file instead of a generated one
  --seed N              seed of the file and of the servers' random loss (default ${d.seed})
  --key ip|ip:port      what a client session is keyed by (default ${d.keyBy}; the course server uses ip)
  --delay MS            hold replies this long (default 0)
  --jitter MS           ± uniform variation of that hold (default 0)
  --reorder PERCENT     replies sent at once, skipping the hold, so they overtake (default 0)
  --allow HOST:PORT     another target the bridge may reach (repeatable; UDP and TCP)
  --allow-origin URL    another page origin that may use the bridge (repeatable)
  --max-sessions N      bridge sessions at once (default ${d.maxSessions})
  --max-message BYTES   largest message through the bridge (default ${d.maxMessageBytes})
  --max-rate N          datagrams per second per bridge session (default ${d.maxDatagramsPerSecond})
  --idle MS             close bridge sessions and forget server sessions idle this long (default ${d.idleMs})
  --dev                 serve the app through Vite with hot reload

${schemaHelp(OFFSET_PARAMS, 'Offset server policy')}
`;

function whole(flag: string, raw: string, min: number, max: number): number {
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return v;
}

function number(flag: string, raw: string, min: number, max: number): number {
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || v < min || v > max) throw new UsageError(`--${flag} must be a number from ${min} to ${max} (got "${raw}")`);
  return v;
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({ options, strict: true, allowPositionals: false });
  if (v.help) {
    console.log(HELP);
    return;
  }
  if (v.key !== 'ip' && v.key !== 'ip:port') throw new UsageError(`--key must be ip or ip:port (got "${v.key}")`);
  const allow = v.allow ?? [];
  for (const a of allow) if (!/^[^:\s]+:\d{1,5}$/.test(a)) throw new UsageError(`--allow must be HOST:PORT (got "${a}")`);
  const relay = await startRelay({
    ...DEFAULT_RELAY,
    host: v.host,
    httpPort: whole('http-port', v['http-port'], 0, 65_535),
    constantPort: whole('udp-port', v['udp-port'], 0, 65_535),
    variablePort: whole('variable-port', v['variable-port'], 0, 65_535),
    echoPort: whole('echo-port', v['echo-port'], 0, 65_535),
    fileSize: whole('file-size', v['file-size'], 1, 1_000_000_000),
    filePath: v.file ?? null,
    seed: whole('seed', v.seed, 0, 2 ** 31 - 1),
    keyBy: v.key,
    delayMs: number('delay', v.delay, 0, 60_000),
    jitterMs: number('jitter', v.jitter, 0, 60_000),
    reorder: number('reorder', v.reorder, 0, 100) / 100,
    allow,
    allowOrigins: v['allow-origin'] ?? [],
    maxSessions: whole('max-sessions', v['max-sessions'], 1, 10_000),
    maxMessageBytes: whole('max-message', v['max-message'], 1, 1 << 20),
    maxDatagramsPerSecond: whole('max-rate', v['max-rate'], 1, 10_000_000),
    idleMs: whole('idle', v.idle, 1000, 86_400_000),
    dev: v.dev,
    policy: withPolicyValues(DEFAULT_POLICY, readSchemaFlags(OFFSET_PARAMS, v, 'the offset server')),
  });
  for (const line of relay.lines) console.log(line);
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log('\nstopping…');
    void relay.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: Error & { code?: string }) => {
  if (e instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`relay: ${e.message}\nRun with --help for the options.`);
    process.exit(2);
  }
  if (e.code === 'EADDRINUSE') {
    console.error(`relay: ${e.message}: another program uses that port (pick another with the port flags)`);
    process.exit(1);
  }
  throw e;
});
