import { csvFormatRows } from 'd3-dsv';
import type { EventLog } from '../log/eventLog.ts';
import { K } from '../log/kinds.ts';
import { CSV_VERSION } from './trace.ts';

/**
 * The per-interval summary: for each interval and flow, throughput through the bottleneck, mean
 * queueing delay, the last window, mean RTT, and the drops and timeouts counted.
 */
export function formatIntervalCsv(log: EventLog, intervalMs: number, endMs: number): string {
  const bins = Math.max(1, Math.ceil(endMs / intervalMs));
  let flows = 0;
  const c = log.columns;
  for (let i = 0; i < log.length; i++) flows = Math.max(flows, c.flow[i] + 1);
  const cells = bins * flows;
  const bits = new Float64Array(cells);
  const qSum = new Float64Array(cells);
  const qN = new Float64Array(cells);
  const rttSum = new Float64Array(cells);
  const rttN = new Float64Array(cells);
  const window = new Float64Array(cells).fill(NaN);
  const drops = new Float64Array(cells);
  const timeouts = new Float64Array(cells);
  for (let i = 0; i < log.length; i++) {
    const cell = Math.min(bins - 1, Math.floor(c.t[i] / intervalMs)) * flows + c.flow[i];
    switch (c.kind[i]) {
      case K.depart:
        bits[cell] += c.bytes[i] * 8;
        qSum[cell] += c.value[i];
        qN[cell]++;
        break;
      case K.ack:
      case K.reply:
        rttSum[cell] += c.value[i];
        rttN[cell]++;
        window[cell] = c.window[i];
        break;
      case K.drop:
        drops[cell]++;
        break;
      case K.timeout:
        timeouts[cell]++;
        window[cell] = c.window[i];
        break;
    }
  }
  const round = (v: number) => (Number.isFinite(v) ? String(Math.round(v * 1000) / 1000) : '');
  const rows = [['t_ms', 'flow', 'throughput_mbps', 'queue_delay_ms', 'rtt_ms', 'window', 'drops', 'timeouts']];
  for (let b = 0; b < bins; b++) {
    for (let f = 0; f < flows; f++) {
      const k = b * flows + f;
      rows.push([String(b * intervalMs), String(f), round(bits[k] / intervalMs / 1000), round(qSum[k] / qN[k]), round(rttSum[k] / rttN[k]), round(window[k]), String(drops[k]), String(timeouts[k])]);
    }
  }
  return `# ${CSV_VERSION} intervals ${intervalMs} ms\n${csvFormatRows(rows)}\n`;
}
