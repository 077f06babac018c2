import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Accepted, SubmissionView } from '../../shared/contest/api.ts';
import { fixed } from '../../shared/text/figures.ts';
import { flagHelp } from './flagHelp.ts';
import { HELP_FLAG, readCommandLine, requiredFlag, switchFlag, textFlag, UsageError } from './flags.ts';
import { type Io, isEntry, runTool } from './tool.ts';

/**
 * `npm run contest -- submit FILE --id NAME --server URL`: hands a controller module in to a relay's class
 * contest (POST /api/contest/submissions), keeps the id's token for the next submission, and waits for
 * the scores.
 */

const DEFAULT_TOKENS = join(homedir(), '.pipefill', 'contest-tokens.json');

export const CONTEST_CLI_FLAGS = [
  requiredFlag('id', 'NAME', "your id in the course's form, e.g. ann@red (1–64 letters, digits and ._@-)"),
  requiredFlag('server', 'URL', 'the relay running the contest, e.g. http://relay.example.edu:8080'),
  textFlag('token', 'TOKEN', null, "the id's token (default: the one kept from its first submission)"),
  textFlag('tokens', 'FILE', DEFAULT_TOKENS, 'where tokens are kept, by server and id'),
  switchFlag('noWait', 'print the submission id and return without waiting for the scores'),
  HELP_FLAG,
] as const;

const help = () => `Usage: npm run contest -- submit FILE --id NAME --server URL [options]

Submits the controller module FILE (the code you wrote in the page's editor, as a file) to the class
contest of a relay started with --contest. The relay scores it on the contest's traces exactly as
\`npm run sim -- --scheme FILE --trace T --json\` would; held-out traces are scored too and shown once the
instructor reveals them. The first submission under an id gets a token, kept in --tokens; later ones
send it, so nobody else can submit as you.

${flagHelp(CONTEST_CLI_FLAGS)}
`;

type Tokens = Record<string, string>;
const readTokens = (file: string): Tokens => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Tokens) : {});

function keepToken(file: string, key: string, token: string): void {
  const tokens = readTokens(file);
  if (tokens[key] === token) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...tokens, [key]: token }, null, 2)}\n`, { mode: 0o600 });
}

/** The server's answer, or its refusal's sentence as a failure. */
async function call<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new Error(`cannot reach ${url} (${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message})`);
  }
  const body = (await res.json().catch(() => ({ error: `the server answered ${res.status} without JSON: is it a relay running --contest?` }))) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `the server answered ${res.status}`);
  return body;
}

const scoreLine = (t: SubmissionView['traces'][number]) =>
  `${t.trace.padEnd(24)} ${fixed(t.throughputMbps)} Mbit/s · delay95 ${fixed(t.delay95, 0)} ms · power ${fixed(t.power)} · score ${fixed(t.score, 3)}`;

/** Polls the submission until it is scored or has failed. */
async function waitFor(url: string): Promise<SubmissionView> {
  for (;;) {
    const view = await call<SubmissionView>(url);
    if (view.status === 'scored' || view.status === 'failed') return view;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function contestMain(argv: string[], io: Io): Promise<number> {
  const [command, file, ...rest] = argv;
  if (command === '--help' || command === '-h' || argv.length === 0) {
    io.out(help());
    return 0;
  }
  if (command !== 'submit') throw new UsageError(`the command is "submit FILE" (got ${JSON.stringify(command)})`);
  if (!file || file.startsWith('-')) throw new UsageError('submit needs the controller module: submit FILE');
  const line = readCommandLine(rest, CONTEST_CLI_FLAGS);
  if (line.help) {
    io.out(help());
    return 0;
  }
  const { flags } = line;
  const server = flags.server.replace(/\/+$/, '');
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const key = `${server} ${flags.id}`;
  const token = flags.token ?? readTokens(flags.tokens)[key];
  const accepted = await call<Accepted>(`${server}/api/contest/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: flags.id, code, token }) });
  keepToken(flags.tokens, key, accepted.token);
  io.out(`submission ${accepted.submission} (${server}/api/contest/submissions/${accepted.submission})`);
  if (flags.noWait) return 0;
  const view = await waitFor(`${server}/api/contest/submissions/${accepted.submission}`);
  if (view.status === 'failed') {
    io.err(`contest: ${view.error}`);
    return 1;
  }
  for (const t of view.traces) io.out(scoreLine(t));
  return 0;
}

if (isEntry(import.meta.url)) process.exit(await runTool('contest', contestMain, process.argv.slice(2)));
