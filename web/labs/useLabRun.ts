import { useEffect, useRef, useState } from 'react';
import type { ScenarioSpec } from '../../shared/scenarios/spec.ts';
import { withPageCode } from '../editor/userCode.ts';
import type { RunView } from '../worker/protocol.ts';
import { WorkerPool } from '../worker/pool.ts';
import { putWholeDots } from '../app/wholeDots.ts';

/** Where a lab's run is: none asked, under way, drawn, or failed (its message). */
export type LabRunState = 'none' | 'running' | 'drawn' | { error: string };

/**
 * A lab's one run, drawn as the playground draws a side's, and the span its charts are zoomed to. When
 * `key` (what names the run) changes, what was drawn goes, and `spec` runs (null: nothing to run). While
 * zoomed, the run's whole dots come from its worker in place of the coarse copies its view brought, as in
 * the playground.
 */
export function useLabRun(spec: () => ScenarioSpec | null, key: string) {
  const [view, setView] = useState<RunView | null>(null);
  // each by the key of its run: until the effect has run for a new key, the previous run's say nothing
  const [failed, setFailed] = useState<{ key: string; message: string } | null>(null);
  const [asked, setAsked] = useState<string | null>(null);
  const [domain, setDomain] = useState<[number, number] | null>(null);
  const runner = useRef<WorkerPool | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the run is the spec that `key` names.
  useEffect(() => {
    setView(null);
    setDomain(null);
    const s = spec();
    setAsked(s ? key : null);
    if (!s) return;
    runner.current ??= new WorkerPool();
    let current = true;
    void runner.current.run('a', withPageCode(s), setView).then((r) => {
      if (current && r.kind === 'error') setFailed({ key, message: r.message });
    });
    return () => {
      current = false;
    };
  }, [key]);

  useEffect(() => {
    if (domain && view) void putWholeDots(runner.current, 'a', view, setView);
  }, [domain, view]);

  const state: LabRunState = failed?.key === key ? { error: failed.message } : view ? 'drawn' : asked === key ? 'running' : 'none';
  return { view, state, domain, setDomain };
}
