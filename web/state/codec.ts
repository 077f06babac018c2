import { checkParam, choice, type ChoiceParam, type ParamSpec, type ParamValues } from '../../shared/controllers/types.ts';
import { quote } from '../../shared/text/quote.ts';

/**
 * One codec between a view's state and its URL query, driven by the same `num`/`choice` schemas the
 * sliders and CLI flags come from. Whatever is wrong in a query is named in `errors` and replaced by the
 * default, so a bad link still opens a working page.
 */

/** An on/off field: a choice of "0" and "1", so it is checked and documented like every other field. */
export const flag = (name: string, doc: string): ChoiceParam => choice(name, ['0', '1'], '0', doc);

/**
 * A repeated field whose items are tuples ("fixed:w:2..512*2"), each part checked against its own schema
 * (`parts` may depend on earlier parts, as a parameter's name depends on the scheme).
 */
export interface ListField {
  name: string;
  kind: 'list';
  /** At most this many items are read; more is an error. */
  max: number;
  /** The schemas of an item's parts, given the parts read so far. */
  parts(previous: readonly (string | number)[]): readonly (ParamSpec | TextField)[];
  /** What is wrong with a whole item whose parts are each fine, if anything. */
  check?(item: Item): string | null;
  doc: string;
}

/**
 * Free text, never empty: a list item's part (a sweep's "2..512*2", checked with the whole item) or a
 * field of its own (a session's id), which `check` may hold to a shape. Absent, a field is "".
 */
export interface TextField {
  name: string;
  kind: 'text';
  /** The value a URL's text stands for, when the address bar may have changed it (a `+` read as a space). */
  read?(raw: string): string;
  /** What is wrong with a given value, naming it with `quote`, or null. */
  check?(raw: string): string | null;
  doc?: string;
}

export type Field = ParamSpec | ListField | TextField;
export type Item = (string | number)[];
export type StateValues = Record<string, string | number | Item[]>;

export interface Decoded<T> {
  value: T;
  errors: string[];
}

/** What is wrong with a whole view's URL: bad values (their defaults used instead), and keys nothing reads. */
export interface UrlProblems {
  errors: string[];
  /** Messages naming the keys nothing read; the URL written back leaves them out. */
  ignored: string[];
}

/** A whole view's URL, read. */
export interface ViewState<T> extends Decoded<T>, UrlProblems {}

const defaultOf = (field: ParamSpec | TextField) => (field.kind === 'text' ? '' : field.default);

/** A field's value from its URL text: a parameter as its schema checks it everywhere, free text as its own check does. */
export function checkField(spec: ParamSpec | TextField, raw: string): { value: string | number } | { error: string } {
  if (spec.kind === 'text') {
    const text = spec.read?.(raw) ?? raw;
    const problem = text ? (spec.check?.(text) ?? null) : `${spec.name} is empty`;
    return problem ? { error: problem } : { value: text };
  }
  return checkParam(spec, raw);
}

function decodeItem(field: ListField, text: string): { value: Item } | { error: string } {
  const raw = text.split(':');
  const item: Item = [];
  let parts = field.parts(item);
  if (raw.length !== parts.length) return { error: `${field.name} must look like ${parts.map((p) => p.name).join(':')} (got ${quote(text)})` };
  for (let i = 0; i < raw.length; i++) {
    parts = field.parts(item);
    const r = checkField(parts[i], raw[i]);
    if ('error' in r) return { error: `${field.name} ${quote(text)}: ${r.error}` };
    item.push(r.value);
  }
  const problem = field.check?.(item);
  return problem ? { error: `${field.name} ${quote(text)}: ${problem}` } : { value: item };
}

