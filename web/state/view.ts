import { choice } from '../../shared/controllers/types.ts';
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
  const own = decode(fields, query);
  const page = pageProblems(query, fields);
  return { value: own.value, errors: [...page.errors, ...own.errors], ignored: page.ignored };
}

/** A view's URL query: its name, then its fields that differ from their defaults (nothing else it was given). */
export function encodeView(view: ViewId, fields: readonly Field[], value: StateValues): URLSearchParams {
  return encode([VIEW_FIELD, ...fields], { view, ...value });
}
