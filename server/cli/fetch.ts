import { lookup } from 'node:dns/promises';
import { writeFileSync } from 'node:fs';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';
import { FetchStopped, type LiveFetchOptions } from '../../live/liveFetch.ts';
import { withDefaults } from '../../shared/controllers/types.ts';
import { watch, watchCallbacks } from '../../shared/controllers/userWatch.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { fetchOverUdp } from '../liveFetch.ts';
import { flagHelp } from './flagHelp.ts';
import { HELP_FLAG, outputFlag, readCommandLine, splitHostPort, switchFlag, textFlag, UsageError, wholeFlag } from './flags.ts';
import { applySets, isSchemeFile, knownScheme, loadSchemeFile, parseSets, schemesHelp, setFlag } from './schemeFlags.ts';
import { loadsUserCode, runAsProcess } from './asProcess.ts';
import { interruption, type Io, isEntry, STOP_SIGNALS } from './tool.ts';
import { quote } from '../../shared/text/quote.ts';

/**
 * The longest --id sent. The id goes on a header line of the Submit, whose whole header the server reads
 * only up to MAX_HEADER bytes; a name and a team fit well within this.
 */
const MAX_ID = 100;

export const FETCH_FLAGS = [
  textFlag('server', 'HOST:PORT', '127.0.0.1:9801', 'the offset server (the variable-rate one is on 9802)', {
    accepts: (v) => splitHostPort(v, 1) !== null,
    means: 'HOST:PORT with a port from 1 to 65535',
  }),
  textFlag('scheme', 'ID|FILE', 'token-pacer', 'the controller: one of the schemes below, or your own module'),
  setFlag(false),
  textFlag('id', 'NAME@TEAM', 'pipefill@fetch', `the name submitted with the MD5: printable ASCII, at most ${MAX_ID} characters`),
  outputFlag('csv', 'write the trace CSV of the fetch (so far, when stopped or given up)'),
  switchFlag('json', 'print the result as one JSON object'),
  wholeFlag('giveUp', 'ms', 100, 3_600_000, 120_000, 'stop if not done by then'),
  HELP_FLAG,
] as const;

const help = () => `Usage: npm run fetch -- [options]

Fetches the whole file from an offset server over UDP with a controller of the model, submits its MD5
and prints the server's Result, Time and Penalty.

${flagHelp(FETCH_FLAGS)}

Schemes and their parameters:
${schemesHelp()}
`;

/** A value as a one-line message shows it: a character outside printable ASCII as its \u escape. */
const visible = (value: string) => value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A --id the server can take: it is sent as is on the Submit's header line, where a newline would add a
 * header of its own and a byte outside printable ASCII is refused, an answer the fetch would only see late.
 */
function checkId(id: string): string {
  if (/^[\x20-\x7e]+$/.test(id) && id.trim() !== '' && id.length <= MAX_ID) return id;
  throw new UsageError(`--id must be 1 to ${MAX_ID} printable ASCII characters, not all spaces (got ${quote(visible(id))})`);
}

/** A checked --server's IPv4 address, a host name looked up first. */
async function serverAddress(raw: string): Promise<{ host: string; port: number }> {
  const { host, port } = splitHostPort(raw, 1)!;
  try {
    return { host: (await lookup(host, { family: 4 })).address, port };
  } catch {
    throw new UsageError(`--server: no IPv4 address found for "${host}"`);
  }
}

/**
 * The page finds the callback a controller hung in by running the same simulation again, beating at every
 * callback from the last beat's count; a live fetch cannot be run again. So while the tool's thread is
 * watched (server/cli/asProcess.ts), every callback beats, and a hang is named by the callback it is in.
 */
function beatEveryCallback(): void {
  if (watch.beat) watchCallbacks(watch.beat, 0);
}

/**
 * Signals reach only a process's main thread; a fetch that runs the user's controller runs in a worker
 * thread (server/cli/asProcess.ts), which hears of them on this channel.
 */
const SIGNAL_CHANNEL = 'pipefill-fetch-signal';
/** How long a signalled worker thread may take to write the trace and end before the main thread ends the process. */
const SIGNAL_GRACE_MS = 3000;

