import { describe, expect, it } from 'vitest';
import { WORLD_HOST_FUNCTIONS } from '../../runtime/host/host-api.js';
import { DEFAULT_BREEDS_JSON, loadBreedsJson } from './breedsData.js';
import { MAX_LIVE_SOURCE, compileSpell, createVm, describeFailure } from './engine.js';
import { LanguageService } from '../../compiler/service/index.js';
import { languageWorld } from '../../runtime/entities/language-world.js';
import type { BreedRegistry } from '../../runtime/entities/breeds.js';

/** A language service for the world API, with breeds or without. */
const service = (breeds: BreedRegistry | null = null) => new LanguageService(languageWorld(WORLD_HOST_FUNCTIONS, breeds));

describe('the playground engine', () => {
  it('compiles against the world host API and reports markers', () => {
    const ok = compileSpell(service(), 'spell f(caster, target) { damage(target, 3); }\n');
    expect(ok.module?.spells.map((s) => s.name)).toEqual(['f']);
    const bad = compileSpell(service(), 'spell f(caster, target) {\n  damage(target);\n}\n');
    expect(bad.module).toBeNull();
    expect(bad.markers[0]).toMatchObject({ severity: 'error', startLineNumber: 2 });
  });

  it('refuses sources too large to compile live, with a message instead of a stall', () => {
    const huge = compileSpell(service(), 'x'.repeat(MAX_LIVE_SOURCE + 1));
    expect(huge.module).toBeNull();
    expect(huge.diagnostics).toHaveLength(1);
    expect(huge.diagnostics[0]!.message).toMatch(/compiles up to 1\.0 MB/);
  });

  it('runs with a finite budget: an infinite loop ends with a fuel error naming its line', () => {
    const { module } = compileSpell(service(), 'var n = 0;\nwhile (true) n = n + 1;\n');
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
    const outcome = compileSpell(service(loaded.registry), source);
    expect(outcome.module).not.toBeNull();
    const warning = outcome.diagnostics.find((d) => d.message.includes('wisdm'));
    expect(warning).toMatchObject({ severity: 'warning', line: 2 });
    expect(warning!.message).toMatch(/did you mean 'wisdom'\?/);
    expect(outcome.markers).toContainEqual(expect.objectContaining({ severity: 'warning', startLineNumber: 2 }));
    // A property the breeds define, and no breeds at all, give no such warning.
    const known = compileSpell(service(loaded.registry), source.replace('wisdm', 'wisdom'));
    expect(known.diagnostics.filter((d) => d.message.includes('No breed'))).toEqual([]);
    expect(compileSpell(service(), source).diagnostics.filter((d) => d.message.includes('wisdm'))).toEqual([]);
  });
});
