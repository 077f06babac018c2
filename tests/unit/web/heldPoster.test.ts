import { describe, expect, it } from 'vitest';
import { heldUntil } from '../../../web/worker/heldPoster.ts';

describe('what the page posts to a worker while its opening traces are on their way', () => {
  const poster = () => {
    const posted: string[] = [];
    let ready = (_fail?: boolean) => {};
    const sent = new Promise<void>((resolve, reject) => (ready = (fail) => (fail ? reject(new Error('lost')) : resolve())));
    const post = heldUntil(sent, (m, transfer) => posted.push(`${m}:${transfer.length}`));
    return { posted, ready, post, direct: (m: string) => posted.push(`${m}:direct`) };
  };

  it('waits behind the traces, keeps its order and what it transfers, then goes straight', async () => {
    const p = poster();
    const buffer = new ArrayBuffer(8);
    p.post('run 1', [buffer]);
    p.post('run 2');
    // a trace, posted straight into the port as it arrives
    p.direct('trace');
    await Promise.resolve();
    expect(p.posted).toEqual(['trace:direct']);
    p.ready();
    await Promise.resolve();
    expect(p.posted).toEqual(['trace:direct', 'run 1:1', 'run 2:0']);
    p.post('run 3');
    expect(p.posted).toEqual(['trace:direct', 'run 1:1', 'run 2:0', 'run 3:0']);
  });

  it('lets what it holds go when a trace fails to come, so the worker can say so', async () => {
    const p = poster();
    p.post('run 1');
    p.ready(true);
    await new Promise((r) => setTimeout(r));
    expect(p.posted).toEqual(['run 1:0']);
  });
});
