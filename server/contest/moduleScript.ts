import { parser } from '@lezer/javascript';
import { type Edit, withEdits } from '../../shared/controllers/userCode.ts';

/**
 * A controller module's text as a script a compartment evaluates (a compartment runs scripts, not modules):
 * each `export` becomes a plain declaration and the default export is assigned to DEFAULT. Every replaced
 * character becomes a space (`DEFAULT=` is as long as `export default`), so the user's lines and columns
 * stay where they were and errors point where the sim's do.
 */

export const DEFAULT = '__pipefillDef';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

const blank = (s: string) => s.replace(/[^\n]/g, ' ');

/** The edits one top-level `export …` needs, and what to append after the module (a named default's assignment). */
function exportEdits(code: string, node: SyntaxNode): { edits: Edit[]; tail: string } {
  const kw = node.firstChild!;
  const next = kw.nextSibling;
  if (next?.name === 'default') {
    const decl = next.nextSibling;
    const named = decl && (decl.name === 'FunctionDeclaration' || decl.name === 'ClassDeclaration') ? decl.getChild('VariableDefinition') : null;
    if (named) return { edits: [{ from: kw.from, to: next.to, text: blank(code.slice(kw.from, next.to)) }], tail: `${DEFAULT} = ${code.slice(named.from, named.to)};` };
    const span = code.slice(kw.from, next.to);
    return { edits: [{ from: kw.from, to: next.to, text: `${DEFAULT}=`.padEnd(span.length, ' ') }], tail: '' };
  }
  if (next?.name === 'ExportGroup') {
    const group = code.slice(next.from, next.to);
    const local = /([\w$]+)\s+as\s+default\b/.exec(group)?.[1];
    return { edits: [{ from: node.from, to: node.to, text: blank(code.slice(node.from, node.to)) }], tail: local ? `${DEFAULT} = ${local};` : '' };
  }
  return { edits: [{ from: kw.from, to: kw.to, text: blank(code.slice(kw.from, kw.to)) }], tail: '' };
}

/** The module as a function body that returns its default export; line 1 of the module is line 2 of the script. */
export function moduleAsScript(code: string): string {
  const edits: Edit[] = [];
  const tails: string[] = [];
  for (let n = parser.parse(code).topNode.firstChild; n; n = n.nextSibling) {
    if (n.name !== 'ExportDeclaration') continue;
    const e = exportEdits(code, n);
    edits.push(...e.edits);
    if (e.tail) tails.push(e.tail);
  }
  const out = withEdits(code, edits);
  return `(() => { let ${DEFAULT};\n${out}\n;${tails.join('')} return ${DEFAULT}; })()`;
}

/**
 * The names the module reads but never declares (outside `typeof`): V8 throws a ReferenceError when such a
 * read runs, where a compartment reads undefined, so the sandbox makes each read throw as V8 does. A name
 * declared anywhere in the module counts as declared.
 */
export function undeclaredNames(code: string): string[] {
  const declared = new Set<string>(['arguments']);
  const read = new Set<string>();
  parser.parse(code).iterate({
    enter(n) {
      const name = code.slice(n.from, n.to);
      if (n.name === 'VariableDefinition') declared.add(name);
      const parent = n.node.parent;
      const inTypeof = parent?.name === 'UnaryExpression' && code.startsWith('typeof', parent.from);
      if (n.name === 'VariableName' && !inTypeof) read.add(name);
    },
  });
  return [...read].filter((name) => !declared.has(name));
}
