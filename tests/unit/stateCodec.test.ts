import { pageCatalogue } from '../../web/app/catalogue.ts';
import { describe, expect, it } from 'vitest';
import { findScheme } from '../../shared/controllers/registry.ts';
import type { ChoiceParam, ParamSpec } from '../../shared/controllers/types.ts';
import { DISCIPLINE_PARAMS, LINK_PARAMS } from '../../shared/link/params.ts';
import { OFFSET_PARAMS } from '../../shared/offset/params.ts';
import { quote } from '../../shared/text/quote.ts';
import { decode, decodeGroup, type Field, ignoredMessage, type StateValues } from '../../web/state/codec.ts';
import { decodeExperiment, encodeExperiment, experimentSchema, type Experiment } from '../../web/state/experiment.ts';
import { contestLab, MEASUREMENT_LAB, sharedLab, stressLab, transportLab } from '../../web/state/labs.ts';
import { SESSIONS_VIEW } from '../../web/state/sessions.ts';
import { codeToQuery, DAMAGED_CODE, decodeView, encodeView, VIEW_IDS, viewOf } from '../../web/state/view.ts';

/** A valid value of a parameter other than its default: the far end of a range, another choice. */
function other(spec: ParamSpec): string | number {
  if (spec.kind === 'choice') return spec.choices.find((c) => c !== spec.default)!;
  return spec.default === spec.max ? spec.min : spec.max;
}

function everyParam(specs: readonly ParamSpec[]): Record<string, string | number> {
  return Object.fromEntries(specs.map((p) => [p.name, other(p)]));
}

/** Every link parameter at another value than its default, the discipline CoDel with its own settings (another's would change nothing). */
const LINK_WITH_CODEL = everyParam(LINK_PARAMS.filter((p) => !Object.values(DISCIPLINE_PARAMS).flat().includes(p.name) || DISCIPLINE_PARAMS.codel.includes(p.name)));
LINK_WITH_CODEL.discipline = 'codel';

