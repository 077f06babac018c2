import { describe, expect, it } from 'vitest';
import { Program, stopAll } from '../../server/link/programs.ts';

// A file of its own: once stopAll is called, every program this module starts is stopped.
describe('an interrupted testall run', () => {
  it('stops its programs, and kills one its next row starts meanwhile as it starts', async () => {
    // Ten seconds bound each program's life should the stop miss it.
    const running = new Program('sleep 10', 0);
    await stopAll();
    expect(await running.waitExit(1000)).toBe(true);
    const late = new Program('trap "" TERM; sleep 10', 0);
    expect(await late.waitExit(1000)).toBe(true);
    expect(late.exitSignal).toBe('SIGKILL');
  });
});
