import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Accepted, SubmissionView, TokenProblem } from '../../shared/contest/api.ts';
import { UserCodeError } from '../../shared/controllers/userCode.ts';
import { studentIdProblem } from '../../shared/relay/studentId.ts';
import { fixed } from '../../shared/text/figures.ts';
import { quote } from '../../shared/text/quote.ts';
import { flagHelp } from './flagHelp.ts';
import { HELP_FLAG, readCommandLine, requiredFlag, switchFlag, textFlag, UsageError } from './flags.ts';
import { loadSchemeSource } from './schemeFlags.ts';
import { type Io, isEntry, runTool } from './tool.ts';

/**
 * `npm run contest -- submit FILE --id NAME@TEAM --server URL`: hands a controller module in to a relay's class
 * contest (POST /api/contest/submissions), keeps the id's token for the next submission, and waits for
 * the scores.
 */

const DEFAULT_TOKENS = join(homedir(), '.pipefill', 'contest-tokens.json');

/**
 * --server: the relay's URL with its scheme. It is not completed from a bare HOST:PORT (npm run fetch's
 * --server, an offset server's UDP address): tokens are kept under it as spelled, and a relay may be https.
 */
const serverFlag = (doc: string) => requiredFlag('server', 'URL', doc, { accepts: (v) => /^https?:\/\//i.test(v) && URL.canParse(v), means: "the relay's URL, such as http://127.0.0.1:8080" });

export const CONTEST_CLI_FLAGS = [
  requiredFlag('id', 'NAME@TEAM', "your id in the course's form, e.g. ann@red (letters, digits and ._- either side of one @, at most 64 characters)"),
  serverFlag('the relay running the contest, e.g. http://relay.example.edu:8080'),
  textFlag('token', 'TOKEN', null, "the id's token (default: the one kept from its first submission)"),
  textFlag('tokens', 'FILE', DEFAULT_TOKENS, 'where tokens are kept, by server and id'),
  switchFlag('noWait', 'print the submission id and return without waiting for the scores'),
  HELP_FLAG,
] as const;

const help = () => `Usage: npm run contest -- submit FILE --id NAME@TEAM --server URL [options]

Submits the controller module FILE (the code you wrote in the page's editor, as a file) to the class
contest of a relay started with --contest. The relay scores it on the contest's traces exactly as
\`npm run sim -- --scheme FILE --trace T --json\` would; held-out traces are scored too and shown once the
instructor reveals them. The first submission under an id gets a token, kept in --tokens; later ones
send it, so nobody else can submit as you. FILE is loaded first, as \`npm run sim\` loads it: one that
does not load (a syntax error, a bad export) is not sent.

       npm run contest -- status SUBMISSION --server URL

waits for an acknowledged submission's scores and prints them (e.g. after the relay restarted).

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

/** A connection that could not be made or was cut: the relay may be restarting. */
class Unreachable extends Error {}
/** A refusal by the relay, with its HTTP status and, for a refusal of the token, what was wrong with it. */
class Refused extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly tokenProblem?: TokenProblem,
  ) {
    super(message);
  }
}

/** The server's answer, or its refusal's sentence as a failure. */
async function call<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new Unreachable(`cannot reach ${url} (${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message})`);
  }
  const body = (await res.json().catch(() => ({ error: `the server answered ${res.status} without JSON: is it a relay running --contest?` }))) as T & { error?: string; tokenProblem?: TokenProblem };
  if (!res.ok) throw new Refused(body.error ?? `the server answered ${res.status}`, res.status, body.tokenProblem);
  return body;
}

const scoreLine = (t: SubmissionView['traces'][number]) =>
  `${t.trace.padEnd(24)} ${fixed(t.throughputMbps)} Mbit/s · delay95 ${fixed(t.delay95, 0)} ms · power ${fixed(t.power)} · score ${fixed(t.score, 3)}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a relay that stopped answering is waited for: long enough for a restart, bounded. */
const PATIENCE_MS = 120_000;

/**
 * Polls the submission until it is scored or has failed. The relay keeps what it acknowledged on disk, so a
 * refused or cut connection (a restart) is retried with a growing pause, for at most PATIENCE_MS.
 */
async function waitFor(url: string, io: Io, later: string): Promise<SubmissionView> {
  let silentSince: number | null = null;
  let pause = 250;
  for (;;) {
    let view: SubmissionView;
    try {
      // a relay starting up may take a connection and not answer it yet
      view = await call<SubmissionView>(url, { signal: AbortSignal.timeout(5000) });
    } catch (e) {
      if (!(e instanceof Unreachable)) throw e;
      if (silentSince === null) {
        silentSince = Date.now();
        io.err('contest: the relay is not answering; waiting for it…');
      } else if (Date.now() - silentSince > PATIENCE_MS) {
        throw new Error(`${e.message} for ${PATIENCE_MS / 1000} s; the submission is acknowledged and kept by the relay: read its scores later with ${later}`);
      }
      await sleep(pause);
      pause = Math.min(pause * 2, 5000);
      continue;
    }
    silentSince = null;
    pause = 250;
    if (view.status === 'scored' || view.status === 'failed') return view;
    await sleep(500);
  }
}

/** Waits for a submission's scores and prints them; 1 when it failed. */
async function report(server: string, submission: string, io: Io): Promise<number> {
  const later = `npm run contest -- status ${submission} --server ${server}`;
  const view = await waitFor(`${server}/api/contest/submissions/${submission}`, io, later);
  if (view.status === 'failed') {
    io.err(`contest: ${view.error}`);
    return 1;
  }
  for (const t of view.traces) io.out(scoreLine(t));
  return 0;
}

/**
 * The refusal of a later submission sent without a token, saying where the token was looked for; any other
 * refusal (an id the roster does not list) as it is.
 */
function noTokenKept(e: unknown, id: string, server: string, tokensFile: string): unknown {
  if (!(e instanceof Refused) || e.tokenProblem !== 'missing') return e;
  return new Error(
    `${e.message}. No token for ${id} was kept for the server spelled ${server} in ${tokensFile} (tokens are kept by the server's URL exactly as given to --server): use the same --server spelling as the first submission, or give the token with --token TOKEN`,
  );
}

export const CONTEST_STATUS_FLAGS = [serverFlag('the relay the submission was sent to'), HELP_FLAG] as const;

/** `status SUBMISSION --server URL`: waits for an acknowledged submission's scores and prints them. */
async function statusMain(submission: string | undefined, rest: string[], io: Io): Promise<number> {
  if (!submission || submission.startsWith('-')) throw new UsageError('status needs the submission id: status SUBMISSION --server URL');
  const line = readCommandLine(rest, CONTEST_STATUS_FLAGS);
  if (line.help) {
    io.out(help());
    return 0;
  }
  return report(line.flags.server.replace(/\/+$/, ''), submission, io);
}

/**
 * The module's text, once it loads as `npm run sim` loads a controller file: one that does not would fail
 * on the relay too, after taking the id's turn (the gap between submissions), so it is refused unsent.
 */
async function readController(file: string): Promise<string> {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  await loadSchemeSource(code).catch((e: unknown) => {
    throw e instanceof UserCodeError ? new UsageError(`${file} is not sent: ${e.message}`) : e;
  });
  return code;
}

export async function contestMain(argv: string[], io: Io): Promise<number> {
  const [command, file, ...rest] = argv;
  if (command === '--help' || command === '-h' || argv.length === 0) {
    io.out(help());
    return 0;
  }
  if (command === 'status') return statusMain(file, rest, io);
  if (command !== 'submit') throw new UsageError(`the command is "submit FILE" or "status SUBMISSION" (got ${JSON.stringify(command)})`);
  if (!file || file.startsWith('-')) throw new UsageError('submit needs the controller module: submit FILE');
  const line = readCommandLine(rest, CONTEST_CLI_FLAGS);
  if (line.help) {
    io.out(help());
    return 0;
  }
  const { flags } = line;
  const server = flags.server.replace(/\/+$/, '');
  // the page's rule: the relay takes no other id, and the student learns it before sending anything
  const idProblem = studentIdProblem(flags.id);
  if (idProblem) throw new UsageError(`--id: ${idProblem} (got ${quote(flags.id)})`);
  const code = await readController(file);
  const key = `${server} ${flags.id}`;
  const token = flags.token ?? readTokens(flags.tokens)[key];
  const accepted = await call<Accepted>(`${server}/api/contest/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: flags.id, code, token }),
  }).catch((e) => {
    throw token === undefined ? noTokenKept(e, flags.id, server, flags.tokens) : e;
  });
  keepToken(flags.tokens, key, accepted.token);
  io.out(`submission ${accepted.submission} (${server}/api/contest/submissions/${accepted.submission})`);
  if (flags.noWait) return 0;
  return report(server, accepted.submission, io);
}

if (isEntry(import.meta.url)) process.exit(await runTool('contest', contestMain, process.argv.slice(2)));
