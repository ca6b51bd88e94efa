/** Issue 17: world.cast and world.spawn with a name that is not a string throw a WorldError, not a JavaScript TypeError. */
import { describe, expect, it } from 'vitest';
import { WorldError } from '../errors.js';
import { World } from './world.js';

function world(): World {
  const w = new World({ width: 20, height: 20 });
  w.loadSpells('spell zap(caster, target) { damage(target, 1); }', 'zap.spell');
  w.loadBreeds({ breeds: [{ name: 'Rock', health: 10 }] });
  return w;
}

describe('names that are not strings', () => {
  const names: readonly [unknown, string][] = [
    [42, 'a number (42)'],
    [null, 'null'],
    [undefined, 'undefined'],
    [{ name: 'zap' }, 'an object'],
    [10n, 'a bigint'],
  ];

  it.each(names)('world.cast(%s) throws a WorldError naming what it got', (name, what) => {
    const w = world();
    const rock = w.spawn('Rock', 1, 1);
    expect(() => w.cast(name as string, rock, rock)).toThrow(new WorldError(`A spell name must be a string, not ${what}.`));
    expect(w.cast('zap', rock, rock).state).toBe('done');
    expect(w.entity(rock)!.health).toBe(9);
  });

  it.each(names)('world.spawn(%s) throws a WorldError', (name, what) => {
    const w = world();
    expect(() => w.spawn(name as string, 1, 1)).toThrow(new WorldError(`A breed name must be a string, not ${what}.`));
    expect(w.pool.count).toBe(0);
  });

  it('the spell object itself is not a name', () => {
    const w = world();
    const spell = w.spellVm('zap')!.module.spells[0];
    expect(() => w.cast(spell as unknown as string)).toThrow(WorldError);
  });
});
