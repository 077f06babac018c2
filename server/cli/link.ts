import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TraceError } from '../../shared/trace/mahimahi.ts';
import { EmulatedLink } from '../link/emulatedLink.ts';
import { hintFor, linkHelp, linkOptions, readAddress, readLinkFlags } from '../link/flags.ts';
import { describeLink, formatLinkReport, linkReport } from '../link/summary.ts';
import { serveWatch } from '../link/watch.ts';
import { loadTrace } from '../traces.ts';
import { checkWritable, isEntry, whole } from './flags.ts';
import { runAsProcess } from './asProcess.ts';

const MAX_ROWS = 5_000_000;

const options = {
  listen: { type: 'string' },
  to: { type: 'string' },
  seed: { type: 'string', default: '1' },
  csv: { type: 'string' },
  'csv-rows': { type: 'string', default: String(MAX_ROWS) },
  'max-held': { type: 'string', default: String(64 << 20) },
  json: { type: 'boolean', default: false },
  watch: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  ...linkOptions,
} as const;

const help = () => `Usage: npm run link -- --listen HOST:PORT --to HOST:PORT [options]

A UDP proxy that carries a sender's datagrams to a receiver, and the receiver's replies back to the
sender, through the model's link and impairments running in real time. Payloads are carried unchanged;
the link counts each datagram with its 28 bytes of IPv4 and UDP header. Stop it with Ctrl-C: it prints
what crossed it and writes the trace CSV.

  --listen HOST:PORT     where the sender sends (port 0 picks one; the proxy prints it)
  --to HOST:PORT         the receiver
  --seed N               seed of every random choice of the impairments (default 1)
  --csv FILE             write the trace CSV on exit
  --csv-rows N           keep at most N rows for the CSV (default ${MAX_ROWS})
  --max-held BYTES       bytes the link may hold at once; more is refused (default ${64 << 20})
  --json                 print the exit summary as one JSON object
  --watch HOST:PORT      serve the trace so far at http://HOST:PORT/link.csv, for the page's Sessions view

${linkHelp()}

Example: npm run link -- --listen 127.0.0.1:9000 --to 127.0.0.1:9001 --bandwidth 5 --latency 10 --loss 10
`;

async function main(): Promise<number> {
  const { values: v } = parseArgs({ options, strict: true, allowPositionals: false });
  if (v.help) {
    console.log(help());
    return 0;
  }
  const listen = readAddress('listen', v.listen, true);
  const to = readAddress('to', v.to, false);
  const link = readLinkFlags(v);
  const watchAt = v.watch === undefined ? null : readAddress('watch', v.watch, true);
  if (v.csv) checkWritable('csv', v.csv);
  const proxy = await EmulatedLink.open({
    link,
    seed: whole('seed', v.seed, 0, 2 ** 31 - 1),
    traces: loadTrace,
    listen,
    to,
    logRows: v.csv || v.watch ? whole('csv-rows', v['csv-rows'], 0, MAX_ROWS) : 0,
    maxHeldBytes: whole('max-held', v['max-held'], 1 << 16, 2 ** 32),
  });
  console.log(`link: ${listen.host}:${proxy.port} → ${to.host}:${to.port} · ${describeLink(link)}`);
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
  if (watch) console.log(`watch: open the page's Sessions view with ?view=sessions&watch=http://${watchAt!.host}:${watch.port}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  proxy.close();
  watch?.close();
  const report = linkReport(proxy);
  console.log(v.json ? JSON.stringify(report) : formatLinkReport(report));
  if (v.csv) writeFileSync(v.csv, proxy.csv());
  return 0;
}

if (isEntry(import.meta.url)) await runAsProcess('link', () => main(), import.meta.url, { errors: [TraceError], codes: ['EADDRINUSE', 'EADDRNOTAVAIL'], hint: hintFor });
