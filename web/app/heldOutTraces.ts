import { useEffect, useState } from 'react';
import { tracesWithheld } from '../../shared/scenarios/presets.ts';
import { fetchRelayInfo } from './useRelay.ts';

/** The bundled traces the page's relay holds out, as it said them: none until it answers, or without a relay. */
let known: readonly string[] = [];
let answer: Promise<readonly string[]> | null = null;

/** Asks the relay once which bundled traces its class contest holds out; every later ask shares the answer. */
export function heldOutTracesAnswer(): Promise<readonly string[]> {
  answer ??= fetchRelayInfo().then((info) => (known = tracesWithheld(info?.heldOutFiles ?? [])));
  return answer;
}

/** The held-out traces known now (the URL's codec reads them as the page opens, after the boot asked). */
export const heldOutTraces = (): readonly string[] => known;

/** The held-out traces, the component drawn again once the relay said them. */
export function useHeldOutTraces(): readonly string[] {
  const [names, setNames] = useState(known);
  useEffect(() => {
    void heldOutTracesAnswer().then(setNames);
  }, []);
  return names;
}
