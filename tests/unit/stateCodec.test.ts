import { describe, expect, it } from 'vitest';
import { findScheme } from '../../shared/controllers/registry.ts';
import type { ParamSpec } from '../../shared/controllers/types.ts';
import { LINK_PARAMS } from '../../shared/link/params.ts';
import { OFFSET_PARAMS } from '../../shared/offset/params.ts';
import { decode, decodeGroup, encode, type Field, type StateValues } from '../../web/state/codec.ts';
import { decodeExperiment, encodeExperiment, experimentSchema, type Experiment } from '../../web/state/experiment.ts';
import { CONTEST_LAB, MEASUREMENT_LAB, SHARED_LAB, TRANSPORT_LAB } from '../../web/state/labs.ts';

/** A valid value of a parameter other than its default: the far end of a range, another choice. */
function other(spec: ParamSpec): string | number {
  if (spec.kind === 'choice') return spec.choices.find((c) => c !== spec.default)!;
  return spec.default === spec.max ? spec.min : spec.max;
}

function everyParam(specs: readonly ParamSpec[]): Record<string, string | number> {
  return Object.fromEntries(specs.map((p) => [p.name, other(p)]));
}

describe('the playground URL', () => {
  const e: Experiment = {
    scenario: 'offset',
    live: true,
    trace: 'rate',
    variable: true,
    seed: 2 ** 31 - 1,
    link: everyParam(LINK_PARAMS),
    offset: everyParam(OFFSET_PARAMS),
    a: { scheme: 'aimd', params: everyParam(findScheme('aimd')!.params) },
    b: { scheme: 'bbr', params: everyParam(findScheme('bbr')!.params) },
    overlay: true,
    exercise: 'offset',
  };

  it('carries every field, every link and server parameter and both sides’ parameters', () => {
    expect(Object.keys(e.link).length).toBe(LINK_PARAMS.length);
    expect(Object.keys(e.offset).length).toBe(OFFSET_PARAMS.length);
    const back = decodeExperiment(encodeExperiment(e));
    expect(back.errors).toEqual([]);
    expect(back.value).toEqual(e);
  });

  it('round-trips every top-level field of both scenarios, each on its own', () => {
    for (const scenario of ['contest', 'offset'] as const) {
      for (const field of experimentSchema(scenario)) {
        if (field.kind === 'list') throw new Error('the playground has no lists');
        const q = new URLSearchParams({ s: scenario, [field.name]: String(other(field)) });
        if (field.name === 's') q.set('s', String(other(field)));
        const once = decodeExperiment(q.toString());
        expect(once.errors, `${scenario} ${field.name}`).toEqual([]);
        expect(decodeExperiment(encodeExperiment(once.value)).value).toEqual(once.value);
      }
    }
  });

  it('names each bad value and keeps the default for it', () => {
    const { value, errors } = decodeExperiment('s=offset&seed=1.5&var=2&a=warp&link.loss=101&link.nope=1&srv.rate=0&b.gain=x&trace=upload:mine.trace');
    expect(errors).toEqual([
      'the trace "mine.trace" was uploaded in another session: upload it again',
      'var must be one of 0, 1 (got "2")',
      'seed must be a whole number from 0 to 2147483647 (got "1.5")',
      expect.stringMatching(/^controller A: a must be one of .*\(got "warp"\)$/),
      'controller B: burst-aimd has no parameter "gain" (its parameters: ' +
        findScheme('burst-aimd')!
          .params.map((p) => p.name)
          .join(', ') +
        ')',
      'loss must be a number from 0 to 100 % (got "101")',
      'the link has no parameter "nope" (its parameters: ' + LINK_PARAMS.map((p) => p.name).join(', ') + ')',
      'rate must be a whole number from 1 to 100000 tokens/s (got "0")',
    ]);
    expect(value).toMatchObject({ scenario: 'offset', seed: 1, variable: false, a: { scheme: 'token-pacer', params: {} }, link: {}, offset: {} });
  });
});

