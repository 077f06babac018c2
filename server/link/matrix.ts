import { writeFileSync } from 'node:fs';
import { grade } from '../../shared/metrics/grade.ts';
import { generateFile } from '../../shared/offset/file.ts';
import type { LinkModel } from '../../shared/link/spec.ts';
import { FILE_SIZES, MATRIX, matrixRun, type MatrixRow } from '../../shared/scenarios/presets.ts';
import { loadTrace } from '../traces.ts';
import { EmulatedLink } from './emulatedLink.ts';
import { freeUdpPort, Program, waitForBind } from './programs.ts';

/** The course harness's per-row timeouts (30 s; 60 s for the last advanced row), as the matrix declares them. */
export const rowTimeoutMs = (index: number) => MATRIX[index].timeoutMs;

/** How long the receiver may take to flush what it has after the sender exits, before it is stopped. */
const SETTLE_MS = 1000;
const QUIET_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Programs {
  /** Started as `SEND 127.0.0.1:PORT`, the file on its stdin. */
  send: string;
  /** Started as `RECV PORT`; what it writes to stdout is what it received. */
  recv: string;
}

export interface RowOptions {
  seed: number;
  /** The link the row runs on. */
  model: LinkModel;
  /** Overrides the course's timeout for this row, ms. */
  timeoutMs: number | null;
  /** Where to write the row's trace CSV. */
  csvPath: string | null;
}

export interface RowResult {
  /** 1-based, as the lab numbers the rows. */
  row: number;
  group: MatrixRow['group'];
  name: string;
  pass: boolean;
  /** From starting the sender to its exit. */
  seconds: number;
  /** Everything the sender put on the link, with 28 bytes of IPv4 and UDP header per datagram. */
  bytesOnWire: number;
  datagrams: number;
  grade: string;
  note: string;
}

/** Why the received bytes are not the file: the first difference, or the lengths. */
function mismatch(got: Buffer, file: Uint8Array, written: number): string {
  if (written !== file.length) return `received ${written} of ${file.length} bytes`;
  const at = got.findIndex((b, i) => b !== file[i]);
  return `received ${file.length} bytes, differing from byte ${at}`;
}

/**
 * Why a row that timed out failed. When every byte had arrived, what did not end was the sender: say so,
 * with when the file was whole and whether the receiver had exited, rather than a difference at no byte.
 */
function timeoutNote(limitMs: number, recv: Program, file: Uint8Array, got: Buffer, startedAt: number, receiverRan: boolean): string {
  const limit = `timed out after ${limitMs / 1000} s`;
  if (recv.written !== file.length || !got.equals(file)) return `${limit}; ${mismatch(got, file, recv.written)}`;
  const whole = ((recv.lastOutputAt - startedAt) / 1000).toFixed(1);
  const receiver = receiverRan ? 'the receiver had not exited' : 'the receiver had exited';
  return `${limit}: the receiver had the whole file, exactly, by ${whole} s (${receiver}), but the sender did not finish`;
}

/** After the sender exits: lets the receiver finish writing (or exit), then stops it. */
async function settleReceiver(recv: Program, fileBytes: number): Promise<void> {
  const start = performance.now();
  while (recv.running && performance.now() - start < SETTLE_MS) {
    if (recv.written >= fileBytes && performance.now() - recv.lastOutputAt >= QUIET_MS) break;
    await sleep(10);
  }
  await recv.stop();
}

/** Runs one matrix row: the receiver, the emulated link before it, then the sender; checks the bytes. */
export async function runRow(index: number, programs: Programs, options: RowOptions): Promise<RowResult> {
  const row = MATRIX[index];
  const file = generateFile(FILE_SIZES[row.size], options.seed + index);
  const base = { row: index + 1, group: row.group, name: row.name, pass: false, seconds: NaN, bytesOnWire: 0, datagrams: 0, grade: '' };
  const port = await freeUdpPort();
  const recv = new Program(`${programs.recv} ${port}`, file.length + 1);
  if (!(await waitForBind(port, recv))) {
    await recv.stop();
    return { ...base, note: `the receiver did not bind UDP port ${port}${recv.stderrTail ? `: ${recv.stderrTail.trim()}` : ''}` };
  }
  const link = await EmulatedLink.open({
    link: matrixRun(row, 'reno', {}, 1, options.model).link,
    seed: options.seed,
    traces: loadTrace,
    listen: { host: '127.0.0.1', port: 0 },
    to: { host: '127.0.0.1', port },
    logRows: options.csvPath ? 5_000_000 : 0,
    maxHeldBytes: 64 << 20,
  });
  const started = performance.now();
  const startedModel = link.driver.now;
  const send = new Program(`${programs.send} 127.0.0.1:${link.port}`, 0, file);
  const limitMs = options.timeoutMs ?? rowTimeoutMs(index);
  const finished = await send.waitExit(limitMs);
  const seconds = (performance.now() - started) / 1000;
  const receiverRan = recv.running;
  if (finished) link.markDone(startedModel);
  // Stopped even when it finished: a sender that exited may have left something running in its group.
  await send.stop();
  await settleReceiver(recv, file.length);
  link.close();
  if (options.csvPath) writeFileSync(options.csvPath, link.csv(file.length));
  const got = recv.output;
  const exact = finished && recv.written === file.length && got.equals(file);
  const wire = { bytesOnWire: link.forward.bytes, datagrams: link.forward.datagrams };
  if (!finished) return { ...base, ...wire, note: timeoutNote(limitMs, recv, file, got, started, receiverRan) };
  const g = grade({ bytes: file.length, seconds, bandwidth: row.bw * 1e6, latencyMs: row.latency, dropPercent: row.drop });
  const exitNote = send.exitCode === 0 ? '' : `sender exited with ${send.exitSignal ?? `code ${send.exitCode}`}${send.stderrTail ? `: ${send.stderrTail.trim().split('\n').at(-1)}` : ''}`;
  return {
    ...base,
    ...wire,
    pass: exact,
    seconds,
    grade: exact ? g.label : '',
    note: [exact ? '' : mismatch(got, file, recv.written), exitNote].filter(Boolean).join('; '),
  };
}
