import type { SchemeCatalogue } from '../../shared/controllers/registry.ts';

/**
 * What a page's URL may name besides settings the state defines itself: the schemes (the built-ins, and
 * the user's once the editor checked it) and the guided exercises, by id; and the traces it may not (its
 * relay holds them out). The page hands it in, so the state holds no teaching content, finds no scheme
 * anywhere else and asks no relay.
 */
export interface PageCatalogue {
  schemes: SchemeCatalogue;
  exercises: readonly string[];
  /** The bundled traces the page's relay holds out for its class contest: it serves none of their files. */
  heldOutTraces: readonly string[];
}
