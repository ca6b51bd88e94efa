import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { VM } from '../../vm/vm.js';
import { createCantripEngine } from './engines/cantrip.js';
import { createNodeEngine } from './engines/js.js';
import { createWasmoonEngine } from './engines/lua.js';
import { generateSpellSource } from './generate-spell.js';
import { BENCHMARKS, readExpected, readProgram } from './suite.js';

// The harness rejects any engine whose checksum differs; these tests keep the
// Lua and JS versions of each program honest against the .expected file.
describe('benchmark programs', () => {
  it.each(BENCHMARKS.map((b) => b.name))('%s.js prints the expected checksum on node', (name) => {
    expect(createNodeEngine().run(readProgram(name, 'js'))).toEqual(readExpected(name));
  });

  it.each(BENCHMARKS.map((b) => b.name))('%s.lua prints the expected checksum on wasmoon', async (name) => {
    const lua = await createWasmoonEngine();
    try {
      expect(lua.run(readProgram(name, 'lua'))).toEqual(readExpected(name));
    } finally {
      lua.dispose();
    }
  });

  it.each(BENCHMARKS.map((b) => b.name))('%s.spell compiles without diagnostics', (name) => {
    expect(compile(readProgram(name, 'spell')).diagnostics).toEqual([]);
  });

  it('maps.spell prints the expected checksum on the Cantrip VM', () => {
    expect(createCantripEngine({ compile, VM }).run(readProgram('maps', 'spell'))).toEqual(readExpected('maps'));
  });
});

describe('generated compile-throughput source', () => {
  it('has exactly the requested number of lines, with classes, functions and spells', () => {
    const source = generateSpellSource(10_000);
    expect(source.split('\n').length - 1).toBe(10_000);
    expect(source).toMatch(/^class Unit0 \{/m);
    expect(source).toMatch(/^spell strike0\(caster, target\) \{/m);
    expect(source).toMatch(/^fun makeCounter0\(\) \{/m);
  });

  it('compiles without diagnostics', () => {
    const result = compile(generateSpellSource(10_000));
    expect(result.diagnostics).toEqual([]);
    expect(result.module?.spells.length).toBeGreaterThan(100);
  });
});
