import LZString from 'lz-string';
import { findScheme } from '../../shared/controllers/registry.ts';
import { type ChoiceParam, choice } from '../../shared/controllers/types.ts';
import { USER_SCHEME_ID } from '../../shared/controllers/userInstalled.ts';
import { decode, encode, type Field, ignoredMessage, repeatedKeys, repeatedMessage, type StateValues, unknownKeys, type UrlProblems, type ViewState } from './codec.ts';

/** The page's views as `?view=` names them; the playground's name is none. */
export const VIEW_IDS = ['', 'contest-lab', 'transport-lab', 'shared-lab', 'measurement', 'leaderboard', 'sessions', 'stress', 'contest'] as const;
export type ViewId = (typeof VIEW_IDS)[number];

export const VIEW_FIELD = choice('view', VIEW_IDS, '', 'The view the page opens (none: the playground)');

/**
 * The user's controller text a shared link carries. Any view's URL may have it: it is read and checked
 * before the view opens (restoreUserCode), whose editor reports a damaged one.
 */
export const CODE_KEY = 'code';

/**
 * The longest controller text a link carries (compressed, it stays well under what browsers accept): room
 * for the longest built-in's copy (BBR's, about 25,000) with a quarter of it left for the student's changes.
 */
export const MAX_CODE_CHARS = 40_000;

/** What a link whose code cannot be read says (a chat or mail client that cuts long links cuts the code, the link's last part). */
export const DAMAGED_CODE = 'the controller code in this link is damaged (cut short on its way?): ask for the whole link';

/** The user's controller text a link carries (lz-string, URI-safe), or null; a damaged one is an error. */
export function codeFromQuery(search: string): { code: string | null } | { error: string } {
  const packed = new URLSearchParams(search).get(CODE_KEY);
  if (packed === null) return { code: null };
  const code = packed.length <= 4 * MAX_CODE_CHARS ? LZString.decompressFromEncodedURIComponent(packed) : null;
  if (!code || code.length > MAX_CODE_CHARS) return { error: DAMAGED_CODE };
  return { code };
}

/** Puts the user's controller text in a link (lz-string, URI-safe), for a view whose runs use it. */
export function codeToQuery(code: string, q: URLSearchParams): URLSearchParams {
  q.set(CODE_KEY, LZString.compressToEncodedURIComponent(code));
  return q;
}

/**
 * Drops from `query` each of the choices `names` that a link sets to the user's controller while its code is
 * damaged, with the settings under it (`name.…`: they were that controller's), and says so once for each
 * (not "must be one of…"): `label` names the choice, `meanwhile` what runs instead.
 */
export function dropDamagedCode(query: URLSearchParams, names: readonly string[], label: (name: string) => string, meanwhile: (name: string) => string): string[] {
  if (!('error' in codeFromQuery(query.toString()))) return [];
  return names
    .filter((name) => query.get(name) === USER_SCHEME_ID)
    .map((name) => {
      for (const key of [...query.keys()].filter((k) => k === name || k.startsWith(`${name}.`))) query.delete(key);
      return `${label(name)}: ${DAMAGED_CODE}. Meanwhile it runs ${meanwhile(name)}`;
    });
}

/** The view a page's query opens: one the page does not have opens the playground, whose notices say so. */
export function viewOf(search: string): ViewId {
  return decode([VIEW_FIELD], new URLSearchParams(search)).value.view as ViewId;
}

/**
 * What is wrong with a view's URL besides its own fields' values: a view the page does not have, and the
 * keys that are none of the view's fields, groups (`prefixes`, such as "a." of "a.gain") or the page's,
 * and those given more than once.
 */
export function pageProblems(query: URLSearchParams, fields: readonly Field[], prefixes: readonly string[] = []): UrlProblems {
  const unknown = unknownKeys(query, [VIEW_FIELD.name, CODE_KEY, ...fields.map((f) => f.name)], prefixes);
  const repeated = repeatedKeys(
    query,
    fields.filter((f) => f.kind === 'list').map((f) => f.name),
  ).filter((k) => !unknown.includes(k));
  const ignored = [...(unknown.length ? [ignoredMessage(unknown)] : []), ...(repeated.length ? [repeatedMessage(repeated)] : [])];
  return { errors: decode([VIEW_FIELD], query).errors, ignored };
}

/** A view's fields from its URL, with everything wrong in the URL named. */
export function decodeView(fields: readonly Field[], search: string): ViewState<StateValues> {
  const query = new URLSearchParams(search);
  // A choice of controller the view offers without the user's: its code did not load.
  const schemeChoices = fields.filter((f): f is ChoiceParam => f.kind === 'choice' && !f.choices.includes(USER_SCHEME_ID));
  const dropped = dropDamagedCode(
    query,
    schemeChoices.map((f) => f.name),
    (name) => name,
    (name) => findScheme(schemeChoices.find((f) => f.name === name)!.default)?.title ?? 'its default',
  );
  const own = decode(fields, query);
  const page = pageProblems(query, fields);
  return { value: own.value, errors: [...page.errors, ...dropped, ...own.errors], ignored: page.ignored };
}

/** A view's URL query: its name, then its fields that differ from their defaults (nothing else it was given). */
export function encodeView(view: ViewId, fields: readonly Field[], value: StateValues): URLSearchParams {
  return encode([VIEW_FIELD, ...fields], { view, ...value });
}
