import { percent } from '../link/netemParams.ts';
import { checkValues, choice, num, type ParamSpec } from '../controllers/types.ts';
import { DEFAULT_POLICY, type OffsetPolicyConfig } from './policy.ts';

/**
 * The offset server's policy as parameter schemas: the relay's flags and the playground's controls for
 * the simulated server are generated from these. Loss is a percentage here, a fraction in the config.
 */
export const OFFSET_PARAMS: readonly ParamSpec[] = [
  num('rate', 'tokens/s', 1, 100_000, 1, DEFAULT_POLICY.rate, 'Token rate'),
  num('bucket', 'tokens', 1, 100_000, 1, DEFAULT_POLICY.bucket, 'Bucket size'),
  num('loss', '%', 0, 100, 0.1, DEFAULT_POLICY.loss * 100, 'Requests that found a token but are dropped'),
  num('squishedRate', 'tokens/s', 1, 100_000, 1, DEFAULT_POLICY.squishedRate, 'Token rate while squished'),
  num('squishThreshold', 'requests', 1, 1_000_000, 1, DEFAULT_POLICY.squishThreshold, 'Token-less requests before a squish'),
  num('squishLength', 'requests', 1, 1_000_000, 1, DEFAULT_POLICY.squishLength, 'Requests that find a token while squished'),
  num('initialRate', 'tokens/s', 1, 100_000, 1, DEFAULT_POLICY.initialRate, 'Variable mode: rate of the first phase'),
  num('firstMs', 'ms', 0, 600_000, 100, DEFAULT_POLICY.firstMs, 'Variable mode: length of the first phase'),
  num('periodMs', 'ms', 1, 600_000, 100, DEFAULT_POLICY.periodMs, 'Variable mode: length of each later phase'),
  num('lowRate', 'tokens/s', 1, 100_000, 1, DEFAULT_POLICY.rates[0], 'Variable mode: the slow phase'),
  num('highRate', 'tokens/s', 1, 100_000, 1, DEFAULT_POLICY.rates[1], 'Variable mode: the fast phase'),
  choice('variableModel', ['course', 'schedule'], DEFAULT_POLICY.variableModel, 'Variable mode: lazy phase flips as the course server does them, or the exact schedule'),
  choice('bucketModel', ['course', 'ideal'], 'course', 'Whole-token refill as the course server does it, or a continuous bucket'),
];

export function policyValues(c: OffsetPolicyConfig): Record<string, number | string> {
  return {
    rate: c.rate,
    bucket: c.bucket,
    loss: percent(c.loss),
    squishedRate: c.squishedRate,
    squishThreshold: c.squishThreshold,
    squishLength: c.squishLength,
    initialRate: c.initialRate,
    firstMs: c.firstMs,
    periodMs: c.periodMs,
    lowRate: c.rates[0],
    highRate: c.rates[1],
    variableModel: c.variableModel,
    bucketModel: c.idealBucket ? 'ideal' : 'course',
  };
}

export function withPolicyValues(c: OffsetPolicyConfig, values: Record<string, number | string>): OffsetPolicyConfig {
  const v = { ...policyValues(c), ...values };
  return {
    ...c,
    rate: Number(v.rate),
    bucket: Number(v.bucket),
    loss: Number(v.loss) / 100,
    squishedRate: Number(v.squishedRate),
    squishThreshold: Number(v.squishThreshold),
    squishLength: Number(v.squishLength),
    initialRate: Number(v.initialRate),
    firstMs: Number(v.firstMs),
    periodMs: Number(v.periodMs),
    rates: [Number(v.lowRate), Number(v.highRate)],
    variableModel: v.variableModel === 'schedule' ? 'schedule' : 'course',
    idealBucket: v.bucketModel === 'ideal',
  };
}

/** Checks raw values (flags, URL) against the schema. */
export function checkPolicyValues(raw: Record<string, string | number>) {
  return checkValues(OFFSET_PARAMS, raw, 'the offset server');
}
