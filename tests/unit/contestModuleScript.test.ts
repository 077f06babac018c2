import { describe, expect, it } from 'vitest';
import { DEFAULT, moduleAsScript, undeclaredNames } from '../../server/contest/moduleScript.ts';

/** The script a compartment evaluates keeps every line and column of the module, and returns its default export. */
const body = (script: string) => script.split('\n').slice(1, -1).join('\n');
const run = (module: string) => new Function(`return ${moduleAsScript(module)}`)();

describe('a controller module as a compartment script', () => {
  it('assigns an expression default in place, padded to the width of `export default`', () => {
    expect(`${DEFAULT}=`.length).toBe('export default'.length);
    expect(body(moduleAsScript('export default { a: 1 };'))).toBe(`${`${DEFAULT}=`.padEnd(14)} { a: 1 };`);
    expect(run('export default { a: 1 };')).toEqual({ a: 1 });
  });

  it('keeps a named function or class declared (hoisted) and assigns it after the module', () => {
    const script = moduleAsScript('export default function make() { return helper(); }\nfunction helper() { return 7; }');
    expect(body(script)).toBe(`${' '.repeat(15)}function make() { return helper(); }\nfunction helper() { return 7; }`);
    expect(run('export default function make() { return helper(); }\nfunction helper() { return 7; }')()).toBe(7);
    expect(run('export default class A { static x = 2 }').x).toBe(2);
  });

  it('drops `export` before other declarations, and reads a default from an export list', () => {
    expect(body(moduleAsScript('export const x = 1;'))).toBe('       const x = 1;');
    expect(run('const c = { w: 3 };\nexport { c as default };')).toEqual({ w: 3 });
    expect(run('export const x = 1;')).toBeUndefined();
  });

  it('names what the module reads and never declares, but for typeof operands and arguments', () => {
    const code = 'const a = 1; function f(p, { q }) { let r = p + q + z; return typeof y + w.x + a + arguments.length; } const g = (u) => u + v + Math.max(1, 2);';
    expect(undeclaredNames(code)).toEqual(['z', 'w', 'v', 'Math']);
  });
});
