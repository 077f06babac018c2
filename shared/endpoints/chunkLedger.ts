import { MAX_CHUNK } from '../offset/protocol.ts';

/**
 * What a fetch knows of the file: which chunks arrived, which requests are awaited and when each was
 * sent. Both fetchers keep their books here.
 */
export class ChunkLedger {
  readonly chunks: number;
  readonly data: Uint8Array;
  private readonly have: Uint8Array;
  private readonly outstanding: Uint8Array;
  private readonly sentAt: Float64Array;
  received = 0;
  inFlight = 0;
  private cursor = 0;

  constructor(readonly size: number) {
    this.chunks = Math.ceil(size / MAX_CHUNK);
    this.data = new Uint8Array(size);
    this.have = new Uint8Array(this.chunks);
    this.outstanding = new Uint8Array(this.chunks);
    this.sentAt = new Float64Array(this.chunks);
  }

  get complete(): boolean {
    return this.received === this.chunks;
  }

  /** The next chunk neither received nor awaited, round-robin from the last one asked, or -1. */
  nextMissing(): number {
    for (let k = 0; k < this.chunks; k++) {
      const c = (this.cursor + k) % this.chunks;
      if (!this.have[c] && !this.outstanding[c]) {
        this.cursor = (c + 1) % this.chunks;
        return c;
      }
    }
    return -1;
  }

  requested(chunk: number, now: number): void {
    this.outstanding[chunk] = 1;
    this.inFlight++;
    this.sentAt[chunk] = now;
  }

  sentTime(chunk: number): number {
    return this.sentAt[chunk];
  }

  awaited(chunk: number): boolean {
    return this.outstanding[chunk] === 1;
  }

  /** Stops awaiting a request (answered, or given up as lost); false if it was not awaited. */
  release(chunk: number): boolean {
    if (!this.outstanding[chunk]) return false;
    this.outstanding[chunk] = 0;
    this.inFlight--;
    return true;
  }

  /** Stores a reply's bytes; false for a chunk already in (a duplicate). */
  store(chunk: number, body: Uint8Array): boolean {
    if (this.have[chunk]) return false;
    this.have[chunk] = 1;
    this.data.set(body, chunk * MAX_CHUNK);
    this.received++;
    return true;
  }
}
