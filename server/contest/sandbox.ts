import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../root.ts';
import type { FailureKind, RunInput, RunOutput } from './runProtocol.ts';
import { cpuWaitMs, wallSpent } from './runClock.ts';

/**
 * Runs a contest run in a process of its own, never the relay's: the process reads only its own bundled
 * code (Node's permission model: no other file, no child process, no worker, no native module), has no
 * environment, no network where the machine can give it a namespace of its own (`unshare -n`), an
 * address-space and CPU-time limit from the kernel (`prlimit`), a heap limit, and a wall-clock limit
 * (less the time it waited for a CPU: runClock.ts) after which it is killed. Inside it, the controller runs in an SES compartment (sandboxChild.ts).
 */

export interface SandboxLimits {
  /** The JavaScript heap, MB; the address space is this plus ADDRESS_SLACK_MB. */
  memoryMb: number;
  cpuSeconds: number;
  wallSeconds: number;
}

/** Address space V8 reserves beyond the heap (code range, thread stacks, the engine itself): below it Node does not start. */
const ADDRESS_SLACK_MB = 1024;
/**
 * The niceness of a run's process: a scorer takes only the CPU time the relay leaves, so the bridge and
 * the offset servers keep their latency while submissions are scored.
 */
const NICE = 15;
/** How often a run's wall-clock time is checked, ms: a run over its limit ends within this. */
const WALL_CHECK_MS = 200;
/** The most of a run's output and error text read: a run answers one short line. */
const MAX_OUTPUT = 64 * 1024;

/** The first of these wrappers that runs on this machine, or null. */
function probe(candidates: string[][]): string[] | null {
  for (const c of candidates) if (spawnSync(c[0], [...c.slice(1), 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0) return c;
  return null;
}

/**
 * Writes the sandbox's code, bundled whole, to `outfile`: the compiled relay (npm run build) copies the
 * bundle built with it; the relay run from source bundles sandboxChild.ts now (esbuild, a development tool).
 */
async function bundleChild(outfile: string): Promise<void> {
  if (import.meta.url.endsWith('.js')) return copyFileSync(join(projectRoot(import.meta.url), 'build/relay/sandboxChild.mjs'), outfile);
  const { build } = await import('esbuild');
  await build({ entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'sandboxChild.ts')], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'silent' });
}

/** The sandbox folders' names begin so; each holds the file naming the relay's process that made it. */
const FOLDER_PREFIX = 'pipefill-contest-';
const OWNER_FILE = 'owner.pid';

/** Whether process `pid` runs (one of another user's, which cannot be signalled, does too). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the sandbox folders in `root` left by relays that ended without closing them (kill -9, a
 * crash): those whose owner file names a process that no longer runs. A folder without one, or whose
 * process runs, is left alone, as is what cannot be removed. The folders removed.
 */
export function sweepLeftovers(root = tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(root)) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const dir = join(root, name);
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    } catch {
      continue;
    }
    if (!Number.isInteger(pid) || pid <= 0 || running(pid)) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // another user's: theirs to remove
    }
  }
  return removed;
}

export class Sandbox {
  private readonly running = new Set<ChildProcess>();

  private constructor(
    private readonly dir: string,
    private readonly bundle: string,
    private readonly network: string[] | null,
    private readonly rlimits: boolean,
  ) {}

  /**
   * Bundles the sandbox's code into a private folder, named as this process's, and finds what the machine
   * offers. The folders of relays killed before they could remove theirs go first.
   */
  static async prepare(): Promise<Sandbox> {
    sweepLeftovers();
    const dir = mkdtempSync(join(tmpdir(), FOLDER_PREFIX));
    writeFileSync(join(dir, OWNER_FILE), String(process.pid));
    const bundle = join(dir, 'sandbox.mjs');
    await bundleChild(bundle);
    chmodSync(bundle, 0o444);
    const network = probe([
      ['unshare', '-n'],
      ['unshare', '-r', '-n'],
    ]);
    const rlimits = probe([['prlimit', '--cpu=1', '--']]) !== null;
    return new Sandbox(dir, bundle, network, rlimits);
  }

