import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import type { SubmissionView } from '../../shared/contest/api.ts';
import type { ContestOptions } from '../../server/contest/contest.ts';
import { ROOT, tsxArgs } from './cli.ts';
import { until } from './relay.ts';

/**
 * The class contest the page's tests run: scored on the contest trace, holding `heldOut` out (none: no
 * trace), one scorer, no gap between submissions; `more` changes what a test needs.
 */
export const pageContest = (heldOut: string | null, more: Partial<ContestOptions> = {}): ContestOptions => ({
  publicTraces: ['Verizon-LTE-short'],
  heldOutTraces: heldOut ? [heldOut] : [],
  link: {},
  reveal: false,
  scorers: 1,
  gapSeconds: 0,
  limits: { memoryMb: 256, cpuSeconds: 30, wallSeconds: 60 },
  ...more,
});

/** The operator's token the contest relays are started with. */
export const OPERATOR_TOKEN = 'contest-operator-token-for-tests';

/** A relay process running the class contest on free ports, its URL, and a stop that waits for its exit. */
export async function contestRelay(flags: string[]): Promise<{ url: string; child: ChildProcess; out: () => string; stop(): Promise<void> }> {
  const args = ['--http-port', '0', '--udp-port', '0', '--variable-port', '0', '--echo-port', '0', '--operator-token', OPERATOR_TOKEN, '--contest', '--contest-gap', '0', ...flags];
  const child = spawn(process.execPath, tsxArgs('server/main.ts', args), { cwd: ROOT });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  if (!(await until(() => out.includes('contest sandbox') || child.exitCode !== null, 30_000))) throw new Error(`the relay did not start:\n${out}`);
  const url = /playground\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  if (!url) throw new Error(`the relay did not start:\n${out}`);
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  return {
    url,
    child,
    out: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/** POSTs a submission body (an object, sent as JSON, or raw bytes) and reads the JSON answer. */
export async function postSubmission(url: string, body: unknown): Promise<{ status: number; json: Record<string, string> }> {
  const raw = body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body);
  const res = await fetch(`${url}/api/contest/submissions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw });
  return { status: res.status, json: await res.json() };
}

/** POSTs a submission (an object, sent as JSON, or its text) from `from`, a loopback address of its own, and reads the JSON answer. */
export function postSubmissionFrom(url: string, from: string, body: Record<string, string> | string): Promise<{ status: number; json: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/contest/submissions`, { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** A submission's state once it is scored or failed (polled: the answer it means, not a time). */
export async function settled(url: string, submission: string, ms = 120_000): Promise<SubmissionView> {
  const end = Date.now() + ms;
  for (;;) {
    const view: SubmissionView = await (await fetch(`${url}/api/contest/submissions/${submission}`)).json();
    if (view.status === 'scored' || view.status === 'failed' || Date.now() > end) return view;
    await new Promise((r) => setTimeout(r, 100));
  }
}
