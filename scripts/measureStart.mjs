// How long a start takes to serve: runs `npm start` (or the command given) on free ports, five times, and
// prints when the page was served and when the offset server answered SendSize, from the command's start.
//   node scripts/measureStart.mjs                               # npm start
//   node scripts/measureStart.mjs node build/relay/server/main.js
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { ROOT } from './buildInputs.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const nap = () => new Promise((r) => setTimeout(r, 5));

async function once(command) {
  const [http, udp, variable, echo] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const flags = ['--http-port', http, '--udp-port', udp, '--variable-port', variable, '--echo-port', echo].map(String);
  const t0 = performance.now();
  const child = spawn(command[0], [...command.slice(1), ...(command[0] === 'npm' ? ['--'] : []), ...flags], { cwd: ROOT, stdio: 'ignore', detached: true });
  const page = async () => {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${http}/`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - t0;
      await nap();
    }
  };
  const offset = () =>
    new Promise((resolve) => {
      const s = createSocket('udp4');
      const ask = setInterval(() => s.send('SendSize\n\n', udp, '127.0.0.1'), 5);
      s.on('message', (m) => {
        if (!String(m).startsWith('Size:')) return;
        clearInterval(ask);
        s.close();
        resolve(performance.now() - t0);
      });
    });
  const [p, o] = await Promise.all([page(), offset()]);
  process.kill(-child.pid, 'SIGINT');
  await new Promise((r) => child.on('exit', r));
  return [p, o];
}

const command = process.argv.length > 2 ? process.argv.slice(2) : ['npm', 'start'];
for (let i = 0; i < 5; i++) {
  const [p, o] = await once(command);
  console.log(`page served after ${p.toFixed(0)} ms, offset server answered after ${o.toFixed(0)} ms`);
}
