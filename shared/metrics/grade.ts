/** The reliable-transport test matrix's performance grade. */
export interface GradeInput {
  bytes: number;
  seconds: number;
  /** Link bandwidth, bit/s. */
  bandwidth: number;
  latencyMs: number;
  /** Drop rate, percent. */
  dropPercent: number;
}

export interface Grade {
  /** Goodput, bit/s. */
  goodput: number;
  rMin: number;
  rTarget: number;
  /** "FAIL", "OKAY" or "PERFnn". */
  label: string;
}

export function grade({ bytes, seconds, bandwidth, latencyMs, dropPercent }: GradeInput): Grade {
  const goodput = (8 * bytes) / seconds;
  const rTarget = bandwidth / 2;
  const rMin = Math.min((2_100_000 * (1 + dropPercent / 100)) / latencyMs, bandwidth / 2);
  let label: string;
  if (goodput < rMin) label = 'FAIL';
  else if (goodput > rTarget || rTarget === rMin) label = 'OKAY';
  else label = `PERF${Math.floor((100 * (goodput - rMin)) / (rTarget - rMin))}`;
  return { goodput, rMin, rTarget, label };
}