/** The first SIGINT or SIGTERM while listening, by name, on whichever thread the fetch runs. */
function stopSignal(): { stopped: Promise<string>; off(): void } {
  if (isMainThread) return interruption();
  const channel = new BroadcastChannel(SIGNAL_CHANNEL);
  const stopped = new Promise<string>((resolve) => {
    channel.onmessage = (e) => resolve(String((e as { data: unknown }).data));
  });
  return { stopped, off: () => channel.close() };
}

/**
 * Passes a SIGINT or SIGTERM on to the worker thread, if the fetch runs in one. A thread stuck in the
 * user's code cannot answer, and one still loading the controller does not listen yet: after a grace
 * the process ends here.
 */
function relaySignals(): void {
  for (const name of STOP_SIGNALS)
    process.once(name, () => {
      const channel = new BroadcastChannel(SIGNAL_CHANNEL);
      channel.postMessage(name);
      channel.close();
      setTimeout(() => {
        console.error(`fetch: stopped by ${name}`);
        process.exit(130);
      }, SIGNAL_GRACE_MS).unref();
    });
}

/**
 * The fetch, or the exit code 130 after a SIGINT or SIGTERM, which a run from the terminal ends with. A
 * fetch stopped by a signal or given up writes the trace so far where --csv asked for it (`writeCsv`
 * returns the file, or null): how it went until then is what tells why.
 */
async function fetchUnlessStopped(server: { host: string; port: number }, o: LiveFetchOptions, writeCsv: (log: EventLog) => string | null, io: Io) {
  const log = new EventLog();
  const stop = stopSignal();
  let signal: string | null = null;
  const stopped = stop.stopped.then((name) => {
    signal = name;
  });
  try {
    return await fetchOverUdp(server.host, server.port, { ...o, log }, stopped);
  } catch (e) {
    if (!(e instanceof FetchStopped)) throw e;
    io.err(`fetch: ${signal === null ? e.message : `stopped by ${signal}`}`);
    const csv = writeCsv(log);
    if (csv) io.err(`fetch: the trace so far is in ${csv}`);
    return signal === null ? 1 : 130;
  } finally {
    stop.off();
  }
}

export async function fetchMain(argv: string[], io: Io): Promise<number> {
  const line = readCommandLine(argv, FETCH_FLAGS);
  if (line.help) {
    io.out(help());
    return 0;
  }
  const { flags } = line;
  const id = checkId(flags.id);
  const server = await serverAddress(flags.server);
  const sets = parseSets(flags.set);
  const scheme = isSchemeFile(flags.scheme) ? await loadSchemeFile(flags.scheme) : knownScheme(flags.scheme);
  beatEveryCallback();
  const params = withDefaults(scheme.params);
  applySets(sets, [{ scheme, params }]);
  const writeCsv = (log: EventLog) => {
    if (flags.csv) writeFileSync(flags.csv, formatTraceCsv(log, { live: { server: flags.server, scheme: flags.scheme, params, via: 'udp' } }));
    return flags.csv ?? null;
  };
  const out = await fetchUnlessStopped(server, { scheme, params, id, giveUpMs: flags.giveUp }, writeCsv, io);
  if (typeof out === 'number') return out;
  writeCsv(out.log);
  const r = out.result;
  if (flags.json) io.out(JSON.stringify({ ...r, chunks: out.chunks }));
  else {
    io.out(`Result: ${r.result}\nTime: ${r.serverTime}\nPenalty: ${r.penalty}`);
    io.out(`${r.size} bytes in ${out.chunks} chunks · ${r.requests} requests · ${r.duplicates} duplicate replies · ${r.squishedReplies} squished replies · MD5 ${r.md5}`);
    if (r.errors.length) io.out(`server errors: ${[...new Set(r.errors)].join('; ')}`);
  }
  return r.result ? 0 : 1;
}

if (isEntry(import.meta.url)) {
  // Only a fetch in a worker thread needs them relayed; one in this thread hears them itself.
  if (isMainThread && loadsUserCode(process.argv.slice(2))) relaySignals();
  await runAsProcess('fetch', fetchMain, import.meta.url);
}
