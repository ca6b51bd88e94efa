import { describe, expect, it } from 'vitest';
import { compile } from '../../../compiler/index.js';
import { WORLD_HOST_FUNCTIONS } from '../../../runtime/host/host-api.js';
import type { Module } from '../../../vm/module.js';
import { parameterName, readsParameter } from './spellParameters.js';

function module(source: string): Module {
  const result = compile(source, { hosts: WORLD_HOST_FUNCTIONS });
  if (!result.module) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.module;
}

describe('readsParameter', () => {
  it('finds a target read directly, through a property, or captured by a closure', () => {
    expect(readsParameter(module('spell a(caster, target) { damage(target, 1); }'), 'a', 1)).toBe(true);
    expect(readsParameter(module('spell a(caster, target) { print target.x; }'), 'a', 1)).toBe(true);
    expect(readsParameter(module('spell a(caster, target) { fun f() { return target; } print f(); }'), 'a', 1)).toBe(true);
    expect(readsParameter(module('spell a(caster, target) { target = nil; }'), 'a', 1)).toBe(true);
  });

  it('knows a spell that never touches its target (or has none)', () => {
    const m = module('spell horde(caster, target) {\n  for (var i = 0; i < 3; i += 1) spawn("Troll", i, i);\n  print caster;\n}\nspell solo(caster) { print caster; }');
    expect(readsParameter(m, 'horde', 1)).toBe(false);
    expect(readsParameter(m, 'horde', 0)).toBe(true);
    expect(readsParameter(m, 'solo', 1)).toBe(false);
    expect(readsParameter(m, 'nope', 1)).toBe(false);
    expect(parameterName(m, 'horde', 1)).toBe('target');
    expect(parameterName(module('spell zap(me, victim) { print victim; }'), 'zap', 1)).toBe('victim');
  });
});
