/** World.cast's fourth argument is a list; anything else (the old `{ fuel }`) is a WorldError saying what it takes. */
import { describe, expect, it } from 'vitest';
import { WorldError } from '../errors.js';
import type { Value } from '../../vm/value.js';
import { World } from './world.js';

function world(): { world: World; wizard: number } {
  const w = new World({ width: 10, height: 10 });
  w.loadSpells('spell bolt(caster, target, power) { print power; }', 'bolt.spell');
  w.loadBreeds({ breeds: [{ name: 'Wizard' }] });
  return { world: w, wizard: w.spawn('Wizard', 1, 1) };
}

describe('World.cast arguments', () => {
  it('a list follows the caster and the target', () => {
    const { world: w, wizard } = world();
    expect(w.cast('bolt', wizard, null, [3]).state).toBe('done');
  });

  it.each([
    [{ fuel: 100 }, 'not an object'],
    [7, 'not a number'],
    ['fast', 'not a string'],
    [null, 'not null'],
  ])('%j is a WorldError saying it takes a list', (extra, got) => {
    const { world: w, wizard } = world();
    const cast = (): unknown => w.cast('bolt', wizard, null, extra as unknown as Value[]);
    expect(cast).toThrow(WorldError);
    expect(cast).toThrow(
      `World.cast takes the spell's further arguments as a list, after the caster and the target: cast(spell, caster, target, [arg, …]), ${got}. Budgets such as fuel are the world's: new World({ budgets: { fuel } }).`,
    );
  });
});
