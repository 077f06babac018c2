import { DEFAULT_POLICY } from '../shared/offset/policy.ts';
import { OFFSET_PARAMS, withPolicyValues } from '../shared/offset/params.ts';
import { flagHelp, schemaHelp } from './cli/flagHelp.ts';
import { HELP_FLAG, readCommandLine, readSchemaFlags } from './cli/flags.ts';
import { interrupted, type Io, isEntry, runTool } from './cli/tool.ts';
import { type Relay, startRelay } from './relay.ts';
import { DEFAULT_RELAY, ROOM } from './relayOptions.ts';
import { RELAY_SPECS, readRelayFlags } from './relayFlags.ts';

const HELP = `Usage: npm start -- [options]

Starts the Pipefill relay: the playground over HTTP, the UDP↔WebSocket bridge at /bridge, the offset
servers (constant and variable rate) on UDP, the ping-pong echo server on TCP, and the class leaderboard
(/api/leaderboard, ?view=leaderboard). Everything binds 127.0.0.1 unless --host says otherwise.
It prints the operator's URL (with a token): whoever opens it sees every record.

Every per-address limit (--max-*-per-client) holds for every address, this machine's too. The defaults fit
a lab room of ${ROOM} students behind one address (NAT); raise them for more, lower them on an open network.

${flagHelp([...RELAY_SPECS, HELP_FLAG])}

${schemaHelp(OFFSET_PARAMS, 'Offset server policy')}
`;

/** What a failure to start means to the operator, for the system errors a flag's value causes. */
const HINTS: Record<string, string> = {
  ENOENT: 'check the --file, --leaderboard and --data paths',
  EACCES: 'check the --file, --leaderboard and --data paths',
  EISDIR: 'check the --file, --leaderboard and --data paths',
  ENOTDIR: 'check the --file, --leaderboard and --data paths',
  EEXIST: 'check the --data path: it must be a folder',
  EADDRINUSE: 'another program uses that port; pick another with the port flags',
};

/**
 * The relay from its command line: it runs until `stopped()` settles (Ctrl-C), then closes and returns 0.
 * A bad flag throws before anything binds (runTool makes it exit 2).
 */
export async function relayMain(argv: string[], io: Io, stopped: () => Promise<unknown> = interrupted): Promise<number> {
  const line = readCommandLine(argv, [HELP_FLAG], [...RELAY_SPECS, ...OFFSET_PARAMS]);
  if (line.help) {
    io.out(HELP);
    return 0;
  }
  const { given } = line;
  const config = { ...DEFAULT_RELAY, ...readRelayFlags(given), policy: withPolicyValues(DEFAULT_POLICY, readSchemaFlags(OFFSET_PARAMS, given, 'the offset server')) };
  let relay: Relay;
  try {
    relay = await startRelay(config);
  } catch (e) {
    const hint = HINTS[(e as NodeJS.ErrnoException).code ?? ''];
    throw hint ? new Error(`${(e as Error).message} (${hint})`) : e;
  }
  for (const line of relay.lines) io.out(line);
  await stopped();
  io.out('\nstopping…');
  await relay.close();
  return 0;
}

if (isEntry(import.meta.url)) process.exit(await runTool('relay', relayMain, process.argv.slice(2)));
