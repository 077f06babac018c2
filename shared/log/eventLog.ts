import { K } from './kinds.ts';

/**
 * The run's event log: one row per event in column-wise typed arrays (26 bytes a row), so a 140-second
 * contest run of half a million events stays compact and crosses from a worker to the page as
 * transferable buffers.
 */
export interface EventColumns {
  t: Float64Array;
  kind: Uint8Array;
  flow: Uint8Array;
  seq: Int32Array;
  bytes: Int32Array;
  value: Float32Array;
  window: Float32Array;
}

export const BYTES_PER_EVENT = 8 + 1 + 1 + 4 + 4 + 4 + 4;

/** The largest columns kept for the next log (rows): a contest run's 280k rows are 7 MB; an hour's run is not kept. */
const MAX_SPARE_ROWS = 1 << 21;

/**
 * Columns a finished log gave back, lent to the next log they fit: runs one after another (the contest's
 * grader, a sweep, a slider's drag) reuse one set instead of zeroing megabytes each and leaving them
 * to the collector.
 */
let spare: EventColumns | null = null;

/**
 * Where a log that keeps no rows sends them as they come: a run of which only figures are wanted tallies
 * them instead of storing 26 bytes a row. Only what the figures read is passed.
 */
export interface RowStream {
  row(t: number, kind: number, flow: number, bytes: number, value: number): void;
}

export class EventLog {
  length = 0;
  /** Set when the log keeps no rows: each goes to it instead (see `streaming`). */
  readonly stream: RowStream | null = null;
  private capacity = 0;
  // The columns as fields of their own: a push stores into each without going through a second object.
  private t!: Float64Array;
  private kind!: Uint8Array;
  private flow!: Uint8Array;
  private seq!: Int32Array;
  private bytes!: Int32Array;
  private value!: Float32Array;
  private window!: Float32Array;
  /** Rows of each kind, counted as they come: cheaper than a pass over the log whenever asked. */
  private readonly kinds = new Int32Array(256);

  constructor(capacity = 4096, stream: RowStream | null = null) {
    this.use(allocate(capacity));
    this.stream = stream;
  }

  /** A log that counts its rows, by kind too, and hands each to `stream` instead of keeping it. */
  static streaming(stream: RowStream): EventLog {
    return new EventLog(0, stream);
  }

  /** A log with room for `capacity` rows, in the columns the last log gave back when they are large enough. */
  static lend(capacity: number): EventLog {
    const log = new EventLog(0);
    const fits = spare !== null && spare.t.length >= capacity;
    log.use(fits ? spare! : allocate(capacity));
    if (fits) spare = null;
    return log;
  }

  /**
   * Gives the columns back for the next log and empties this one: call it once nothing reads the rows
   * any more (a view of the columns taken before then sees the next run's rows).
   */
  giveBack(): void {
    const c = this.cols;
    if (c.t.length > 0 && c.t.length <= MAX_SPARE_ROWS && (spare === null || spare.t.length < c.t.length)) spare = c;
    this.use(allocate(0));
    this.length = 0;
    this.kinds.fill(0);
  }

  static from(columns: EventColumns, length: number): EventLog {
    const log = new EventLog(0);
    log.use(columns);
    log.length = length;
    for (let i = 0; i < length; i++) log.kinds[columns.kind[i]]++;
    return log;
  }

  push(t: number, kind: number, flow: number, seq: number, bytes: number, value: number, window: number): void {
    this.kinds[kind]++;
    if (this.stream === null) return this.store(t, kind, flow, seq, bytes, value, window);
    this.length++;
    // as a value column stores it, so that a streamed run's figures are a stored one's to the bit
    this.stream.row(t, kind, flow, bytes, Math.fround(value));
  }

  // apart from push, which every event calls: a small push is inlined where it is called
  private store(t: number, kind: number, flow: number, seq: number, bytes: number, value: number, window: number): void {
    const i = this.length++;
    if (i === this.capacity) this.grow();
    this.t[i] = t;
    this.kind[i] = kind;
    this.flow[i] = flow;
    this.seq[i] = seq;
    this.bytes[i] = bytes;
    this.value[i] = value;
    this.window[i] = window;
  }

  /** Trimmed views of the columns (copies nothing). */
  get columns(): EventColumns {
    if (this.stream !== null) throw new Error('this run kept no rows: only its figures were wanted');
    const n = this.length;
    const c = this.cols;
    return {
      t: c.t.subarray(0, n),
      kind: c.kind.subarray(0, n),
      flow: c.flow.subarray(0, n),
      seq: c.seq.subarray(0, n),
      bytes: c.bytes.subarray(0, n),
      value: c.value.subarray(0, n),
      window: c.window.subarray(0, n),
    };
  }

  /** Bytes the stored rows occupy (not counting spare capacity). */
  get byteLength(): number {
    return this.length * BYTES_PER_EVENT;
  }

  /** Bytes allocated, spare capacity included. */
  get allocatedBytes(): number {
    return this.capacity * BYTES_PER_EVENT;
  }

  /** Copies the rows into exactly-sized columns, for handing over as transferable buffers. */
  compact(): EventColumns {
    const v = this.columns;
    return {
      t: v.t.slice(),
      kind: v.kind.slice(),
      flow: v.flow.slice(),
      seq: v.seq.slice(),
      bytes: v.bytes.slice(),
      value: v.value.slice(),
      window: v.window.slice(),
    };
  }

  count(kind: number): number {
    return this.kindCounts()[kind];
  }

  /** Rows of each kind, indexed by kind code (the log's own tally: read it, do not change it). */
  kindCounts(): Int32Array {
    return this.kinds;
  }

  private grow(): void {
    const next = allocate(Math.max(1024, this.capacity * 2));
    const c = this.cols;
    next.t.set(c.t);
    next.kind.set(c.kind);
    next.flow.set(c.flow);
    next.seq.set(c.seq);
    next.bytes.set(c.bytes);
    next.value.set(c.value);
    next.window.set(c.window);
    this.use(next);
  }

  private get cols(): EventColumns {
    return { t: this.t, kind: this.kind, flow: this.flow, seq: this.seq, bytes: this.bytes, value: this.value, window: this.window };
  }

  private use(c: EventColumns): void {
    this.t = c.t;
    this.kind = c.kind;
    this.flow = c.flow;
    this.seq = c.seq;
    this.bytes = c.bytes;
    this.value = c.value;
    this.window = c.window;
    this.capacity = c.t.length;
  }
}

function allocate(n: number): EventColumns {
  return {
    t: new Float64Array(n),
    kind: new Uint8Array(n),
    flow: new Uint8Array(n),
    seq: new Int32Array(n),
    bytes: new Int32Array(n),
    value: new Float32Array(n),
    window: new Float32Array(n),
  };
}

/** Convenience for tests and metrics: the indices of rows of one kind. */
export function rowsOf(log: EventLog, kind: number): number[] {
  const out: number[] = [];
  const k = log.columns.kind;
  for (let i = 0; i < k.length; i++) if (k[i] === kind) out.push(i);
  return out;
}

export { K };
