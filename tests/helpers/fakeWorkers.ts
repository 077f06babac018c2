import type { WorkerRequest, WorkerResponse } from '../../web/worker/protocol.ts';
import type { WorkerLike } from '../../web/worker/sandboxHost.ts';

/** Workers that record what the page posts them, and let the test answer as them. */
export function fakeWorkers() {
  const made: { posted: WorkerRequest[]; onmessage: ((e: { data: WorkerResponse }) => void) | null }[] = [];
  const spawn = () => {
    const w = {
      posted: [] as WorkerRequest[],
      onmessage: null as ((e: { data: WorkerResponse }) => void) | null,
      onerror: null,
      postMessage(m: WorkerRequest) {
        w.posted.push(m);
      },
      terminate() {},
    };
    made.push(w);
    return w as unknown as WorkerLike;
  };
  return { made, spawn };
}
