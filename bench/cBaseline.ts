import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EventLog } from '../shared/log/eventLog.ts';
import type { Summary } from '../shared/metrics/summary.ts';
import { TRACE_DIR } from '../server/traces.ts';

/** What the C program prints of its run, key by key (bench/c/contest.c's `main`). */
export type CFigures = Record<string, number>;

/**
 * Compiles bench/c/contest.c with `gcc -O2` into a temporary directory and runs it on the contest trace:
 * its figures, and its fastest and median time of `runs` runs. With `stream`, the C run keeps no log and
 * feeds each row to the metrics as it happens (no `logDigest` then). The reason, without gcc.
 */
export function runCBaseline(runs: number, stream = false): CFigures | { missing: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pipefill-c-'));
  try {
    const source = fileURLToPath(new URL('c/contest.c', import.meta.url));
    const binary = join(dir, 'contest');
    try {
      execFileSync('gcc', ['-O2', '-o', binary, source, '-lm'], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      return { missing: `gcc -O2 failed: ${(e as Error).message.split('\n')[0]}` };
    }
    const trace = (name: string) => join(TRACE_DIR, name);
    const out = execFileSync(binary, [trace('Verizon-LTE-short.down'), trace('Verizon-LTE-short.up'), String(runs), ...(stream ? ['stream'] : [])], { encoding: 'utf8' });
    return Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((line) => line.split(' '))
        .map(([k, v]) => [k, Number(v)]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** FNV-1a over the log's columns, column after column, as the C program digests its own log. */
export function logDigest(log: EventLog): number {
  let h = 0x811c9dc5;
  for (const column of Object.values(log.columns)) {
    const bytes = new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
  }
  return h;
}

/** The TypeScript run's figures under the C program's keys; its log's digest when it kept one. */
export function tsFigures(summary: Summary, log?: EventLog): CFigures {
  const a = summary.all;
  return {
    events: summary.events,
    endMs: summary.endMs,
    ...(log ? { logDigest: logDigest(log) } : {}),
    packetsDelivered: a.packetsDelivered,
    throughputMbps: a.throughputMbps,
    queueDelayMean: a.queueDelayMean,
    queueDelay95: a.queueDelay95,
    delay95: a.delay95,
    oneWay95: a.oneWay95,
    power: a.power,
    score: a.score,
    drops: a.drops,
    omniscientThroughputMbps: summary.omniscient!.throughputMbps,
    omniscientDelay95: summary.omniscient!.delay95,
  };
}

/**
 * The keys on which the two runs differ, each as `key: ts vs c` (the C prints 17 significant digits; a
 * logarithm may differ in its last bit between libm and V8).
 */
export function disagreements(ts: CFigures, c: CFigures): string[] {
  return Object.entries(ts)
    .filter(([k, v]) => !(k in c) || Math.abs(v - c[k]) > 1e-12 * Math.abs(v))
    .map(([k, v]) => `${k}: ${v} vs ${c[k]}`);
}
