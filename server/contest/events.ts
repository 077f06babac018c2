import type { ServerResponse } from 'node:http';
import type { ContestEvent } from '../../shared/contest/api.ts';
import { FeedWatchers } from '../feedWatchers.ts';

/** Pages watching the contest through server-sent events; one that stops reading is cut off, never buffered without bound. */
const MAX_WATCHERS = 256;
const MAX_BACKLOG = 64 * 1024;

export class ContestEvents {
  /** Each page's client address, so that no one address takes every place (--max-feeds-per-client), nor a few all of them. */
  private readonly watchers: FeedWatchers;

  constructor(private readonly maxPerAddress: number) {
    this.watchers = new FeedWatchers(MAX_WATCHERS, maxPerAddress);
  }

  watch(res: ServerResponse, address: string): void {
    const refusal = this.watchers.refusal(address);
    if (refusal) {
      const error = refusal === 'address' ? `${this.maxPerAddress} pages from your address are watching the contest already` : `${MAX_WATCHERS} pages are watching the contest already`;
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': watching the contest\n\n');
    this.watchers.add(res, address);
  }

  send(event: ContestEvent): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const w of this.watchers.pages) {
      if (w.writableLength > MAX_BACKLOG) w.destroy();
      else w.write(line);
    }
  }

  close(): void {
    this.watchers.endAll();
  }
}
