import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { findScheme, SCHEMES } from '../../shared/controllers/registry.ts';
import { checkParams } from '../../shared/controllers/types.ts';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { fetchOverUdp } from '../liveFetch.ts';
import { UsageError } from './schemaFlags.ts';

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
  --scheme ID          ${SCHEMES.map((s) => s.id).join(', ')} (default token-pacer)
  --set NAME=VALUE     a parameter of the scheme (repeatable; see npm run sim -- --help)
  --id NAME@TEAM       the name submitted with the MD5 (default pipefill@fetch)
  --csv FILE           write the trace CSV of the fetch
  --json               print the result as one JSON object
  --give-up MS         stop if not done by then (default 120000)
`;

async function main(): Promise<number> {
  const { values: v } = parseArgs({ options, strict: true, allowPositionals: false });
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const m = /^([^:\s]+):(\d{1,5})$/.exec(v.server);
  if (!m || Number(m[2]) > 65_535) throw new UsageError(`--server must be HOST:PORT (got "${v.server}")`);
  const params: Record<string, string> = {};
  for (const s of v.set ?? []) {
    const kv = /^([A-Za-z]\w*)=(.*)$/.exec(s);
    if (!kv) throw new UsageError(`--set must look like NAME=VALUE (got "${s}")`);
    params[kv[1]] = kv[2];
  }
  const giveUp = Number(v['give-up']);
  if (!Number.isInteger(giveUp) || giveUp < 100) throw new UsageError(`--give-up must be a whole number of ms, at least 100 (got "${v['give-up']}")`);
  const scheme = findScheme(v.scheme);
  if (!scheme) throw new UsageError(`--scheme: unknown scheme "${v.scheme}" (known: ${SCHEMES.map((s) => s.id).join(', ')})`);
  const checked = checkParams(scheme, params);
  if ('error' in checked) throw new UsageError(`--set ${checked.error}`);
  const out = await fetchOverUdp(m[1], Number(m[2]), { scheme, params: checked.values, id: v.id, giveUpMs: giveUp });
  if (v.csv) writeFileSync(v.csv, formatTraceCsv(out.log, { live: { server: v.server, scheme: v.scheme, params, via: 'udp' } }));
  const r = out.result;
  if (v.json) console.log(JSON.stringify({ ...r, chunks: out.chunks }));
  else {
    console.log(`Result: ${r.result}\nTime: ${r.serverTime}\nPenalty: ${r.penalty}`);
    console.log(`${r.size} bytes in ${out.chunks} chunks · ${r.requests} requests · ${r.duplicates} duplicate replies · ${r.squishedReplies} squished replies · MD5 ${r.md5}`);
    if (r.errors.length) console.log(`server errors: ${[...new Set(r.errors)].join('; ')}`);
  }
  return r.result ? 0 : 1;
}

main().then(
  (code) => (process.exitCode = code),
  (e: Error & { code?: string }) => {
    if (e instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`fetch: ${e.message}\nRun with --help for the options.`);
      process.exitCode = 2;
    } else {
      console.error(`fetch: ${e.message}`);
      process.exitCode = 1;
    }
  },
);
