import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuWaitMs } from '../server/contest/runClock.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface RelayProcess {
  proc: ChildProcess;
  out: string;
  url: string;
  constant: number;
  variable: number;
  echo: number;
  /** The operator's token, from the URL the relay printed. */
  operator: { token: string };
  /** Resident memory of the relay process (all its threads), MB. */
  rssMb(): number;
  /** CPU time the relay process has used (all threads), ms. */
  cpuMs(): number;
  /** Time its main thread has spent ready to run but waiting for a CPU (the kernel's schedstat), ms. */
  waitedMs(): number;
  alive(): boolean;
  stop(): void;
}

/** Starts a script under node with the TypeScript loader (one process, so its pid is the one measured). */
export function script(args: string[], ready: RegExp): Promise<{ proc: ChildProcess; out: string }> {
  return new Promise((res, rej) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT });
    let out = '';
    const t = setTimeout(() => rej(new Error(`no start: ${out}`)), 30_000);
    const collect = (d: Buffer) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(t);
        res({ proc, out });
      }
    };
    proc.stdout!.on('data', collect);
    proc.stderr!.on('data', (d) => (out += d));
  });
}

/** A relay on free ports with the given extra flags. */
export async function relayProcess(flags: string[]): Promise<RelayProcess> {
  const { proc, out } = await script(['server/main.ts', '--http-port', '0', '--udp-port', '0', '--variable-port', '0', '--echo-port', '0', ...flags], /operator\s+\S+\s/);
  const port = (re: RegExp) => Number(re.exec(out)![1]);
  return {
    proc,
    out,
    url: /playground\s+(http:\S+)/.exec(out)![1],
    constant: port(/udp:\/\/127\.0\.0\.1:(\d+) \(constant/),
    variable: port(/udp:\/\/127\.0\.0\.1:(\d+) \(variable/),
    echo: port(/tcp:\/\/127\.0\.0\.1:(\d+)/),
    operator: { token: /[?&]token=([\w-]+)/.exec(out)![1] },
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) / 1024,
    cpuMs: () => {
      const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 10 ms ticks
    },
    waitedMs: () => cpuWaitMs(proc.pid!),
    alive: () => proc.exitCode === null && proc.signalCode === null,
    stop: () => void proc.kill('SIGINT'),
  };
}

export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
