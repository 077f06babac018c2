import { describe, expect, it } from 'vitest';
import { formatTraceCsv } from '../../shared/csv/trace.ts';
import { EventLog } from '../../shared/log/eventLog.ts';
import { K } from '../../shared/log/kinds.ts';
import { summarize } from '../../shared/metrics/summary.ts';
import { flow, MATRIX, matrixRun, offsetServer } from '../../shared/scenarios/presets.ts';
import { runScenario } from '../../shared/scenarios/run.ts';
import { importRun } from '../../web/worker/replay.ts';

/** An offset fetch of two 1000-byte chunks that ends with the server's verdict. */
function fetchLog(result: 0 | 1): EventLog {
  const log = new EventLog();
  log.push(0, K.send, 0, 0, 0, 1, 1);
  log.push(0, K.send, 0, 1, 0, 2, 1);
  log.push(10, K.reply, 0, 0, 1000, 10, 1);
  log.push(14, K.reply, 0, 1000, 1000, 14, 1);
  log.push(20, K.done, 0, result, 0, 3150, 250);
  return log;
}

describe('importing a saved offset run', () => {
  const spec = offsetServer(false, [flow('token-pacer', {}, 0, 2000)]);
  it.each([
    [1, true],
    [0, false],
  ] as const)('reads the server’s verdict %s back as Result %s, with its Time and Penalty', async (verdict, result) => {
    const run = await importRun(formatTraceCsv(fetchLog(verdict), spec), () => Promise.resolve(null));
    expect(run.endMs).toBe(20);
    expect(run.summary.flows[0].offset).toMatchObject({ result, timeMs: 3150, penalty: 250, requests: 2 });
  });

  it('refuses a file with a header and no events, saying so', async () => {
    const header = formatTraceCsv(new EventLog(), spec);
    await expect(importRun(header, () => Promise.resolve(null))).rejects.toThrow('the file has no events: nothing follows its header');
  });

  it('a fetch still under way has no bound yet: the furthest chunk so far is not the file’s end', async () => {
    const log = fetchLog(1);
    const partial = new EventLog();
    for (let i = 0; i < log.length - 1; i++)
      partial.push(log.columns.t[i], log.columns.kind[i], log.columns.flow[i], log.columns.seq[i], log.columns.bytes[i], log.columns.value[i], log.columns.window[i]);
    const under = (await importRun(formatTraceCsv(partial, spec), () => Promise.resolve(null))).summary.flows[0].offset!;
    expect([under.result, under.boundMs, under.requests]).toEqual([null, Number.NaN, 2]);
    const done = (await importRun(formatTraceCsv(log, spec), () => Promise.resolve(null))).summary.flows[0].offset!;
    expect(done.boundMs).toBe((2 / 250) * 1000);
  });
});

describe('importing a saved reliable transfer', () => {
  it('gives back the simulated run’s figures: retransmissions, bytes on the wire, overhead and time', async () => {
    const lossiest = MATRIX.filter((r) => r.drop < 50).reduce((a, b) => (b.drop > a.drop ? b : a));
    const spec = matrixRun(lossiest, 'reno', {}, 7);
    const run = runScenario(spec, () => {
      throw new Error('no trace on a matrix row');
    });
    const simulated = summarize(run).flows[0].reliable!;
    expect(simulated.retransmissions).toBeGreaterThan(0);
    const imported = (await importRun(formatTraceCsv(run.log, spec), () => Promise.resolve(null))).summary.flows[0].reliable!;
    expect(imported.retransmissions).toBe(simulated.retransmissions);
    expect(imported.overhead).toBe(simulated.overhead);
    expect(imported.seconds).toBe(simulated.seconds);
  });
});
