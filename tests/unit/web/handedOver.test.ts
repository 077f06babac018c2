import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { workersHandedOver } from '../../../web/worker/sandboxHost.ts';

describe('the page’s wait for its workers to reach the sandbox frame before it renders', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('ends as the last worker is handed over, or at its limit when one is not', async () => {
    let handOver = () => {};
    const pending = [Promise.resolve(), new Promise<void>((r) => (handOver = r))];
    let done = false;
    void workersHandedOver(100, pending).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(40);
    expect(done).toBe(false);
    handOver();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);

    let late = false;
    void workersHandedOver(100, [new Promise(() => {})]).then(() => (late = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(late).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(late).toBe(true);
  });
});
