import { writeFileSync } from 'node:fs';
import { TraceError } from '../../shared/trace/mahimahi.ts';
import { type Address, EmulatedLink } from '../link/emulatedLink.ts';
import { flagHelp } from './flagHelp.ts';
import { addressFlag, hintFor, LINK_FLAGS, linkHelp, readLinkFlags, requiredAddressFlag, toAddress } from '../link/flags.ts';
import { describeLink, formatLinkReport, linkReport } from '../link/summary.ts';
import { serveWatch } from '../link/watch.ts';
import { loadTrace } from '../traces.ts';
import { HELP_FLAG, outputFlag, readCommandLine, seedFlag, switchFlag, UsageError, wholeFlag } from './flags.ts';
import { runAsProcess } from './asProcess.ts';
import { interrupted, type Io, isEntry, type UsageFaults } from './tool.ts';

const MAX_ROWS = 5_000_000;

export const PROXY_FLAGS = [
  requiredAddressFlag('listen', 0, 'where the sender sends (port 0 picks one; the proxy prints it)'),
  requiredAddressFlag('to', 1, 'the receiver'),
  addressFlag('from', 1, 'the one sender the link carries (default: the first to send); others are refused and get nothing back'),
  seedFlag('seed of every random choice of the impairments'),
  outputFlag('csv', 'write the trace CSV on exit'),
  wholeFlag('csvRows', 'rows', 0, MAX_ROWS, MAX_ROWS, 'keep at most this many rows for the CSV and the watch'),
  wholeFlag('maxHeld', 'bytes', 1 << 16, 2 ** 32, 64 << 20, 'bytes the link may hold at once; more is refused'),
  switchFlag('json', 'print the exit summary as one JSON object'),
  addressFlag('watch', 0, "serve the trace so far at http://HOST:PORT/link.csv, for the page's Sessions view"),
  HELP_FLAG,
] as const;

const help = () => `Usage: npm run link -- --listen HOST:PORT --to HOST:PORT [options]

A UDP proxy that carries a sender's datagrams to a receiver, and the receiver's replies back to the
sender, through the model's link and impairments running in real time. Payloads are carried unchanged;
the link counts each datagram with its 28 bytes of IPv4 and UDP header. Stop it with Ctrl-C: it prints
what crossed it and writes the trace CSV.

${flagHelp(PROXY_FLAGS)}

${linkHelp()}

Example: npm run link -- --listen 127.0.0.1:9000 --to 127.0.0.1:9001 --bandwidth 5 --latency 10 --loss 10
`;

/**
 * Whether the link would carry its own datagrams back to itself: the same port on the same address, or on
 * loopback while listening on every address. Each pass would be carried again, and with --duplicate a
 * single datagram would multiply without end.
 */
function sendsToItself(listen: Address, to: Address): boolean {
  if (listen.port !== to.port) return false;
  return listen.host === to.host || (listen.host === '0.0.0.0' && to.host.startsWith('127.'));
}

/** The proxy from its command line: it carries datagrams until `stopped()` settles (Ctrl-C), then reports. */
export async function linkMain(argv: string[], io: Io, stopped: () => Promise<unknown> = interrupted): Promise<number> {
  const line = readCommandLine(argv, PROXY_FLAGS, LINK_FLAGS);
  if (line.help) {
    io.out(help());
    return 0;
  }
  const { flags, given } = line;
  const listen = toAddress(flags.listen);
  const to = toAddress(flags.to);
  if (sendsToItself(listen, to)) throw new UsageError('--to must differ from --listen: the link would send to itself');
  const link = readLinkFlags(given);
  const watchAt = flags.watch === undefined ? null : toAddress(flags.watch);
  const proxy = await EmulatedLink.open({
    link,
    seed: flags.seed,
    traces: loadTrace,
    listen,
    to,
    logRows: flags.csv || watchAt ? flags.csvRows : 0,
    maxHeldBytes: flags.maxHeld,
    from: flags.from === undefined ? null : toAddress(flags.from),
  });
  io.out(`link: ${listen.host}:${proxy.port} → ${to.host}:${to.port} · ${describeLink(link)}`);
  const watch =
    watchAt &&
    (await serveWatch(
      {
        csv: () => proxy.csv(),
        get rowCount() {
          return proxy.log.length;
        },
      },
      watchAt,
    ));
  if (watch) io.out(`watch: open the page's Sessions view with ?view=sessions&watch=http://${watchAt!.host}:${watch.port}`);
  await stopped();
  proxy.close();
  watch?.close();
  const report = linkReport(proxy);
  io.out(flags.json ? JSON.stringify(report) : formatLinkReport(report));
  if (flags.csv) writeFileSync(flags.csv, proxy.csv());
  return 0;
}

export const LINK_USAGE: UsageFaults = { errors: [TraceError], codes: ['EADDRINUSE', 'EADDRNOTAVAIL'], hint: hintFor };

if (isEntry(import.meta.url)) await runAsProcess('link', linkMain, import.meta.url, LINK_USAGE);
