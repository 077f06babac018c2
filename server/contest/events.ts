import type { ServerResponse } from 'node:http';
import type { ContestEvent } from '../../shared/contest/api.ts';

/** Pages watching the contest through server-sent events; one that stops reading is cut off, never buffered without bound. */
const MAX_WATCHERS = 256;
const MAX_BACKLOG = 64 * 1024;

export class ContestEvents {
  private readonly watchers = new Set<ServerResponse>();

  watch(res: ServerResponse): void {
    if (this.watchers.size >= MAX_WATCHERS) {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `${MAX_WATCHERS} pages are watching the contest already` }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': watching the contest\n\n');
    this.watchers.add(res);
    res.on('close', () => this.watchers.delete(res));
  }

  send(event: ContestEvent): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    for (const w of this.watchers) {
      if (w.writableLength > MAX_BACKLOG) w.destroy();
      else w.write(line);
    }
  }

  close(): void {
    for (const w of this.watchers) w.end();
    this.watchers.clear();
  }
}
