import type { ServerResponse } from 'node:http';
import type { ContestEvent } from '../../shared/contest/api.ts';

/** Pages watching the contest through server-sent events; one that stops reading is cut off, never buffered without bound. */
const MAX_WATCHERS = 256;
const MAX_BACKLOG = 64 * 1024;

export class ContestEvents {
  /** Each page's client address, so that no one address takes every place (--max-feeds-per-client). */
  private readonly watchers = new Map<ServerResponse, string>();

  constructor(private readonly maxPerAddress: number) {}

  watch(res: ServerResponse, address: string): void {
    const fromThere = [...this.watchers.values()].filter((a) => a === address).length;
    if (this.watchers.size >= MAX_WATCHERS || fromThere >= this.maxPerAddress) {
      const error = fromThere >= this.maxPerAddress ? `${this.maxPerAddress} pages from your address are watching the contest already` : `${MAX_WATCHERS} pages are watching the contest already`;
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': watching the contest\n\n');
    this.watchers.set(res, address);
    res.on('close', () => this.watchers.delete(res));
  }

  send(event: ContestEvent): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const w of this.watchers.keys()) {
      if (w.writableLength > MAX_BACKLOG) w.destroy();
      else w.write(line);
    }
  }

  close(): void {
    for (const w of this.watchers.keys()) w.end();
    this.watchers.clear();
  }
}