describe('the playground URL', () => {
  const e: Experiment = {
    scenario: 'offset',
    live: true,
    trace: 'rate',
    variable: true,
    seed: 2 ** 31 - 1,
    link: LINK_WITH_CODEL,
    offset: everyParam(OFFSET_PARAMS),
    a: { scheme: 'aimd', params: everyParam(findScheme('aimd')!.params) },
    b: { scheme: 'bbr', params: everyParam(findScheme('bbr')!.params) },
    overlay: true,
    exercise: 'offset',
  };

  it('carries every field, every link parameter its discipline uses, every server parameter and both sides’ parameters', () => {
    expect(Object.keys(e.link).length).toBe(LINK_PARAMS.length - Object.values(DISCIPLINE_PARAMS).flat().length + DISCIPLINE_PARAMS.codel.length);
    expect(Object.keys(e.offset).length).toBe(OFFSET_PARAMS.length);
    const back = decodeExperiment(encodeExperiment(e, pageCatalogue()), pageCatalogue());
    expect(back.errors).toEqual([]);
    expect(back.value).toEqual(e);
  });

  it('round-trips every top-level field of both scenarios, each on its own', () => {
    for (const scenario of ['contest', 'offset'] as const) {
      for (const field of experimentSchema(scenario, pageCatalogue())) {
        if (field.kind === 'list' || field.kind === 'text') throw new Error('the playground has no lists and no text');
        const q = new URLSearchParams({ s: scenario, [field.name]: String(other(field)) });
        if (field.name === 's') q.set('s', String(other(field)));
        const once = decodeExperiment(q.toString(), pageCatalogue());
        expect(once.errors, `${scenario} ${field.name}`).toEqual([]);
        expect(decodeExperiment(encodeExperiment(once.value, pageCatalogue()), pageCatalogue()).value).toEqual(once.value);
      }
    }
  });

  it('names each bad value and keeps the default for it', () => {
    const { value, errors } = decodeExperiment('s=offset&seed=1.5&var=2&a=warp&link.loss=101&link.nope=1&srv.rate=0&b.gain=x&trace=upload:mine.trace', pageCatalogue());
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

  it('names a bad scenario once', () => {
    expect(decodeExperiment('s=bogus', pageCatalogue())).toMatchObject({ errors: ['s must be one of contest, offset (got "bogus")'], ignored: [], value: { scenario: 'contest' } });
  });

  it('names the keys it does not read, once each, and not the view, the code or the groups', () => {
    const { errors, ignored } = decodeExperiment('sed=5&a.w=abc&view=&code=x&link.delay=30&s=offset&sed=6&zz=1&srv.rate=5&b.=1', pageCatalogue());
    expect(ignored).toEqual(['unknown settings "sed", "zz" ignored']);
    const paramsOf = (id: string) =>
      findScheme(id)!
        .params.map((p) => p.name)
        .join(', ');
    expect(errors).toEqual([
      `controller A: token-pacer has no parameter "w" (its parameters: ${paramsOf('token-pacer')})`,
      `controller B: burst-aimd has no parameter "" (its parameters: ${paramsOf('burst-aimd')})`,
    ]);
    expect(decodeExperiment(encodeExperiment(decodeExperiment('sed=5&s=offset', pageCatalogue()).value, pageCatalogue()), pageCatalogue()).ignored).toEqual([]);
  });

  it('reads a setting given more than once at its first value, says so once, and writes the link back with it alone', () => {
    const { value, errors, ignored } = decodeExperiment('seed=5&a.a=x&link.delay=30&seed=6&a.a=3&zz=1&zz=2&link.delay=40&link.delay=50', pageCatalogue());
    expect(ignored).toEqual(['unknown setting "zz" ignored', '"seed", "a.a", "link.delay" given more than once: the first value of each is read, the others ignored']);
    expect(errors).toEqual([expect.stringMatching(/^controller A: a must be a number .*\(got "x"\)$/)]);
    expect(value).toMatchObject({ seed: 5, a: { params: {} }, link: { delay: 30 } });
    expect(encodeExperiment(value, pageCatalogue())).toBe('seed=5&a=aimd&b=bdp&link.delay=30');
  });

  it('names a view the page does not have: it opens the playground', () => {
    expect(viewOf('view=nowhere')).toBe('');
    expect(decodeExperiment('view=nowhere', pageCatalogue()).errors).toEqual([`view must be one of (none), ${VIEW_IDS.slice(1).join(', ')} (got "nowhere")`]);
  });

  it('quotes a huge value by its start and its length', () => {
    const huge = 'x'.repeat(20_000);
    const traces = (experimentSchema('contest', pageCatalogue()).find((f) => f.name === 'trace') as ChoiceParam).choices.join(', ');
    expect(decodeExperiment(`trace=${huge}`, pageCatalogue()).errors).toEqual([`trace must be one of ${traces} (got "${'x'.repeat(40)}…" (20000 characters))`]);
    expect(decodeExperiment(`trace=upload:${huge}`, pageCatalogue()).errors).toEqual([`the trace "${'x'.repeat(40)}…" (20000 characters) was uploaded in another session: upload it again`]);
    expect(decodeExperiment(`a.${huge}=1&seed=${huge}`, pageCatalogue()).errors).toEqual([
      `seed must be a whole number from 0 to 2147483647 (got "${'x'.repeat(40)}…" (20000 characters))`,
      `controller A: aimd has no parameter "${'x'.repeat(40)}…" (20000 characters) (its parameters: a, increase, decrease, b, timeout, loss)`,
    ]);
  });
});

describe('quoting a value', () => {
  it('quotes up to 40 characters whole, and a longer value by its first 40 characters and its length', () => {
    expect(quote('')).toBe('""');
    expect(quote('y'.repeat(40))).toBe(`"${'y'.repeat(40)}"`);
    expect(quote('y'.repeat(41))).toBe(`"${'y'.repeat(40)}…" (41 characters)`);
    // a character outside the BMP is not cut in two
    expect(quote(`a${'😀'.repeat(30)}`)).toBe(`"a${'😀'.repeat(19)}…" (61 characters)`);
    // the first and last high surrogates (U+10000, U+10FFFF) as the 40th character; a private-use character there is whole
    const a39 = 'a'.repeat(39);
    expect(quote(`${a39}\u{10000}${'b'.repeat(9)}`)).toBe(`"${a39}…" (50 characters)`);
    expect(quote(`${a39}\u{10FFFF}${'b'.repeat(9)}`)).toBe(`"${a39}…" (50 characters)`);
    expect(quote(`${a39}\uE000${'b'.repeat(9)}`)).toBe(`"${a39}\uE000…" (49 characters)`);
  });

  it('shows line breaks, escape sequences and other control characters as escapes, counting them as one character each', () => {
    expect(quote('a\nb\r\tc')).toBe('"a\\nb\\r\\tc"');
    expect(quote('\u001b[2J\u0000\u007f\u0085\u2028')).toBe('"\\u001b[2J\\u0000\\u007f\\u0085\\u2028"');
    expect(quote(`${'\n'.repeat(41)}`)).toBe(`"${'\\n'.repeat(40)}…" (41 characters)`);
    // what is not a control character stays as it is
    expect(quote('é "x" \\ ü')).toBe('"é "x" \\ ü"');
  });

  it('names the first five unknown keys, each quoted, and counts the rest', () => {
    expect(ignoredMessage(['sed'])).toBe('unknown setting "sed" ignored');
    expect(ignoredMessage(['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'])).toBe('unknown settings "k1", "k2", "k3", "k4", "k5" and 2 more ignored');
    expect(ignoredMessage(['z'.repeat(20_000)])).toBe(`unknown setting "${'z'.repeat(40)}…" (20000 characters) ignored`);
  });
});

/** A value for every field of a view's schema other than its default (lists get one item, text its example). */
function nonDefault(schema: readonly Field[], item: Record<string, string | readonly (string | number)[]>): StateValues {
  const given = (name: string) => item[name];
  return Object.fromEntries(schema.map((f) => [f.name, f.kind === 'list' ? [[...given(f.name)]] : f.kind === 'text' ? (given(f.name) as string) : other(f)]));
}

describe.each([
  ['contest-lab', contestLab(pageCatalogue()), { sw: ['bdp', 'gain', '1..3+0.25'] }],
  ['shared-lab', sharedLab(pageCatalogue()), { f: ['cubic', 500, 20_000], gs: ['bbr'] }],
  ['transport-lab', transportLab(pageCatalogue()), {}],
  ['measurement', MEASUREMENT_LAB, {}],
  ['sessions', SESSIONS_VIEW, { session: '127.0.0.1:40000@1700000000000', watch: 'http://127.0.0.1:9000' }],
] as const)('the %s URL', (view, schema, item) => {
  it('round-trips every field, next to the view’s name', () => {
    const value = nonDefault(schema, item);
    const query = encodeView(view, schema, value);
    expect([...query.keys()][0]).toBe('view');
    const back = decodeView(schema, query.toString());
    expect(back).toEqual({ value, errors: [], ignored: [] });
    for (const f of schema) if (f.kind !== 'list' && f.kind !== 'text') expect(value[f.name], f.name).not.toBe(f.default);
  });

  it('reports a bad value of every field and keeps its default', () => {
    for (const f of schema) {
      const bad = f.kind === 'number' ? String(f.max + 1) : 'nonsense';
      const { value, errors } = decode(schema, new URLSearchParams({ [f.name]: bad }));
      expect(errors.length, f.name).toBe(1);
      // a list of one part reads "nonsense" as that part's value, refused as such; of several, as the wrong shape
      const listError = f.kind === 'list' && f.parts([]).length === 1 ? `${f.name} "nonsense": ` : `${f.name} must look like`;
      expect(errors[0]).toContain(f.kind === 'list' ? listError : f.kind === 'text' ? `${f.name} "nonsense" is not` : `${f.name} must be`);
      expect(value[f.name]).toEqual(f.kind === 'list' ? [] : f.kind === 'text' ? '' : f.default);
    }
  });

  it('names the keys it does not read, and not the view or the code of a shared link', () => {
    const { errors, ignored } = decodeView(schema, `view=${view}&code=x&sed=5&${schema[0].name}.x=1`);
    expect(errors).toEqual([]);
    expect(ignored).toEqual([`unknown settings "sed", "${schema[0].name}.x" ignored`]);
  });

  it('names a field given twice, but not a list’s items, which repeat', () => {
    const query = encodeView(view, schema, nonDefault(schema, item));
    for (const [k, v] of [...query]) query.append(k, v);
    const lists = schema.filter((f) => f.kind === 'list').map((f) => f.name);
    const once = ['view', ...schema.filter((f) => f.kind !== 'list').map((f) => f.name)];
    expect(decodeView(schema, query.toString()).ignored).toEqual([
      `${once
        .slice(0, 5)
        .map((k) => `"${k}"`)
        .join(', ')}${once.length > 5 ? ` and ${once.length - 5} more` : ''} given more than once: the first value of each is read, the others ignored`,
    ]);
    for (const l of lists) expect(decodeView(schema, query.toString()).value[l]).toHaveLength(2);
  });
});

describe('a view’s link to the user’s controller', () => {
  const schema = stressLab(pageCatalogue());
  it('whose code was cut short says so once, not "must be one of", and runs the default', () => {
    const whole = codeToQuery('export default { title: "Mine" };', new URLSearchParams('view=stress&scheme=user&seed=4')).toString();
    const cut = decodeView(schema, whole.slice(0, -6));
    expect(cut.errors).toEqual([`scheme: ${DAMAGED_CODE}. Meanwhile it runs AIMD`]);
    expect(cut.value).toMatchObject({ scheme: 'aimd', seed: 4 });
  });

  it('without code, or before the page loaded it, is a choice the view does not have', () => {
    expect(decodeView(schema, 'view=stress&scheme=user').errors).toEqual([expect.stringMatching(/^scheme must be one of fixed, aimd, .* \(got "user"\)$/)]);
  });
});

describe('the sessions view’s URL', () => {
  const errorsOf = (search: string) => decodeView(SESSIONS_VIEW, search).errors;

  it('takes a session’s id and a watch address on this machine', () => {
    expect(decodeView(SESSIONS_VIEW, 'view=sessions&session=%3A%3A1%3A5000%401700000000000&watch=http%3A%2F%2Flocalhost%3A9000')).toEqual({
      value: { session: '::1:5000@1700000000000', watch: 'http://localhost:9000' },
      errors: [],
      ignored: [],
    });
    expect(decodeView(SESSIONS_VIEW, 'view=sessions').value).toEqual({ session: '', watch: '' });
  });

  it('names a value that is no session’s id, or no watch address on this machine', () => {
    expect(errorsOf('session=../../etc')).toEqual(['session "../../etc" is not a session\'s id, which looks like CLIENT@START_MS']);
    expect(errorsOf('session=')).toEqual(['session is empty']);
    expect(errorsOf(`session=1.2.3.4@${'9'.repeat(20_000)}`)).toEqual([`session "1.2.3.4@${'9'.repeat(32)}…" (20008 characters) is not a session's id, which looks like CLIENT@START_MS`]);
    expect(errorsOf('watch=http%3A%2F%2F10.0.0.1%3A9000')).toEqual([
      'watch "http://10.0.0.1:9000" is not an emulated link\'s watch address on this machine: start one with `npm run link -- … --watch 127.0.0.1:PORT` and give http://127.0.0.1:PORT',
    ]);
  });
});

describe('the view', () => {
  it('is one of the page’s views, named first in a view’s URL, and none for the playground', () => {
    for (const id of VIEW_IDS) expect(viewOf(encodeView(id, [], {}).toString())).toBe(id);
    expect(encodeView('', [], {}).toString()).toBe('');
    expect(viewOf('view=sessions&session=x')).toBe('sessions');
  });
});

describe('list items', () => {
  it('check each part against the schema the earlier parts choose, and the whole item', () => {
    const sw = (text: string) => decode(contestLab(pageCatalogue()), new URLSearchParams([['sw', text]])).errors;
    expect(sw('fixed:w:2..8*2')).toEqual([]);
    expect(sw('fixed:gain:1,2')).toEqual(['sw "fixed:gain:1,2": param must be one of w (got "gain")']);
    expect(sw('fixed:w:1024')).toEqual(['sw "fixed:w:1024": w must be a whole number from 1 to 1000 packets (got "1024")']);
    const five = new URLSearchParams(Array.from({ length: 5 }, () => ['sw', 'fixed:w:2']));
    const r = decode(contestLab(pageCatalogue()), five);
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
    ['contest lab', contestLab(pageCatalogue()), ['trace', 'sw']],
    ['shared-bottleneck lab', sharedLab(pageCatalogue()), ['preset', 'f', 'gs', 'gl']],
    ['transport lab', transportLab(pageCatalogue()), ['scheme', 'row', 'link']],
    ['measurement lab', MEASUREMENT_LAB, ['bw', 'delay', 'jitter', 'hide', 'secret']],
  ] as const)('the %s carries %j', (_, schema, names) => {
    expect(schema.map((f) => f.name)).toEqual(names);
  });

  it('the measurement lab’s hidden truth and the transport lab’s open row come back from a link', () => {
    expect(decode(MEASUREMENT_LAB, new URLSearchParams('hide=1&bw=5')).value).toMatchObject({ hide: '1', bw: 5 });
    expect(decode(transportLab(pageCatalogue()), new URLSearchParams('row=3')).value).toMatchObject({ row: 3 });
  });
});
