import { afterEach, describe, expect, it, vi } from 'vitest';
import { okText, POLL_MS, type Polled, startPolling } from '../../../web/sessions/usePoll.ts';

afterEach(() => vi.useRealTimers());

/** A relay answering each request with the next of `answers` (the last one again once they run out). */
function relay(answers: [number, string][]) {
  const asked: string[] = [];
  const get = (async (url: string) => {
    asked.push(url);
    const [status, body] = answers[Math.min(asked.length, answers.length) - 1];
    return new Response(body, { status });
  }) as typeof fetch;
  return { asked, get };
}

describe('polling the relay', () => {
  it('asks again every POLL_MS, one request at a time, telling each answer', async () => {
    vi.useFakeTimers();
    const { asked, get } = relay([
      [200, 'one'],
      [500, 'the relay is busy'],
      [200, 'three'],
    ]);
    const told: Polled<string>[] = [];
    const stop = startPolling('/api/sessions', okText, (p) => told.push(p), get);
    await vi.advanceTimersByTimeAsync(2 * POLL_MS);
    expect(asked).toHaveLength(3);
    expect(told).toEqual([
      { state: 'ok', value: 'one' },
      { state: 'failed', message: 'the relay is busy' },
      { state: 'ok', value: 'three' },
    ]);
    stop();
    await vi.advanceTimersByTimeAsync(5 * POLL_MS);
    expect(asked).toHaveLength(3);
  });

  it('stops at a refusal, which asking again does not change, and says it', async () => {
    vi.useFakeTimers();
    const { asked, get } = relay([[403, 'these records are the operator’s: open the page with the operator token']]);
    const told: Polled<string>[] = [];
    startPolling('/api/echo', okText, (p) => told.push(p), get);
    await vi.advanceTimersByTimeAsync(10 * POLL_MS);
    expect(asked).toEqual(['/api/echo']);
    expect(told).toEqual([{ state: 'failed', message: 'these records are the operator’s: open the page with the operator token' }]);
  });
});
