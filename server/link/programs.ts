import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const STDERR_TAIL = 2048;
/** Programs still running, so that an interrupted run can stop them (they live in their own groups). */
const live = new Set<Program>();

/** Set once an interrupted run stops its programs: one its next row starts meanwhile is killed as it starts. */
let stopping = false;

/** Stops every program still running, and any started from now on. */
export async function stopAll(): Promise<void> {
  stopping = true;
  await Promise.all([...live].map((p) => p.stop()));
}

/**
 * A student's program run through the shell, in its own process group so that stopping it stops
 * whatever it started too. Its stdout is kept up to a limit (the rest only counted); of stderr, the
 * last couple of kilobytes, to explain a failure.
 */
export class Program {
  private readonly child: ChildProcess;
  private readonly chunks: Buffer[] = [];
  kept = 0;
  /** Bytes written to stdout in all, kept or not. */
  written = 0;
  lastOutputAt = 0;
  stderrTail = '';
  exitCode: number | null = null;
  exitSignal: string | null = null;
  readonly exited: Promise<void>;

  constructor(
    command: string,
    private readonly keep: number,
    stdin: Uint8Array | null = null,
  ) {
    this.child = spawn('sh', ['-c', command], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(this);
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        live.delete(this);
        resolve();
      }),
    );
    this.child.stdout!.on('data', (d: Buffer) => {
      this.written += d.length;
      this.lastOutputAt = performance.now();
      const room = this.keep - this.kept;
      if (room <= 0) return;
      const part = d.length > room ? d.subarray(0, room) : d;
      this.chunks.push(part);
      this.kept += part.length;
    });
    this.child.stderr!.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-STDERR_TAIL)));
    // A program that never reads its input closes the pipe early: that is its business, not an error here.
    this.child.stdin!.on('error', () => {});
    if (stdin) this.child.stdin!.end(stdin);
    else this.child.stdin!.end();
    // the process ends right after the stop: no time to wait for a SIGTERM to be heeded
    if (stopping) this.signal('SIGKILL');
  }

  get running(): boolean {
    return this.exitCode === null && this.exitSignal === null;
  }

  get output(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** Waits up to `ms` for the program to exit by itself; true if it did. */
  async waitExit(ms: number): Promise<boolean> {
    if (!this.running) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
    const done = await Promise.race([this.exited.then(() => true), timedOut]);
    clearTimeout(timer);
    return done;
  }

  /** Stops the program's whole process group: SIGTERM, then SIGKILL if it lingers. */
  async stop(): Promise<void> {
    // Signalled even when the shell has exited: what it started in the background lives on in its group.
    this.signal('SIGTERM');
    if (!(await this.waitGone(500))) {
      this.signal('SIGKILL');
      await this.exited;
    }
  }

  /** Waits up to `ms` for the shell to exit, then up to `ms` more for the rest of its group; true if all went. */
  private async waitGone(ms: number): Promise<boolean> {
    if (!(await this.waitExit(ms))) return false;
    const until = performance.now() + ms;
    while (this.groupAlive()) {
      if (performance.now() >= until) return false;
      await sleep(10);
    }
    return true;
  }

  private groupAlive(): boolean {
    try {
      process.kill(-this.child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }

  private signal(sig: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, sig);
    } catch {
      // The group is already gone.
    }
  }
}

/** A UDP port on 127.0.0.1 that nothing holds right now, for the receiver to bind. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const port = s.address().port;
      s.close(() => resolve(port));
    });
  });
}

/** Whether some socket is bound to UDP `port`, IPv4 or IPv6 (Linux's tables), or null if unknown. */
function udpBound(port: number): boolean | null {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let known = false;
  for (const file of ['/proc/net/udp', '/proc/net/udp6']) {
    let table: string;
    try {
      table = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    known = true;
    // Each row's second column is the local address, "ADDRESS:PORT" in hex.
    if (table.split('\n').some((row) => row.trim().split(/\s+/)[1]?.endsWith(`:${hex}`))) return true;
  }
  return known ? false : null;
}

/**
 * Waits until the receiver has bound its port, so the sender's first datagram is not lost to a
 * receiver still starting up. Without Linux's socket table, waits a fixed half second. False if the
 * receiver exited or did not bind within `ms`.
 */
export async function waitForBind(port: number, program: Program, ms = 5000): Promise<boolean> {
  const start = performance.now();
  while (performance.now() - start < ms) {
    if (!program.running) return false;
    const bound = udpBound(port);
    if (bound === null) {
      await sleep(500);
      return program.running;
    }
    if (bound) return true;
    await sleep(5);
  }
  return false;
}
