import { parseArgs } from 'node:util';
import { DEFAULT_POLICY } from '../shared/offset/policy.ts';
import { OFFSET_PARAMS, withPolicyValues } from '../shared/offset/params.ts';
import { readSchemaFlags, schemaHelp, schemaOptions, UsageError } from './cli/flags.ts';
import { DEFAULT_RELAY, startRelay } from './relay.ts';
import { FlagError, readRelayFlags, relayHelp, relayOptions } from './relayFlags.ts';

const options = {
  ...relayOptions(),
  help: { type: 'boolean', short: 'h', default: false },
  ...schemaOptions(OFFSET_PARAMS),
} as const;

const HELP = `Usage: npm start -- [options]

Starts the Pipefill relay: the playground over HTTP, the UDP↔WebSocket bridge at /bridge, the offset
servers (constant and variable rate) on UDP, the ping-pong echo server on TCP, and the class leaderboard
(/api/leaderboard, ?view=leaderboard). Everything binds 127.0.0.1 unless --host says otherwise.

${relayHelp()}

${schemaHelp(OFFSET_PARAMS, 'Offset server policy')}
`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const relay = await startRelay({
    ...DEFAULT_RELAY,
    ...readRelayFlags(values),
    policy: withPolicyValues(DEFAULT_POLICY, readSchemaFlags(OFFSET_PARAMS, values, 'the offset server')),
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
  if (e instanceof UsageError || e instanceof FlagError || e.code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`relay: ${e.message}\nRun with --help for the options.`);
    process.exit(2);
  }
  if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') {
    console.error(`relay: ${e.message} (check the --file and --leaderboard paths)`);
    process.exit(1);
  }
  if (e.code === 'EADDRINUSE') {
    console.error(`relay: ${e.message}: another program uses that port (pick another with the port flags)`);
    process.exit(1);
  }
  throw e;
});
