import { lookup } from 'node:dns/promises';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { findScheme, SCHEMES } from '../../shared/controllers/registry.ts';
import { withDefaults } from '../../shared/controllers/types.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { fetchOverUdp } from '../liveFetch.ts';
import { applySets, checkWritable, type Io, isEntry, isSchemeFile, loadSchemeFile, parseSets, schemesHelp, UsageError, whole } from './flags.ts';
import { runAsProcess } from './asProcess.ts';

const options = {
  server: { type: 'string', default: '127.0.0.1:9801' },
  scheme: { type: 'string', default: 'token-pacer' },
  set: { type: 'string', multiple: true },
  id: { type: 'string', default: 'pipefill@fetch' },
  csv: { type: 'string' },
  json: { type: 'boolean', default: false },
  'give-up': { type: 'string', default: '120000' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const HELP = `Usage: npm run fetch -- [options]

Fetches the whole file from an offset server over UDP with a controller of the model, submits its MD5
and prints the server's Result, Time and Penalty.

  --server HOST:PORT   the offset server (default 127.0.0.1:9801; the variable-rate one is on 9802)
  --scheme ID|FILE     the controller (default token-pacer), one of the schemes below or your own module
  --set NAME=VALUE     a parameter of the scheme (repeatable)
  --id NAME@TEAM       the name submitted with the MD5 (default pipefill@fetch)
  --csv FILE           write the trace CSV of the fetch
  --json               print the result as one JSON object
  --give-up MS         stop if not done by then (default 120000)

Schemes and their parameters:
${schemesHelp(SCHEMES)}
`;

/** --server as an IPv4 address and a port from 1 to 65535, a host name looked up first. */
async function serverAddress(raw: string): Promise<{ host: string; port: number }> {
  const m = /^([^:\s]+):(\d{1,5})$/.exec(raw);
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65_535) throw new UsageError(`--server must be HOST:PORT with a port from 1 to 65535 (got "${raw}")`);
  try {
    return { host: (await lookup(m[1], { family: 4 })).address, port };
  } catch {
    throw new UsageError(`--server: no IPv4 address found for "${m[1]}"`);
  }
}

export async function fetchMain(argv: string[], io: Io): Promise<number> {
  const { values: v } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  if (v.help) {
    io.out(HELP);
    return 0;
  }
  const server = await serverAddress(v.server);
  if (v.csv) checkWritable('csv', v.csv);
  const sets = parseSets(v.set);
  const giveUp = whole('give-up', v['give-up'], 100, 3_600_000);
  const scheme = findScheme(isSchemeFile(v.scheme) ? await loadSchemeFile(v.scheme) : v.scheme);
  if (!scheme) throw new UsageError(`--scheme: unknown scheme "${v.scheme}" (known: ${SCHEMES.map((s) => s.id).join(', ')})`);
  const params = withDefaults(scheme.params);
  applySets(sets, [{ scheme, params }]);
  const out = await fetchOverUdp(server.host, server.port, { scheme, params, id: v.id, giveUpMs: giveUp });
  if (v.csv) writeFileSync(v.csv, formatTraceCsv(out.log, { live: { server: v.server, scheme: v.scheme, params, via: 'udp' } }));
  const r = out.result;
  if (v.json) io.out(JSON.stringify({ ...r, chunks: out.chunks }));
  else {
    io.out(`Result: ${r.result}\nTime: ${r.serverTime}\nPenalty: ${r.penalty}`);
    io.out(`${r.size} bytes in ${out.chunks} chunks · ${r.requests} requests · ${r.duplicates} duplicate replies · ${r.squishedReplies} squished replies · MD5 ${r.md5}`);
    if (r.errors.length) io.out(`server errors: ${[...new Set(r.errors)].join('; ')}`);
  }
  return r.result ? 0 : 1;
}

if (isEntry(import.meta.url)) await runAsProcess('fetch', fetchMain, import.meta.url);
