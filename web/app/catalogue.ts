import type { PageCatalogue } from '../state/catalogue.ts';
import { EXERCISES } from '../teach/exercises.ts';

/** What this page's URL may name: its guided exercises. */
export const PAGE_CATALOGUE: PageCatalogue = { exercises: EXERCISES.map((x) => x.id) };
