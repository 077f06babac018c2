import { useCallback, useState } from 'react';
import type { ParamValues } from '../../../shared/controllers/types.ts';
import { MEASUREMENT_LAB } from '../../state/labs.ts';
import { useInitialState, useUrlState } from '../../components/useViewUrl.ts';
import { drawLink, type LinkTruth, openingLink, sealLink } from './hiddenLink.ts';

const valuesOf = (truth: LinkTruth, jitter: number): ParamValues => ({ bw: truth.mbps, delay: truth.delayMs, jitter });

/**
 * The link the lab measures, by its URL fields' names (bw, delay, jitter), whether its truth is hidden,
 * and the URL errors to tell. Hidden, the URL carries the truth sealed (a drawn link seals exactly, so the
 * page measures what its link reopens).
 */
export function useLabLink() {
  const initial = useInitialState(MEASUREMENT_LAB);
  const [opening] = useState(() => openingLink(initial.value, new URLSearchParams(window.location.search), Math.random));
  const [values, setValues] = useState(() => valuesOf(opening.truth, initial.value.jitter as number));
  const [hidden, setHidden] = useState(initial.value.hide === '1');
  const truth: LinkTruth = { mbps: values.bw as number, delayMs: values.delay as number };
  const jitterMs = values.jitter as number;
  const setParam = useCallback((name: string, v: number | string) => setValues((x) => ({ ...x, [name]: v })), []);
  // The link on screen has been seen: hiding it would leave nothing to estimate, so hiding draws one unseen.
  const hide = (on: boolean) => {
    if (on) setValues(valuesOf(drawLink(Math.random), jitterMs));
    setHidden(on);
  };
  const drawAnother = () => setValues(valuesOf(drawLink(Math.random), jitterMs));
  useUrlState('measurement', MEASUREMENT_LAB, hidden ? { jitter: jitterMs, hide: '1', secret: sealLink(truth) } : { ...values, hide: '0' });
  const problems = { errors: opening.error ? [...initial.errors, opening.error] : initial.errors, ignored: initial.ignored };
  return { values, truth, jitterMs, hidden, setParam, hide, drawAnother, problems };
}
