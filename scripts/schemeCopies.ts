import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { rolldown } from 'rolldown';
import type { Plugin as VitePlugin } from 'vite';
import { SCHEMES } from '../shared/controllers/registry.ts';

/**
 * "Edit a copy": the readable JavaScript module a student edits, made from the built-in's own TypeScript
 * at build time. The scheme's file and the helpers it imports are bundled into one self-contained module
 * (types stripped, comments kept, only what it uses), ending in the `export default { title, params,
 * create(params, random) }` the editor loads. So a copy is the built-in by construction.
 */

const CONTROLLERS = resolve(import.meta.dirname, '../shared/controllers');
const ENTRY = '\0copy';

/** Every built-in scheme defined in shared/controllers: its id, the file that defines it and the name it is exported as. */
export function builtInSources(): { id: string; file: string; name: string }[] {
  const found = [];
  for (const f of readdirSync(CONTROLLERS).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(CONTROLLERS, f), 'utf8');
    for (const m of text.matchAll(/export const (\w+) = defineScheme\(\{\s*id: '([^']+)'/g)) found.push({ id: m[2], file: join(CONTROLLERS, f), name: m[1] });
  }
  return found;
}

/** The module the bundle ends in: the built-in's scheme as a user module, drawing its randomness from the page's `random()`. */
const entryModule = (file: string, name: string, title: string) => `import { ${name} as builtIn } from ${JSON.stringify(file)};
import { DrawnRng } from ${JSON.stringify(resolve(CONTROLLERS, '../sim/rng.ts'))};

export default {
  title: ${JSON.stringify(`${title} (my copy)`)},
  mode: builtIn.mode,
  params: builtIn.params,
  create: (params, random) => builtIn.create(params, new DrawnRng(random)),
};
`;

const titleOf = (id: string) => SCHEMES.find((s) => s.id === id)?.title ?? id;

/** The copy of one built-in scheme, by id; null for an id no built-in has. */
export async function schemeCopy(id: string): Promise<string | null> {
  const source = builtInSources().find((s) => s.id === id);
  if (!source) return null;
  const entry = { name: 'scheme-copy-entry', resolveId: (x: string) => (x === ENTRY ? x : null), load: (x: string) => (x === ENTRY ? entryModule(source.file, source.name, titleOf(id)) : null) };
  const bundle = await rolldown({ input: ENTRY, plugins: [entry], logLevel: 'silent' });
  try {
    const { output } = await bundle.generate({
      format: 'esm',
      banner: `// ${titleOf(id)} (my copy): the built-in ${id}, made from ${source.file.slice(source.file.indexOf('shared/'))} and the helpers it uses.\n// Its module (\`export default { title, params, create }\`) is at the end.`,
    });
    return asUserModule(output[0].code);
  } finally {
    await bundle.close();
  }
}

/** The bundle's last module as the editor's modules end: `export default { … }`, said to be the student's to change. */
function asUserModule(code: string): string {
  const start = code.lastIndexOf('\n// \\0copy\n');
  const m = /^var (\w+) = \{([\s\S]*?)\n\};\nexport \{ \1 as default \};\n*$/.exec(code.slice(start + '\n// \\0copy\n'.length));
  if (start < 0 || !m) throw new Error('the copy does not end in its default export as expected');
  return `${code.slice(0, start)}\n// Yours to change: the controller's class and helpers above, its parameters, and what create makes.\nexport default {${m[2]}\n};\n`;
}

const VIRTUAL = 'virtual:scheme-copies';

/**
 * The copies for the page: `virtual:scheme-copies` maps each built-in's id to a loader of its copy's
 * text, generated when asked for, so the page's first run loads none of them.
 */
export function schemeCopiesPlugin(): VitePlugin {
  return {
    name: 'scheme-copies',
    resolveId: (id) => (id === VIRTUAL || id.startsWith(`${VIRTUAL}/`) ? `\0${id}` : null),
    async load(id) {
      if (id === `\0${VIRTUAL}`) {
        const loaders = builtInSources().map((s) => `${JSON.stringify(s.id)}: () => import(${JSON.stringify(`${VIRTUAL}/${s.id}`)}).then((m) => m.default)`);
        return `export const COPIES = {\n${loaders.join(',\n')}\n};\n`;
      }
      if (!id.startsWith(`\0${VIRTUAL}/`)) return null;
      for (const s of builtInSources()) this.addWatchFile(s.file);
      return `export default ${JSON.stringify(await schemeCopy(id.slice(VIRTUAL.length + 2)))};\n`;
    },
  };
}
