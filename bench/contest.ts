import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reference, SubmissionView } from '../shared/contest/api.ts';
import { scoreboardEntries } from '../shared/scenarios/sweep.ts';
import { bridgedLatency, MANY } from './relayLoad.ts';
import { pct, ROOT, type RelayProcess, relayProcess, sleep } from './relayProcess.ts';

/**
 * The class contest under load: 200 submissions (one per student, each from an address of its own, each a variant of one controller) on
 * the default contest (three traces, one scorer per core but one), the time to score them all, and the
 * latency the bridge adds to offset-server requests while nothing is scored and while they are.
 */

/** 200, or CONTEST_SUBMISSIONS for a shorter run. */
const SUBMISSIONS = Number(process.env.CONTEST_SUBMISSIONS ?? 200);
/** One scorer, the relay's default: each submission's time is the sandbox's alone, not shared among several. */
const SCORERS = 1;
const SESSIONS = 50;
const CODE = readFileSync(join(ROOT, 'tests/fixtures/contestAimd.mjs'), 'utf8');

/** Waits until every built-in's reference point is in on every trace, so that "idle" means idle. */
async function referencesDone(relay: RelayProcess): Promise<void> {
  for (;;) {
    const ref: Reference = await (await fetch(`${relay.url}/api/contest/reference`)).json();
    if (ref.traces.every((t) => t.schemes.length === scoreboardEntries().length)) return;
    await sleep(1000);
  }
}

/** Each student's own machine: 127.0.0.2 and on, as a class's clients each have an address of their own. */
const addressOf = (i: number) => `127.0.0.${2 + (i % 250)}`;

async function submit(relay: RelayProcess, i: number): Promise<string> {
  const code = CODE.replace('default: 150', `default: ${50 + (i % 45) * 10}`);
  const body = JSON.stringify({ id: `s${i}@bench`, code });
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${relay.url}/api/contest/submissions`, { method: 'POST', localAddress: addressOf(i), headers: { 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
  if (status !== 202) throw new Error(`submission ${i}: ${status} ${text}`);
  return (JSON.parse(text) as { submission: string }).submission;
}

async function allSettled(relay: RelayProcess, ids: string[]): Promise<SubmissionView[]> {
  for (;;) {
    const views = await Promise.all(ids.map(async (id) => (await (await fetch(`${relay.url}/api/contest/submissions/${id}`)).json()) as SubmissionView));
    if (views.every((v) => v.status === 'scored' || v.status === 'failed')) return views;
    await sleep(2000);
  }
}

const latency = (r: { added: number[]; answered: number }) => `${pct(r.added, 0.5).toFixed(2)} / ${pct(r.added, 0.99).toFixed(2)} ms (${r.answered} requests answered in 5 s)`;

export async function benchContest(): Promise<Record<string, string>> {
  const relay = await relayProcess(['--contest', '--contest-scorers', String(SCORERS), '--contest-reveal', '--contest-gap', '0', ...MANY, '--rate', '100000', '--bucket', '100000', '--loss', '0']);
  const figures: Record<string, string> = {};
  try {
    await referencesDone(relay);
    await bridgedLatency(relay, SESSIONS, 1500); // warm-up
    figures[`bridge, ${SESSIONS} sessions at 250 req/s, nothing scored: added p50 / p99`] = latency(await bridgedLatency(relay, SESSIONS, 5000));
    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < SUBMISSIONS; i++) ids.push(await submit(relay, i));
    figures[`${SUBMISSIONS} submissions acknowledged (202)`] = `in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    figures[`bridge, ${SESSIONS} sessions at 250 req/s, while scoring: added p50 / p99`] = latency(await bridgedLatency(relay, SESSIONS, 5000));
    const views = await allSettled(relay, ids);
    const s = (performance.now() - t0) / 1000;
    const scored = views.filter((v) => v.status === 'scored').length;
    figures[`${SUBMISSIONS} submissions scored on 3 traces`] =
      `${scored} scored, ${views.length - scored} failed, in ${s.toFixed(0)} s (${((s / SUBMISSIONS) * 1000).toFixed(0)} ms each, ${SCORERS} scorer(s))`;
  } finally {
    relay.stop();
  }
  return figures;
}