  /** What isolates a run on this machine, in words for the operator's console. */
  get isolation(): string {
    const net = this.network ? `no network (${this.network.join(' ')})` : 'no network namespace here (unshare -n failed): the compartment has no network API, the process could open sockets';
    const caps = this.rlimits ? 'kernel address-space and CPU limits (prlimit)' : 'no kernel limits (prlimit missing): heap and wall-clock limits only';
    return `each run in its own process: SES compartment, Node permission model, no environment, ${net}, ${caps}`;
  }

  /** The command that starts one run's process. */
  private command(l: SandboxLimits): string[] {
    const node = [process.execPath, `--max-old-space-size=${l.memoryMb}`, '--experimental-permission', `--allow-fs-read=${this.bundle}`, '--no-warnings', this.bundle];
    const limits = this.rlimits ? ['prlimit', `--as=${(l.memoryMb + ADDRESS_SLACK_MB) * 1024 * 1024}`, `--cpu=${l.cpuSeconds}`, '--'] : [];
    return [...(this.network ?? []), ...limits, ...node];
  }

  /** One run: its scores, or the sentence that says why the controller has none. `stop` kills it (its answer is then not a run's). */
  run(input: RunInput, limits: SandboxLimits, stop?: AbortSignal): Promise<RunOutput> {
    const [cmd, ...args] = this.command(limits);
    const child = spawn(cmd, args, { env: {}, stdio: ['pipe', 'pipe', 'pipe'] });
    this.running.add(child);
    try {
      if (child.pid !== undefined) setPriority(child.pid, NICE);
    } catch {
      // a process that already ended: its exit says why
    }
    const kill = () => child.kill('SIGKILL');
    stop?.addEventListener('abort', kill, { once: true });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString('utf8')).slice(0, MAX_OUTPUT)));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-MAX_OUTPUT)));
    child.stdin.on('error', () => {}); // a process that ended early: its exit says why
    child.stdin.end(JSON.stringify(input));
    const started = performance.now();
    const timer = setInterval(() => {
      if (!wallSpent(performance.now() - started, child.pid === undefined ? 0 : cpuWaitMs(child.pid), limits.wallSeconds * 1000)) return;
      timedOut = true;
      child.kill('SIGKILL');
    }, WALL_CHECK_MS);
    return new Promise((resolve) => {
      child.on('error', (e) => resolve({ ok: false, kind: 'sandbox', error: `the sandbox could not start (${e.message})` }));
      child.on('close', (code, signal) => {
        clearInterval(timer);
        stop?.removeEventListener('abort', kill);
        this.running.delete(child);
        resolve(outcome({ code, signal, out, err, timedOut }, limits));
      });
    });
  }

  /** Ends every run under way and removes the bundle. */
  close(): void {
    for (const child of this.running) child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
  timedOut: boolean;
}

/** A run's answer, or why it has none: the limit it passed, or how its process ended. */
function outcome(e: Ended, l: SandboxLimits): RunOutput {
  const fail = (error: string, kind: FailureKind = 'sandbox'): RunOutput => ({ ok: false, kind, error });
  if (e.timedOut) return fail(`your controller did not finish within its ${l.wallSeconds} s wall-clock limit (blocked or waiting?) and was stopped`, 'time');
  if (e.code === 0) {
    try {
      return JSON.parse(e.out.trim().split('\n').at(-1) ?? '') as RunOutput;
    } catch {
      return fail('the sandbox answered something that is not a result');
    }
  }
  if (/heap limit|out of memory|allocation failed|Failed to reserve/i.test(e.err) || e.signal === 'SIGABRT' || e.signal === 'SIGTRAP')
    return fail(`your controller ran out of its ${l.memoryMb} MB of memory and was stopped`, 'memory');
  if (e.signal === 'SIGXCPU' || e.signal === 'SIGKILL')
    return fail(`your controller used its ${l.cpuSeconds} s of CPU time and was stopped (a loop the guard cannot see, such as a regular expression that backtracks?)`, 'cpu');
  return fail(`the sandbox ended without a result (${e.signal ? `signal ${e.signal}` : `exit code ${e.code}`})`);
}
