import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { UdpProbe } from '../helpers/udp.ts';

describe('the tests’ UDP client', () => {
  it('reads the answer it asks for past a late reply to an earlier request', async () => {
    const server = createSocket('udp4');
    server.on('message', (_m, from) => {
      // a data reply that arrives late, after the client moved on, then the Submit's answer
      server.send('Offset: 0\nNumBytes: 3\n\nabc', from.port, from.address);
      server.send('Result: true\nTime: 5\nPenalty: 0\n\n', from.port, from.address);
    });
    await new Promise<void>((r) => server.bind(0, '127.0.0.1', r));
    const p = await UdpProbe.open(server.address().port);
    p.send('Submit: a@b\nMD5: x\n\n');
    expect(await p.answer(/^Result: /)).toBe('Result: true\nTime: 5\nPenalty: 0\n\n');
    expect(await p.answer(/^Result: /, 50)).toBeNull();
    p.close();
    server.close();
  });
});