/** A value for every field of a view's schema other than its default (lists get one item). */
function nonDefault(schema: readonly Field[], item: Record<string, (string | number)[]>): StateValues {
  return Object.fromEntries(schema.map((f) => [f.name, f.kind === 'list' ? [item[f.name]] : other(f)]));
}

describe.each([
  ['contest lab', CONTEST_LAB, { sw: ['bdp', 'gain', '1..3+0.25'] }],
  ['shared-bottleneck lab', SHARED_LAB, { f: ['cubic', 500, 20_000] }],
  ['transport lab', TRANSPORT_LAB, {}],
  ['measurement lab', MEASUREMENT_LAB, {}],
] as const)('the %s URL', (_, schema, item) => {
  it('round-trips every field', () => {
    const value = nonDefault(schema, item as Record<string, (string | number)[]>);
    const back = decode(schema, encode(schema, value));
    expect(back.errors).toEqual([]);
    expect(back.value).toEqual(value);
    for (const f of schema) if (f.kind !== 'list') expect(value[f.name], f.name).not.toBe(f.default);
  });

  it('reports a bad value of every field and keeps its default', () => {
    for (const f of schema) {
      const bad = f.kind === 'number' ? String(f.max + 1) : 'nonsense';
      const { value, errors } = decode(schema, new URLSearchParams({ [f.name]: bad }));
      expect(errors.length, f.name).toBe(1);
      expect(errors[0]).toContain(f.kind === 'list' ? `${f.name} must look like` : `${f.name} must be`);
      expect(value[f.name]).toEqual(f.kind === 'list' ? [] : f.default);
    }
  });
});

describe('list items', () => {
  it('check each part against the schema the earlier parts choose, and the whole item', () => {
    const sw = (text: string) => decode(CONTEST_LAB, new URLSearchParams([['sw', text]])).errors;
    expect(sw('fixed:w:2..8*2')).toEqual([]);
    expect(sw('fixed:gain:1,2')).toEqual(['sw "fixed:gain:1,2": param must be one of w (got "gain")']);
    expect(sw('fixed:w:1024')).toEqual(['sw "fixed:w:1024": w must be a number from 1 to 1000 packets (got "1024")']);
    const five = new URLSearchParams(Array.from({ length: 5 }, () => ['sw', 'fixed:w:2']));
    const r = decode(CONTEST_LAB, five);
    expect(r.errors).toEqual(['at most 4 sw (got 5)']);
    expect((r.value.sw as unknown[]).length).toBe(4);
  });

  it('groups take only the parameters given', () => {
    expect(decodeGroup(LINK_PARAMS, new URLSearchParams('link.delay=30&x=1'), 'link.', 'the link')).toEqual({ value: { delay: 30 }, errors: [] });
  });
});

describe('the labs’ links', () => {
  // What each lab's link carries, by name: a field dropped from a schema (so a shared link loses it) fails here.
  it.each([
    ['contest lab', CONTEST_LAB, ['trace', 'sw']],
    ['shared-bottleneck lab', SHARED_LAB, ['preset', 'f']],
    ['transport lab', TRANSPORT_LAB, ['scheme', 'row']],
    ['measurement lab', MEASUREMENT_LAB, ['bw', 'delay', 'jitter', 'hide', 'secret']],
  ] as const)('the %s carries %j', (_, schema, names) => {
    expect(schema.map((f) => f.name)).toEqual(names);
  });

  it('the measurement lab’s hidden truth and the transport lab’s open row come back from a link', () => {
    expect(decode(MEASUREMENT_LAB, new URLSearchParams('hide=1&bw=5')).value).toMatchObject({ hide: '1', bw: 5 });
    expect(decode(TRANSPORT_LAB, new URLSearchParams('row=3')).value).toMatchObject({ row: 3 });
  });
});
