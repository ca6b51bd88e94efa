import { describe, expect, it } from 'vitest';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { DEFAULT_BREEDS_JSON, loadBreedsJson } from './breedsData.js';
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

  it('warns about an entity property the loaded breeds do not define, with a suggestion', () => {
    const loaded = loadBreedsJson(DEFAULT_BREEDS_JSON);
    if (!loaded.ok) throw new Error('the default breeds should load');
    const source = 'spell f(caster, target) {\n  print(caster.wisdm);\n}\n';
    const outcome = compileSpell(source, WORLD_HOST_FUNCTIONS, loaded.registry.entityPropertyNames());
    expect(outcome.module).not.toBeNull();
    const warning = outcome.diagnostics.find((d) => d.message.includes('wisdm'));
    expect(warning).toMatchObject({ severity: 'warning', line: 2 });
    expect(warning!.message).toMatch(/did you mean 'wisdom'\?/);
    expect(outcome.markers).toContainEqual(expect.objectContaining({ severity: 'warning', startLineNumber: 2 }));
    // A property the breeds define, and no breeds at all, give no such warning.
    const known = compileSpell(source.replace('wisdm', 'wisdom'), WORLD_HOST_FUNCTIONS, loaded.registry.entityPropertyNames());
    expect(known.diagnostics.filter((d) => d.message.includes('No breed'))).toEqual([]);
    expect(compileSpell(source, WORLD_HOST_FUNCTIONS).diagnostics.filter((d) => d.message.includes('wisdm'))).toEqual([]);
  });
});
