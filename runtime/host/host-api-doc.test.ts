import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { GAME_HOST_FUNCTIONS, WORLD_HOST_FUNCTIONS } from './host-api.js';
import { renderHostApiTable, withHostApiTable } from './host-api-doc.js';

const docUrl = new URL('../../docs/runtime.md', import.meta.url);

describe('docs/runtime.md', () => {
  it('lists the host API exactly as host-api.ts defines it', () => {
    const doc = readFileSync(docUrl, 'utf8');
    const current = withHostApiTable(doc, GAME_HOST_FUNCTIONS);
    // UPDATE_DOCS=1 npx vitest run runtime/host-api-doc.test.ts rewrites the section.
    if (process.env.UPDATE_DOCS === '1' && current !== doc) writeFileSync(docUrl, current);
    expect(doc).toBe(current);
    expect(doc).toContain(renderHostApiTable(GAME_HOST_FUNCTIONS));
  });

  it('every spell example in it compiles against the world host API', () => {
    const doc = readFileSync(docUrl, 'utf8');
    const blocks = [...doc.matchAll(/^```spell\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThan(0);
    for (const source of blocks) {
      const { diagnostics } = compile(source, { hosts: WORLD_HOST_FUNCTIONS });
      expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    }
  });

  it('every host function has docs and typed parameters', () => {
    for (const fn of GAME_HOST_FUNCTIONS) {
      expect(fn.doc.length).toBeGreaterThan(10);
      expect(new Set(fn.params.map((p) => p.name)).size).toBe(fn.params.length);
    }
  });
});
