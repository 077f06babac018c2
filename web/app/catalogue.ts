import type { SchemeCatalogue } from '../../shared/controllers/registry.ts';
import { pageSchemes } from '../editor/userCode.ts';
import { heldOutTraces } from './heldOutTraces.ts';
import type { PageCatalogue } from '../state/catalogue.ts';
import { EXERCISES } from '../teach/exercises.ts';

const EXERCISE_IDS = EXERCISES.map((x) => x.id);

/** What this page's URL may name: the page's schemes now (or those given) and its guided exercises; and the traces its relay holds out. */
export const pageCatalogue = (schemes: SchemeCatalogue = pageSchemes()): PageCatalogue => ({ schemes, exercises: EXERCISE_IDS, heldOutTraces: heldOutTraces() });
