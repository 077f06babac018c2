import { useMemo } from 'react';
import { findScheme } from '../../shared/controllers/registry.ts';
import { DATA_BYTES } from '../../shared/net/packet.ts';
import { OPPORTUNITY_BYTES } from '../../shared/trace/mahimahi.ts';
import { schemeOfView, schemeTitle } from '../app/freshness.ts';
import type { RunView } from '../worker/protocol.ts';
import { factsOf, type RunFacts } from './captions.ts';
import { pageSchemes } from '../editor/userCode.ts';

/** The facts the captions and the pipe line need of a shown run, worked out once per run. */
export function useFacts(view: RunView | undefined): RunFacts | null {
  return useMemo(() => {
    if (!view) return null;
    const spec = view.spec && 'flows' in view.spec ? view.spec : null;
    const minRttMs = spec ? 2 * spec.link.delayMs : null;
    const packetBytes = spec?.link.kind === 'trace' ? OPPORTUNITY_BYTES : DATA_BYTES;
    // A contest on a constant-rate link knows its capacity; the offset server's rate is its tokens, not the link's.
    const linkMbps = spec?.workload === 'contest' && spec.link.kind === 'rate' ? spec.link.mbps : null;
    const scheme = schemeOfView(view) ?? '?';
    return { ...factsOf(view, schemeTitle(scheme), minRttMs, packetBytes, linkMbps), link: spec?.link ?? null, timer: findScheme(scheme, pageSchemes())?.timer };
  }, [view]);
}
