/**
 * What a page's URL may name besides settings the state defines itself: the guided exercises, by id.
 * The page hands it in, so the state holds no teaching content.
 */
export interface PageCatalogue {
  exercises: readonly string[];
}
