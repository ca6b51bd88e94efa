/**
 * Every TypeScript example in docs/ compiles under `tsc --strict` against
 * the package's built types, as a game in strict TypeScript would compile it
 * (the "pieces" example in runtime.md once failed with TS7006 and TS7034).
 * Needs dist/ (`npm run build`; `npm test` builds first).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileTypeScriptExamples, root, type CompiledExamples } from './typescript-examples.test-helper.js';

let compiled: CompiledExamples;

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does).');
  compiled = compileTypeScriptExamples();
}, 120_000);

afterAll(() => compiled?.dispose());

describe('the TypeScript examples in docs/', () => {
  it('there are examples in embedding.md and runtime.md', () => {
    const docs = new Set(compiled.examples.map((e) => e.doc));
    expect(docs).toContain('embedding.md');
    expect(docs).toContain('runtime.md');
  });

  it('every one compiles with tsc --strict against the built package', () => {
    expect(compiled.errors).toEqual([]);
    for (const example of compiled.examples) expect(existsSync(compiled.outputOf(example)), `${example.doc}:${example.line}`).toBe(true);
  });
});