/** Every field of `schema` from `query`: given values checked, the others at their defaults (lists empty). */
export function decode(schema: readonly Field[], query: URLSearchParams): Decoded<StateValues> {
  const value: StateValues = {};
  const errors: string[] = [];
  for (const field of schema) {
    if (field.kind === 'list') {
      const items = query.getAll(field.name);
      if (items.length > field.max) errors.push(`at most ${field.max} ${field.name} (got ${items.length})`);
      value[field.name] = items.slice(0, field.max).flatMap((text) => {
        const r = decodeItem(field, text);
        if ('error' in r) errors.push(r.error);
        return 'error' in r ? [] : [r.value];
      });
      continue;
    }
    value[field.name] = defaultOf(field);
    const raw = query.get(field.name);
    if (raw === null) continue;
    const r = checkField(field, raw);
    if ('error' in r) errors.push(r.error);
    else value[field.name] = r.value;
  }
  return { value, errors };
}

/** Writes the fields that differ from their defaults (and every list item) into `query`. */
export function encode(schema: readonly Field[], value: StateValues, query = new URLSearchParams()): URLSearchParams {
  for (const field of schema) {
    const v = value[field.name];
    if (v === undefined) continue;
    if (field.kind === 'list') for (const item of v as Item[]) query.append(field.name, item.join(':'));
    else if (v !== defaultOf(field)) query.set(field.name, String(v));
  }
  return query;
}

/**
 * A group of parameters under a prefix ("link.loss", "a.gain"): only the ones given, so a group holds what
 * differs from its owner's own settings. `owner` names the group in the message for an unknown name.
 */
export function decodeGroup(schema: readonly ParamSpec[], query: URLSearchParams, prefix: string, owner: string): Decoded<ParamValues> {
  const value: ParamValues = {};
  const errors: string[] = [];
  const read = new Set<string>();
  for (const [key, raw] of query) {
    // a key given again is read once, at its first value, as a field is (`repeatedKeys` names it)
    if (!key.startsWith(prefix) || read.has(key)) continue;
    read.add(key);
    const name = key.slice(prefix.length);
    const spec = schema.find((p) => p.name === name);
    const r = spec ? checkField(spec, raw) : { error: `${owner} has no parameter ${quote(name)} (its parameters: ${schema.map((p) => p.name).join(', ') || 'none'})` };
    if ('error' in r) errors.push(r.error);
    else value[name] = r.value;
  }
  return { value, errors };
}

export function encodeGroup(value: ParamValues, prefix: string, query: URLSearchParams): URLSearchParams {
  for (const [k, v] of Object.entries(value)) query.set(`${prefix}${k}`, String(v));
  return query;
}

/** The keys of `query` that are none of `names` and start with none of `prefixes`, each once, in order. */
export function unknownKeys(query: URLSearchParams, names: readonly string[], prefixes: readonly string[] = []): string[] {
  const unknown = new Set<string>();
  for (const key of query.keys()) if (!names.includes(key) && !prefixes.some((p) => key.startsWith(p))) unknown.add(key);
  return [...unknown];
}

/**
 * The keys of `query` given more than once that are read once (all but `lists`, whose items repeat), each
 * once, in order: a hand-edited link, or two pasted together. Each is read at its first value.
 */
export function repeatedKeys(query: URLSearchParams, lists: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const key of query.keys()) {
    if (seen.has(key) && !lists.includes(key)) repeated.add(key);
    seen.add(key);
  }
  return [...repeated];
}

/** The most keys one message names; a link can carry thousands. */
const NAMED_KEYS = 5;

/** The first few keys by name, the rest counted. */
function someKeys(keys: readonly string[]): string {
  const more = keys.length > NAMED_KEYS ? ` and ${keys.length - NAMED_KEYS} more` : '';
  return `${keys.slice(0, NAMED_KEYS).map(quote).join(', ')}${more}`;
}

/** How a view says which keys of its URL it did not understand. */
export function ignoredMessage(keys: readonly string[]): string {
  return `unknown setting${keys.length > 1 ? 's' : ''} ${someKeys(keys)} ignored`;
}

/** How a view says which keys its URL gives more than once. */
export function repeatedMessage(keys: readonly string[]): string {
  return `${someKeys(keys)} given more than once: the first value of each is read, the others ignored`;
}
