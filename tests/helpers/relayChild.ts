import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { ROOT, tsxArgs } from './cli.ts';

/** A relay in a process of its own, on free ports of 127.0.0.1, as the operator starts it. */
export interface RelayChild {
  proc: ChildProcess;
  /** Everything it printed, stdout and stderr. */
  out(): string;
  url: string;
  constant: number;
  echo: number;
  md5: string;
  /** Kills it with SIGKILL, as a crash or `kill -9` would, and waits until it is gone. */
  kill9(): Promise<void>;
  /** Ctrl-C, and its exit code. */
  stop(): Promise<number | null>;
}

const children = new Set<ChildProcess>();

/** Kills every relay a test started and left running (a failed test's). */
export function killRelayChildren(): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
}

/** Starts `npm start` with `flags`, once it has printed its last service line (`last`). */
export async function startRelayChild(flags: string[], last = /^records {9}.*$/m): Promise<RelayChild> {
  const proc = spawn(process.execPath, tsxArgs('server/main.ts', ['--http-port', '0', '--udp-port', '0', '--variable-port', '0', '--echo-port', '0', ...flags]), { cwd: ROOT });
  children.add(proc);
  let out = '';
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => (children.delete(proc), r(code))));
  await new Promise<void>((resolve, reject) => {
    const collect = (d: Buffer) => {
      out += d;
      if (last.test(out)) resolve();
    };
    proc.stdout.on('data', collect);
    proc.stderr.on('data', collect);
    void exited.then(() => reject(new Error(`the relay exited: ${out}`)));
  });
  const port = (re: RegExp) => Number(re.exec(out)![1]);
  return {
    proc,
    out: () => out,
    url: /playground\s+(http:\S+)/.exec(out)![1],
    constant: port(/udp:\/\/127\.0\.0\.1:(\d+) \(constant/),
    echo: port(/tcp:\/\/127\.0\.0\.1:(\d+)/),
    md5: /MD5 ([0-9a-f]{32})/.exec(out)![1],
    async kill9() {
      proc.kill('SIGKILL');
      await exited;
    },
    async stop() {
      proc.kill('SIGINT');
      return exited;
    },
  };
}

/**
 * A client of the offset server on its own UDP socket (its own session): fetches the file, then Submits
 * one at a time, each answer awaited at most `waitMs` (none comes from a relay that was killed).
 */
export async function offsetClient(port: number, waitMs = 3000) {
  const socket = createSocket('udp4');
  socket.on('error', () => {});
  await new Promise<void>((r) => socket.connect(port, '127.0.0.1', r));
  let waiter: ((text: string) => void) | null = null;
  socket.on('message', (m) => waiter?.(m.toString('latin1')));
  /** Sends `text` until an answer starting with `head` (or one of them) comes; null after `waitMs` without one. */
  const ask = (text: string, head: string | string[], resend = false) =>
    new Promise<string | null>((resolve) => {
      const again = resend ? setInterval(() => socket.send(text), 50) : null;
      const done = (answer: string | null) => {
        clearTimeout(timer);
        if (again) clearInterval(again);
        waiter = null;
        resolve(answer);
      };
      const timer = setTimeout(() => done(null), waitMs);
      waiter = (t) => [head].flat().some((h) => t.startsWith(h)) && done(t);
      socket.send(text);
    });
  return {
    /**
     * Starts a session (Reset: a socket may get the port of one closed before it, and with it that
     * session) and asks for every chunk (requests lost or refused are asked again).
     */
    async fetchWhole(): Promise<boolean> {
      const size = Number(/Size: (\d+)/.exec((await ask('SendSize\nReset\n\n', 'Size: ', true)) ?? '')?.[1]);
      for (let offset = 0; offset < size; offset += 1448) {
        if (!(await ask(`Offset: ${offset}\nNumBytes: 1448\n\n`, `Offset: ${offset}\n`, true))) return false;
      }
      return size > 0;
    },
    /** The Result answered to a Submit, or the ERROR refusing it, or null if none came. */
    submit: (id: string, md5: string) => ask(`Submit: ${id}\nMD5: ${md5}\n\n`, ['Result: ', 'ERROR: ']),
    close: () => socket.close(),
  };
}
