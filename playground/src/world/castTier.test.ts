import { describe, expect, it } from 'vitest';
import { World } from '../../../runtime/world/world.js';
import { describeTier, type TierProbe } from './castTier.js';

const probe = (world: World, spell: string): TierProbe => ({ compiled: world.tierOf(spell) === 'compiled', words: world.spellVm(spell)!.compileStats.words });

describe('which tier ran a cast', () => {
  it("says both when a looping spell's first cast compiled its loop mid-cast (a real World)", () => {
    const world = new World({ width: 10, height: 10, budgets: { fuel: 5_000_000 } });
    world.loadSpells('spell spin(caster, target) {\n  var total = 0;\n  for (var i = 0; i < 20000; i = i + 1) total = total + i;\n  print total;\n}\n', 'spin.cantrip');
    const before = probe(world, 'spin');
    expect(before).toEqual({ compiled: false, words: 0 });
    const result = world.cast('spin', null, null);
    expect(result.error?.message ?? null).toBeNull();
    expect(result.state).toBe('done');
    const after = probe(world, 'spin');
    // The spell itself is still on the interpreter: only its loop was compiled.
    expect(after.compiled).toBe(false);
    expect(after.words).toBeGreaterThan(0);
    expect(describeTier(before, after, false)).toMatch(/^ran on both: the interpreter, then compiled code/);
  });

  it('says the interpreter when nothing was compiled, compiled code when the spell was compiled before the cast', () => {
    const none: TierProbe = { compiled: false, words: 0 };
    expect(describeTier(none, none, false)).toBe('ran on the interpreter');
    expect(describeTier(none, { compiled: true, words: 40 }, false)).toBe('ran on both: the interpreter, then compiled code — the spell got hot and was compiled mid-cast');
    expect(describeTier({ compiled: true, words: 40 }, { compiled: true, words: 40 }, false)).toBe('ran on compiled code');
    expect(describeTier({ compiled: false, words: 12 }, { compiled: false, words: 12 }, true)).toMatch(/^ran on the interpreter, and on the code an earlier cast compiled/);
  });
});
