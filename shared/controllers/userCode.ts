import { parser } from '@lezer/javascript';

/**
 * A user's controller module as source text, made ready to load: every loop body starts with a call of
 * the time guard (so an endless loop in a callback ends with a message instead of hanging the worker or
 * the CLI), and positions in the loaded text map back to the user's own lines and columns.
 */

/** The global the instrumented loops call; the wrapper of the user's callbacks defines it. */
export const TICK = '__pipefillTick';

/** The user's code failed: where (callback, line, column, all 1-based when known) and why. */
export class UserCodeError extends Error {
  constructor(
    readonly detail: string,
    readonly callback: string | null = null,
    readonly line: number | null = null,
    readonly column: number | null = null,
  ) {
    const where = [callback ? `in ${callback}` : '', line !== null ? `at line ${line}${column !== null ? `, column ${column}` : ''}` : ''].filter(Boolean).join(' ');
    super(`your controller${where ? ` ${where}` : ''}: ${detail}`);
  }
}

export interface Position {
  line: number;
  column: number;
}

export interface PreparedCode {
  /** The text to load (the user's, with the loop guards). */
  code: string;
  /** A position in `code` as the user's own position. */
  original(p: Position): Position;
}

const LOOPS = new Set(['ForStatement', 'WhileStatement', 'DoStatement']);

/**
 * A controller is one self-contained module: loading another (`import … from`, `import()`, `export … from`)
 * would fetch it from the network, which the worker gives user code none of.
 */
const importsModule = (n: { name: string; node: { getChild(name: string): unknown } }) =>
  n.name === 'ImportDeclaration' || n.name === 'DynamicImport' || (n.name === 'ExportDeclaration' && n.node.getChild('from') !== null);

/** A replacement of `text.slice(from, to)`; edits in order, none overlapping. */
export interface Edit {
  from: number;
  to: number;
  text: string;
}

/** The text with each edit's span replaced by its text. */
export function withEdits(text: string, edits: readonly Edit[]): string {
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += text.slice(at, e.from) + e.text;
    at = e.to;
  }
  return out + text.slice(at);
}

const lineStarts = (text: string) => {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
};

function positionAt(starts: number[], offset: number): Position {
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
  return { line: line + 1, column: offset - starts[line] + 1 };
}

/**
 * Parses the source; a syntax error throws with its position. The parser recovers from errors, so the
 * first error node is where the text stops being JavaScript.
 */
export function prepareUserCode(source: string): PreparedCode {
  const tree = parser.parse(source);
  const inserts: { at: number; text: string }[] = [];
  let error = -1;
  let imports = -1;
  tree.iterate({
    enter(n) {
      if (n.type.isError && error < 0) error = n.from;
      if (imports < 0 && importsModule(n)) imports = n.from;
      if (!LOOPS.has(n.name)) return;
      const body = n.name === 'DoStatement' ? n.node.firstChild?.nextSibling : n.node.lastChild;
      if (!body || body.type.isError) return;
      inserts.push({ at: body.from, text: `{${TICK}();` }, { at: body.to, text: '}' });
    },
  });
  const starts = lineStarts(source);
  if (error >= 0) {
    const p = positionAt(starts, error);
    throw new UserCodeError('syntax error (the code is not valid JavaScript here)', null, p.line, p.column);
  }
  if (imports >= 0) {
    const p = positionAt(starts, imports);
    throw new UserCodeError('a controller cannot load other modules (it runs with no network): keep all its code in this one', null, p.line, p.column);
  }
  inserts.sort((a, b) => a.at - b.at);
  const code = withEdits(
    source,
    inserts.map((i) => ({ from: i.at, to: i.at, text: i.text })),
  );
  const codeStarts = lineStarts(code);
  return {
    code,
    original({ line, column }) {
      let offset = (codeStarts[line - 1] ?? 0) + column - 1;
      let shift = 0;
      for (const ins of inserts) {
        if (ins.at + shift + ins.text.length > offset) break;
        shift += ins.text.length;
      }
      offset -= shift;
      return positionAt(starts, offset);
    },
  };
}

/**
 * Where in the module at `url` an error was thrown, from the engine's stack text (V8 writes
 * "url:line:column"; a module that failed to parse starts its stack with "url:line").
 */
export function locate(error: unknown, url: string, prepared: PreparedCode | null): Position | null {
  const stack = error instanceof Error ? String(error.stack ?? '') : '';
  const at = stack.indexOf(`${url}:`);
  if (at < 0) return null;
  const m = /^:(\d+)(?::(\d+))?/.exec(stack.slice(at + url.length));
  if (!m) return null;
  const p = { line: Number(m[1]), column: m[2] ? Number(m[2]) : 1 };
  return prepared ? prepared.original(p) : p;
}
