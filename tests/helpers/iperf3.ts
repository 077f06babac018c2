import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

/** A port nothing listens on now, for iperf3's server (which takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** iperf3's server for one test on 127.0.0.1, once it says it listens. */
async function iperf3Server(port: number): Promise<ChildProcess> {
  const server = spawn('iperf3', ['-s', '-1', '--forceflush', '-B', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    server.stdout!.on('data', (d: Buffer) => {
      said += d.toString();
      if (said.includes('Server listening')) resolve();
    });
    server.on('exit', (code) => reject(new Error(`iperf3 -s ended (${code}) before listening: ${said}`)));
  });
  return server;
}

/** A real TCP transfer of this machine's kernel over loopback, as `iperf3 -c … -J` reports it; `args` add to the client's. */
export async function iperf3Json(args: string[]): Promise<string> {
  const port = await freePort();
  const server = await iperf3Server(port);
  try {
    const { stdout } = await promisify(execFile)('iperf3', ['-c', '127.0.0.1', '-p', String(port), '-J', ...args], { encoding: 'utf8', timeout: 30_000 });
    return stdout;
  } finally {
    server.kill();
  }
}
