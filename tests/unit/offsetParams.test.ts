import { describe, expect, it } from 'vitest';
import { checkPolicyValues, policyValues, withPolicyValues } from '../../shared/offset/params.ts';
import { DEFAULT_POLICY } from '../../shared/offset/policy.ts';

describe('the offset server’s policy as parameters', () => {
  it('reads the course server’s policy as the schema’s values, loss as a percentage', () => {
    expect(policyValues(DEFAULT_POLICY)).toEqual({
      rate: 250,
      bucket: 10,
      loss: 11,
      squishedRate: 62,
      squishThreshold: 100,
      squishLength: 100,
      initialRate: 250,
      firstMs: 2000,
      periodMs: 2000,
      lowRate: 125,
      highRate: 1000,
      variableModel: 'course',
      bucketModel: 'course',
    });
  });

  it('writes values back into a policy, leaving the rest as they were', () => {
    const variable = { ...DEFAULT_POLICY, variable: true };
    expect(withPolicyValues(variable, {})).toEqual(variable);
    expect(withPolicyValues(variable, { loss: 5, highRate: 2000, variableModel: 'schedule', bucketModel: 'ideal', rate: 300 })).toEqual({
      ...variable,
      rate: 300,
      loss: 0.05,
      rates: [125, 2000],
      variableModel: 'schedule',
      idealBucket: true,
    });
  });

  it('checks raw values against the schema, by name and bound', () => {
    expect(checkPolicyValues({ rate: '300', loss: '2.5', bucketModel: 'ideal' })).toEqual({ values: { rate: 300, loss: 2.5, bucketModel: 'ideal' } });
    expect(checkPolicyValues({ rate: '0' })).toEqual({ error: 'rate must be a whole number from 1 to 100000 tokens/s (got "0")' });
    expect(checkPolicyValues({ speed: '1' })).toEqual({
      error:
        'the offset server has no parameter "speed" (its parameters: rate, bucket, loss, squishedRate, squishThreshold, squishLength, initialRate, firstMs, periodMs, lowRate, highRate, variableModel, bucketModel)',
    });
  });
});
