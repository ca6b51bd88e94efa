import { describe, expect, it } from 'vitest';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host-api.js';
import { MAX_LIVE_SOURCE, compileSpell, createVm, describeFailure } from './engine.js';

describe('the playground engine', () => {
  it('compiles against the world host API and reports markers', () => {
    const ok = compileSpell('spell f(caster, target) { damage(target, 3); }\n', WORLD_HOST_FUNCTIONS);
    expect(ok.module?.spells.map((s) => s.name)).toEqual(['f']);
    const bad = compileSpell('spell f(caster, target) {\n  damage(target);\n}\n', WORLD_HOST_FUNCTIONS);
    expect(bad.module).toBeNull();
    expect(bad.markers[0]).toMatchObject({ severity: 'error', startLineNumber: 2 });
  });

  it('refuses sources too large to compile live, with a message instead of a stall', () => {
    const huge = compileSpell('x'.repeat(MAX_LIVE_SOURCE + 1), WORLD_HOST_FUNCTIONS);
    expect(huge.module).toBeNull();
    expect(huge.diagnostics).toHaveLength(1);
    expect(huge.diagnostics[0]!.message).toMatch(/compiles up to 1\.0 MB/);
  });

  it('runs with a finite budget: an infinite loop ends with a fuel error naming its line', () => {
    const { module } = compileSpell('var n = 0;\nwhile (true) n = n + 1;\n', WORLD_HOST_FUNCTIONS);
    const vm = createVm(module!, WORLD_HOST_FUNCTIONS, () => {});
    if (!('runScript' in vm)) throw new Error(vm.text);
    const fiber = vm.runScript();
    expect(fiber.state).toBe('failed');
    const failure = describeFailure(fiber.error);
    expect(failure.message).toMatch(/fuel/i);
    expect(failure.line).toBe(2);
  });
});
