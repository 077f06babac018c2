import type { SchemeCatalogue } from '../../shared/controllers/registry.ts';

/**
 * What a page's URL may name besides settings the state defines itself: the schemes (the built-ins, and
 * the user's once the editor checked it) and the guided exercises, by id. The page hands it in, so the
 * state holds no teaching content and finds no scheme anywhere else.
 */
export interface PageCatalogue {
  schemes: SchemeCatalogue;
  exercises: readonly string[];
}
