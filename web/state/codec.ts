import { checkParam, choice, type ChoiceParam, type NumberParam, type ParamSpec, type ParamValues } from '../../shared/controllers/types.ts';

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
  parts(previous: readonly (string | number)[]): readonly (ParamSpec | TextPart)[];
  /** What is wrong with a whole item whose parts are each fine, if anything. */
  check?(item: Item): string | null;
  doc: string;
}

/** A part of a list item that is free text (a sweep's "2..512*2"), checked with the whole item. */
export interface TextPart {
  name: string;
  kind: 'text';
}

export type Field = ParamSpec | ListField;
export type Item = (string | number)[];
export type StateValues = Record<string, string | number | Item[]>;

export interface Decoded<T> {
  value: T;
  errors: string[];
}

/** Whole-number parameters (step 1 from a whole minimum) take no fractions from a URL: sliders never make one. */
export function checkField(spec: ParamSpec | TextPart, raw: string): { value: string | number } | { error: string } {
  if (spec.kind === 'text') return raw ? { value: raw } : { error: `${spec.name} is empty` };
  const r = checkParam(spec, raw);
  if (spec.kind !== 'number' || !isWhole(spec) || ('value' in r && Number.isInteger(r.value))) return r;
  return { error: `${spec.name} must be a whole number from ${spec.min} to ${spec.max}${spec.unit ? ` ${spec.unit}` : ''} (got "${raw}")` };
}

const isWhole = (spec: NumberParam) => spec.step === 1 && Number.isInteger(spec.min);

function decodeItem(field: ListField, text: string): { value: Item } | { error: string } {
  const raw = text.split(':');
  const item: Item = [];
  let parts = field.parts(item);
  if (raw.length !== parts.length) return { error: `${field.name} must look like ${parts.map((p) => p.name).join(':')} (got "${text}")` };
  for (let i = 0; i < raw.length; i++) {
    parts = field.parts(item);
    const r = checkField(parts[i], raw[i]);
    if ('error' in r) return { error: `${field.name} "${text}": ${r.error}` };
    item.push(r.value);
  }
  const problem = field.check?.(item);
  return problem ? { error: `${field.name} "${text}": ${problem}` } : { value: item };
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
    value[field.name] = field.default;
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
    else if (v !== field.default) query.set(field.name, String(v));
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
  for (const [key, raw] of query) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    const spec = schema.find((p) => p.name === name);
    const r = spec ? checkField(spec, raw) : { error: `${owner} has no parameter "${name}" (its parameters: ${schema.map((p) => p.name).join(', ') || 'none'})` };
    if ('error' in r) errors.push(r.error);
    else value[name] = r.value;
  }
  return { value, errors };
}

export function encodeGroup(value: ParamValues, prefix: string, query: URLSearchParams): URLSearchParams {
  for (const [k, v] of Object.entries(value)) query.set(`${prefix}${k}`, String(v));
  return query;
}
