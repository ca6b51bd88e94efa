/**
 * The entity's built-in fields are declared once (entity-fields.ts); what is
 * derived from the declarations — the pool's arrays, the world's reads and
 * writes, EntityView, buffs, breeds and the snapshot — follows each of them.
 */

import { describe, expect, it } from 'vitest';
import type { WorldEvent } from '../events/events.js';
import { World } from '../world/world.js';
import { BreedRegistry } from './breeds.js';
import { EntityPool, POOL_ARRAYS } from './entity-pool.js';
import { BUFFABLE_FIELDS, BUILTIN_ENTITY_PROPERTIES, ENTITY_FIELDS, HOT_FIELDS, POOL_FIELDS, READ_ONLY_FIELDS } from './entity-fields.js';

function worldWith(spells: string): { world: World; errors: string[] } {
  const world = new World({ width: 100, height: 100, step: 0.1 });
  world.loadBreeds({ breeds: [{ name: 'Golem', health: 50, speed: 2, radius: 1, interest: 5, attributes: { armor: 3 } }] });
  world.loadSpells(spells, 'fields.spell');
  const errors: string[] = [];
  world.on((e) => {
    const event = e as WorldEvent;
    if (event.type === 'cast-error') errors.push(event.message);
  });
  return { world, errors };
}

describe('entity fields, declared once', () => {
  it('give the pool one typed array of the declared kind per stored field, then its bookkeeping', () => {
    const pool = new EntityPool({ capacity: 4, policy: 'grow' });
    for (const f of ENTITY_FIELDS) {
      if (f.storage === null) continue;
      expect(pool[f.name as (typeof POOL_FIELDS)[number]]).toBeInstanceOf(f.storage === 'Int32' ? Int32Array : Float64Array);
    }
    expect(POOL_ARRAYS.slice(0, POOL_FIELDS.length)).toEqual(POOL_FIELDS);
    const slot = pool.indexOf(pool.spawn());
    pool.health[slot] = 7;
    for (let i = 0; i < 4; i++) pool.spawn(); // grows: the arrays are replaced, the values kept
    expect(pool.capacity).toBe(8);
    expect(pool.health[slot]).toBe(7);
    expect(Object.keys(pool.exportState().arrays)).toEqual([...POOL_ARRAYS]);
  });

  it('every writable field a spell assigns is stored and read back by world.stat; the others are read-only', () => {
    const writable = ENTITY_FIELDS.filter((f) => f.writable).map((f) => f.name);
    const assigns = writable.map((name) => `self.${name} = 3;`).join(' ');
    const { world, errors } = worldWith(`spell set(self, t) { ${assigns} }`);
    const golem = world.spawn('Golem', 50, 50);
    world.cast('set', golem);
    world.flush();
    expect(errors).toEqual([]);
    for (const name of HOT_FIELDS) expect([name, world.stat(golem, name)]).toEqual([name, 3]);
    for (const name of READ_ONLY_FIELDS) {
      const ro = worldWith(`spell set(self, t) { self.${name} = 1; }`);
      ro.world.cast('set', ro.world.spawn('Golem', 1, 1));
      ro.world.flush();
      expect(ro.errors).toEqual([`Property '${name}' is read-only.`]);
    }
  });

  it('EntityView shows id, breed and every stat field', () => {
    const { world } = worldWith('spell noop(self, t) {}');
    const golem = world.spawn('Golem', 10, 20);
    expect(Object.keys(world.entity(golem)!).sort()).toEqual(['id', 'breed', ...HOT_FIELDS].sort());
  });

  it('a buff changes the buffable fields and refuses the other built-in numbers', () => {
    const { world, errors } = worldWith(`spell boost(self, t, stat) { buff(self, stat, 1, 10); }`);
    const golem = world.spawn('Golem', 10, 20);
    for (const name of HOT_FIELDS) {
      const before = world.stat(golem, name);
      world.cast('boost', golem, null, [name]);
      world.flush();
      if (BUFFABLE_FIELDS.has(name)) expect([name, world.stat(golem, name)]).toEqual([name, before + 1]);
    }
    expect(errors).toEqual(HOT_FIELDS.filter((n) => !BUFFABLE_FIELDS.has(n)).map((n) => `Cannot buff '${n}': it is not a numeric stat of this entity.`));
  });

  it('no breed attribute may hide a built-in property', () => {
    for (const name of BUILTIN_ENTITY_PROPERTIES) {
      expect(() => BreedRegistry.fromData({ breeds: [{ name: 'Odd', attributes: { [name]: 1 } }] })).toThrow(name);
    }
  });
});
