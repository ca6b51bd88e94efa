import { describe, expect, it } from 'vitest';
import { WORLD_HOST_FUNCTIONS } from '../runtime/host/host-api.js';
import { compile } from './compile.js';
import { nearestName } from './entity-property-check.js';

const KNOWN = ['x', 'y', 'health', 'maxHealth', 'wisdom', 'armor', 'is'];

function warnings(source: string, known: readonly string[] | null = KNOWN): string[] {
  const { diagnostics } = compile(source, { hosts: WORLD_HOST_FUNCTIONS, ...(known ? { entityProperties: known } : {}) });
  return diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.line}:${d.column} ${d.message}`);
}

describe('entity property warnings (compiler given the breeds)', () => {
  it('warns about a property no breed defines on a spell parameter, with the nearest name', () => {
    expect(warnings('spell zap(caster, target) {\n  damage(target, caster.wisdm);\n}')).toEqual([
      "2:25 No breed has a property 'wisdm'; did you mean 'wisdom'?",
    ]);
    expect(warnings('spell zap(caster, target) { print target.zzzzzzzz; }')).toEqual([
      "1:42 No breed has a property 'zzzzzzzz'.",
    ]);
  });

  it('stays silent for known, built-in and spell-set names, and without breeds', () => {
    expect(warnings('spell zap(c, t) { print c.wisdom + t.health; print t.is("troll"); }')).toEqual([]);
    expect(warnings('spell mark(c, t) { t.marked = true; }\nspell check(c, t) { print t.marked; }')).toEqual([]);
    expect(warnings('spell zap(c, t) { print c.wisdm; }', null)).toEqual([]);
  });

  it('only looks at parameters that are only ever the parameter', () => {
    expect(warnings('spell zap(c, t) { t = c; print t.wisdm; }')).toEqual([]);
    expect(warnings('spell zap(c, t) { { var t = "s"; } print t.wisdm; }')).toEqual([]);
    expect(warnings('fun helper(c) { print c.wisdm; }')).toEqual([]);
    expect(warnings('spell zap(c, t) { fun inner() { return t.wisdm; } }')).toHaveLength(1);
  });

  it('finds typos by edit distance, transpositions included', () => {
    expect(nearestName('wsidom', KNOWN)).toBe('wisdom');
    expect(nearestName('helth', KNOWN)).toBe('health');
    expect(nearestName('completelydifferent', KNOWN)).toBeNull();
  });
});
