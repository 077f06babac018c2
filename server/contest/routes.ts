import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, posix } from 'node:path';
import { HELD_OUT_TRACE, MAX_CODE_BYTES, type Roster } from '../../shared/contest/api.ts';
import { studentIdProblem } from '../../shared/relay/studentId.ts';
import { requestUrl } from '../http.ts';
import { ENCODINGS } from '../static.ts';
import { leaveUnread, readBody } from './body.ts';
import { boardCsv } from './csv.ts';
import type { Contest } from './contest.ts';

/**
 * The contest's HTTP API (shared/contest/api.ts says its JSON), and the refusal of the held-out traces'
 * files wherever a path names them. Refusals are 4xx with `{"error": "<sentence>"}`.
 */

/** JSON escapes at most multiply a module's bytes by six (a control character becomes \u00XX). */
const MAX_BODY = 6 * MAX_CODE_BYTES + 4096;

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers }).end(JSON.stringify(body));
};
const refuse = (res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}) => send(res, status, { error }, headers);

/** A file's name without the compression suffixes the static server serves its compressed copies under. */
function uncompressed(name: string): string {
  const suffix = ENCODINGS.find((e) => name.endsWith(e.suffix))?.suffix;
  return suffix ? uncompressed(name.slice(0, -suffix.length)) : name;
}

/** Whether a request path names a held-out trace's file, or a compressed copy of it, however it is written. */
function namesHeldOut(pathname: string, heldOutFiles: ReadonlySet<string>): boolean {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // left as written: a file name has no bad escapes
  }
  return heldOutFiles.has(uncompressed(basename(posix.normalize(path))));
}

/** Answers the request if it is the contest's; false for any other. */
export function handleContest(req: IncomingMessage, res: ServerResponse, contest: Contest): boolean {
  const path = requestUrl(req)?.pathname ?? '';
  if (namesHeldOut(path, contest.heldOutFiles)) {
    refuse(res, 404, HELD_OUT_TRACE);
    return true;
  }
  if (!path.startsWith('/api/contest/')) return false;
  const get = req.method === 'GET' || req.method === 'HEAD';
  const submission = /^\/api\/contest\/submissions\/([^/]+)$/.exec(path);
  if (path === '/api/contest/submissions' && req.method === 'POST') void submit(req, res, contest);
  else if (path === '/api/contest/reveal' && req.method === 'POST') reveal(req, res, contest);
  else if (!get) refuse(res, 405, `${req.method} is not taken here`, { allow: 'GET, HEAD' });
  else if (submission) {
    const view = contest.store.view(submission[1], (address) => contest.isOperator(req) || contest.clientAddress(req) === address);
    if (view) send(res, 200, view);
    else refuse(res, 404, `there is no submission ${submission[1].slice(0, 100)} on this relay`);
  } else if (path === '/api/contest/leaderboard') send(res, 200, contest.store.board());
  else if (path === '/api/contest/leaderboard.csv')
    res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="contest.csv"', 'cache-control': 'no-store' }).end(boardCsv(contest.store.board()));
  else if (path === '/api/contest/reference') send(res, 200, contest.reference());
  else if (path === '/api/contest/roster') roster(req, res, contest);
  else if (path === '/api/contest/events') contest.events.watch(res, contest.clientAddress(req));
  else refuse(res, 404, `no such contest endpoint: ${path.slice(0, 100)}`);
  return true;
}

async function submit(req: IncomingMessage, res: ServerResponse, contest: Contest): Promise<void> {
  const busy = contest.bodies.take(req, contest.clientAddress(req), MAX_BODY);
  if (busy) {
    leaveUnread(req);
    return refuse(res, busy.status, busy.error, { connection: 'close' });
  }
  const body = await readBody(req, MAX_BODY);
  if (!body.ok) {
    refuse(res, body.status, body.error);
    return;
  }
  let sent: unknown;
  try {
    sent = JSON.parse(body.text);
  } catch {
    refuse(res, 400, 'the request body is not JSON: send {"id": "...", "code": "...", "token": "..."}');
    return;
  }
  const { id, code, token } = (typeof sent === 'object' && sent !== null ? sent : {}) as Record<string, unknown>;
  // the page's own rule and sentence, so that an id the relay takes is one the page takes too
  const student = typeof id === 'string' ? id : '';
  const idProblem = studentIdProblem(student);
  if (idProblem) return refuse(res, 400, idProblem);
  if (typeof code !== 'string' || code.trim() === '') return refuse(res, 400, 'code must be the controller module, as text');
  const bytes = Buffer.byteLength(code, 'utf8');
  if (bytes > MAX_CODE_BYTES) return refuse(res, 413, `the code is ${bytes} bytes; a submission may be at most ${MAX_CODE_BYTES} bytes (256 KB)`);
  const answer = await contest.submit(student, contest.clientAddress(req), code, token);
  if ('error' in answer) send(res, answer.status, { error: answer.error, tokenProblem: answer.tokenProblem, ...answer.held }, answer.headers);
  else send(res, 202, answer);
}

/** The class's ids, for the operator to see who has not submitted: the roster is the instructor's, not the class's. */
function roster(req: IncomingMessage, res: ServerResponse, contest: Contest): void {
  if (!contest.isOperator(req)) return refuse(res, 403, 'only the operator may read the class roster');
  send(res, 200, { ids: contest.rosterIds } satisfies Roster);
}

function reveal(req: IncomingMessage, res: ServerResponse, contest: Contest): void {
  if (!contest.isOperator(req)) return refuse(res, 403, 'only the operator may reveal the held-out scores');
  contest.reveal();
  send(res, 200, { revealed: true });
}
