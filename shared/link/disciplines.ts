import type { NumberParam } from '../controllers/types.ts';
import { codel } from './codel.ts';
import type { DisciplineEntry, SettingsOf } from './discipline.ts';
import { dropHead, dropTail } from './fifo.ts';
import { dualPi2 } from './dualPi2.ts';
import { fqCodel } from './fqCodel.ts';
import { pie } from './pie.ts';
import { red } from './red.ts';

/**
 * Every queue discipline, in the order pickers and --help list them. A new discipline is a file that
 * exports its entry (see defineDiscipline) and one line here; the link's schema, its values, the spec
 * and the queue built for it all follow from this table.
 */
export const DISCIPLINE_TABLE = [dropTail, dropHead, codel, pie, red, fqCodel, dualPi2] as const;

/** A discipline with its settings, as the link spec holds it. */
export type Discipline = SettingsOf<(typeof DISCIPLINE_TABLE)[number]>;
export type DisciplineKind = Discipline['kind'];

export const DISCIPLINES: readonly DisciplineKind[] = DISCIPLINE_TABLE.map((d) => d.kind);

/** The table with each entry's settings untyped, for code that treats every discipline alike. */
export const DISCIPLINE_ENTRIES = DISCIPLINE_TABLE as unknown as readonly DisciplineEntry<DisciplineKind>[];

/** The entry for `kind`; drop-tail for a kind no discipline has (a spec without one means drop-tail). */
export function disciplineEntry(kind: string | undefined): DisciplineEntry<DisciplineKind> {
  return DISCIPLINE_ENTRIES.find((d) => d.kind === kind) ?? DISCIPLINE_ENTRIES[0];
}

/** A discipline's link parameters, in the order it declares them. */
export const disciplineParams = (d: DisciplineEntry): NumberParam[] => Object.values<NumberParam>(d.params);

/** Every discipline's link parameters, each once. */
export const ALL_DISCIPLINE_PARAMS: readonly NumberParam[] = DISCIPLINE_ENTRIES.flatMap(disciplineParams);
