/**
 * Every TypeScript example in docs/ compiles under `tsc --strict` against
 * the package's built types, as a game in strict TypeScript would compile it
 * (the "pieces" example in runtime.md once failed with TS7006 and TS7034),
 * both in an ES module project and in a CommonJS one, as the README says
 * the package works from both (`const { module } = compile(…)` once broke
 * every CommonJS file that copied it). Every example that stands on its own
 * — one that declares no value it leaves to the reader (`declare const
 * world: World`) — also runs, with the same output both ways.
 * Needs dist/ (`npm run build`; `npm test` builds first).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTypeScriptExamples, root, type CompiledExamples, type ModuleKind, type TypeScriptExample } from './typescript-examples.test-helper.js';

const compiled = new Map<ModuleKind, CompiledExamples>();

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  for (const kind of ['module', 'commonjs'] as const) compiled.set(kind, compileTypeScriptExamples(kind));
}, 240_000);

afterAll(() => {
  for (const c of compiled.values()) c.dispose();
});

const esm = (): CompiledExamples => compiled.get('module')!;
const cjs = (): CompiledExamples => compiled.get('commonjs')!;

/** An example that declares a value (`declare const vm: VM`) is a fragment of a game: compiled, not run. */
const standsAlone = (example: TypeScriptExample): boolean => !/\bdeclare\s+(?:const|let|var)\b/.test(example.context + example.code);

describe('the TypeScript examples in docs/', () => {
  it('there are examples in embedding.md and runtime.md', () => {
    const docs = new Set(esm().examples.map((e) => e.doc));
    expect(docs).toContain('embedding.md');
    expect(docs).toContain('runtime.md');
  });

  it.each(['module', 'commonjs'] as const)('every one compiles with tsc --strict against the built package, in a project of "type": "%s"', (kind) => {
    const c = compiled.get(kind)!;
    expect(c.errors).toEqual([]);
    for (const example of c.examples) expect(existsSync(c.outputOf(example)), `${example.doc}:${example.line}`).toBe(true);
  });

  it('every one loads as CommonJS: `node --check` of its output, which names a top-level `module` or `require` (CommonJS’s own) as a SyntaxError tsc lets through', () => {
    for (const example of cjs().examples) {
      const check = spawnSync(process.execPath, ['--check', cjs().outputOf(example)], { encoding: 'utf8' });
      expect(check.stderr.split('\n').find((line) => line.startsWith('SyntaxError')) ?? '', `${example.doc}:${example.line}`).toBe('');
      expect(check.status, `${example.doc}:${example.line}`).toBe(0);
    }
  });

  it('every one that stands alone runs, the same as an ES module and as CommonJS', () => {
    const runnable = esm().examples.filter(standsAlone);
    expect(runnable.map((e) => e.doc)).toEqual(expect.arrayContaining(['embedding.md', 'runtime.md']));
    for (const [i, example] of runnable.entries()) {
      const where = `${example.doc}:${example.line}`;
      const asModule = esm().run(example);
      expect(cjs().run(cjs().examples.filter(standsAlone)[i]!), where).toBe(asModule);
    }
  });
});
