import { describe, expect, it } from 'vitest';
import { compile } from '../../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../../runtime/host/host-api.js';
import type { Module } from '../../../vm/module.js';
import { breakableLines } from './breakableLines.js';
import { lineMoves, sameCode } from './lineMoves.js';

function moduleOf(source: string): Module {
  const { module, diagnostics } = compile(source, { hosts: WORLD_HOST_FUNCTIONS });
  if (!module) throw new Error(diagnostics.map((d) => d.message).join('\n'));
  return module;
}

const SPELL = 'spell zap(caster, target) {\n  var a = 2;\n  print a;\n}\n';

describe('a reload with only comments or blank lines changed', () => {
  it('is the same code; lines map both ways', () => {
    const moved = lineMoves(moduleOf(SPELL), moduleOf('// a note\n' + SPELL.replace('  print a;', '\n  print a; // shown')));
    expect(moved).not.toBeNull();
    expect(moved!.toEditor(2)).toBe(3);
    expect(moved!.toEditor(3)).toBe(5);
    expect(moved!.toCode(5)).toEqual([3]);
    expect(moved!.toCode(4)).toEqual([]);
  });

  it('is not the same code when a statement, a constant or a helper changed', () => {
    expect(sameCode(moduleOf(SPELL), moduleOf(SPELL.replace('var a = 2', 'var a = 3')))).toBe(false);
    expect(lineMoves(moduleOf(SPELL), moduleOf(SPELL.replace('print a;', 'print a; print a;')))).toBeNull();
    expect(sameCode(moduleOf('fun f() { return 1; }\n' + SPELL), moduleOf('fun f() { return 2; }\n' + SPELL))).toBe(false);
  });
});

describe('breakable lines', () => {
  it("are the lines of the spells' and functions' code, not top-level lines nor the end of the file", () => {
    const source = '// header\nspell zap(caster, target) {\n  var a = 1;\n\n  print a;\n}\n\nfun pick(a, b) {\n  return b;\n}\nvar top = 1;\n';
    expect(breakableLines(moduleOf(source))).toEqual([3, 5, 6, 9, 10]);
  });
});
