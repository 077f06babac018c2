import type { ParamSpec } from '../../shared/controllers/types.ts';
import { type FlagSpec, flagName, shapeOf } from './flags.ts';

/** The --help lines of a tool's flags, in columns: name, what it takes, what it does and its default. */

const defaultOf = (p: FlagSpec) => (p.kind === 'list' || p.kind === 'switch' || p.default === null ? '' : ` (default ${p.default})`);
const NAME_WIDTH = 20;
const SHAPE_WIDTH = 26;
/** Where the doc starts: after "  --", the name, a space, the shape and a space. */
const DOC_COLUMN = 4 + NAME_WIDTH + 1 + SHAPE_WIDTH + 1;

/** One line per flag: its name, what it takes, what it does and its default; a long shape gets its own line. */
export function flagHelp(specs: readonly FlagSpec[]): string {
  return specs
    .map((p) => {
      const head = `  --${flagName(p.name).padEnd(NAME_WIDTH)} ${shapeOf(p)}`;
      const doc = `${p.doc}${defaultOf(p)}`;
      return head.length < DOC_COLUMN ? `${head.padEnd(DOC_COLUMN)}${doc}` : `${head}\n${' '.repeat(DOC_COLUMN)}${doc}`;
    })
    .join('\n');
}

/** A schema's flags under a heading of their own. */
export function schemaHelp(specs: readonly ParamSpec[], title: string): string {
  return `${title}:\n${flagHelp(specs)}`;
}
