/**
 * The embedder's spatial queries (`world.nearby`, `inRect`, `nearest`) and
 * typed hot fields (`world.stat`): the same answers spells get from the same
 * index, checked against brute force on both partitions.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import { WorldError } from '../errors.js';
import type { EntityId } from '../events/events.js';
import { World } from './world.js';

const SIZE = 40;

function worldOf(partition: 'grid' | 'axis', points: readonly (readonly [number, number, boolean])[]): { world: World; ids: EntityId[] } {
  const world = new World({ width: SIZE, height: SIZE, capacity: 256, partition, cellSize: 5 });
  world.loadSpells(
    `spell around(self) { var s = ""; for (e in nearby(self, 8)) s = s + str(e.id) + " "; return s; }
     spell closest(self) { var e = nearest(self, 12, "monster"); if (e == nil) return -1; return e.id; }
     spell slow(self) { buff(self, "speed", -1, 10); }`,
    'probe.spell',
  );
  world.loadBreeds({ breeds: [{ name: 'Rock', speed: 2 }, { name: 'Troll', health: 30, speed: 3, tags: ['monster'] }, { name: 'Cave Troll', parent: 'Troll' }] });
  const ids = points.map(([x, y, troll]) => world.spawn(troll ? 'Cave Troll' : 'Rock', x, y));
  return { world, ids };
}

const coord = fc.double({ min: 0, max: SIZE, noNaN: true });
const pointsArb = fc.array(fc.tuple(coord, coord, fc.boolean()), { maxLength: 60 });
/** The squared distance, the index's own test (dx² + dy² ≤ r²). */
const distance2 = (world: World, id: EntityId, x: number, y: number): number => (world.stat(id, 'x') - x) ** 2 + (world.stat(id, 'y') - y) ** 2;

describe('World spatial queries', () => {
  for (const partition of ['grid', 'axis'] as const) {
    it(`${partition}: nearby, inRect and nearest agree with brute force`, () => {
      fc.assert(
        fc.property(pointsArb, coord, coord, fc.double({ min: 0, max: 20, noNaN: true }), (points, x, y, r) => {
          const { world, ids } = worldOf(partition, points);
          const near = world.nearby(x, y, r);
          expect([...near].sort((a, b) => a - b)).toEqual(ids.filter((id) => distance2(world, id, x, y) <= r * r));
          for (let i = 1; i < near.length; i++) expect(distance2(world, near[i - 1]!, x, y)).toBeLessThanOrEqual(distance2(world, near[i]!, x, y));
          const [x0, x1, y0, y1] = [Math.min(x, r * 2), Math.max(x, r * 2), Math.min(y, r), Math.max(y, r)];
          expect(world.inRect(x0, y0, x1, y1)).toEqual(
            ids.filter((id) => world.stat(id, 'x') >= x0 && world.stat(id, 'x') <= x1 && world.stat(id, 'y') >= y0 && world.stat(id, 'y') <= y1),
          );
          const trolls = ids.filter((id) => world.entity(id)!.breed === 'Cave Troll');
          const found = world.nearest(x, y, r, { of: 'Troll' });
          const best = Math.min(...trolls.map((id) => distance2(world, id, x, y)).filter((d2) => d2 <= r * r));
          if (found === null) expect(best).toBe(Infinity);
          else expect(distance2(world, found, x, y)).toBe(best);
        }),
        { numRuns: 60 },
      );
    });

    it(`${partition}: the same answers a spell gets (within, nearest)`, () => {
      const points: [number, number, boolean][] = [];
      for (let i = 0; i < 40; i++) points.push([(i * 7.3) % SIZE, (i * 3.1) % SIZE, i % 3 === 0]);
      const { world, ids } = worldOf(partition, points);
      for (const id of ids) {
        const [x, y] = [world.stat(id, 'x'), world.stat(id, 'y')];
        expect(world.cast('around', id).result).toBe(world.nearby(x, y, 8).map((near) => `${near} `).join(''));
        expect(world.cast('closest', id).result).toBe(world.nearest(x, y, 12, { of: 'monster', exclude: id }) ?? -1);
      }
    });
  }

  it('nearest without a radius searches the whole world; exclude leaves the asker out', () => {
    const { world, ids } = worldOf('grid', [
      [1, 1, false],
      [39, 39, true],
    ]);
    expect(world.nearest(1, 1)).toBe(ids[0]);
    expect(world.nearest(1, 1, undefined, { exclude: ids[0]! })).toBe(ids[1]);
    expect(world.nearest(1, 1, 5, { exclude: ids[0]! })).toBeNull();
    world.despawn(ids[1]!);
    expect(world.nearby(39, 39, 1)).toEqual([]);
  });

  it('refuses a position that is not finite or a negative radius, naming the call', () => {
    const { world } = worldOf('grid', []);
    expect(() => world.nearby(Number.NaN, 0, 1)).toThrow(new WorldError('nearby() needs a finite position, got (NaN, 0).'));
    expect(() => world.nearby(0, 0, -1)).toThrow(new WorldError('nearby() needs a radius ≥ 0, got -1.'));
    expect(() => world.inRect(0, 0, Infinity, 1)).toThrow(/inRect\(\) needs a finite position/);
    expect(() => world.nearest(0, 0, Number.NaN)).toThrow(/nearest\(\) needs a radius/);
  });
});

describe('world.stat: the hot fields as numbers', () => {
  it('reads what a spell reads, derived stats with their buffs, typed as number', () => {
    const { world, ids } = worldOf('grid', [[3, 4, true]]);
    const troll = ids[0]!;
    expectTypeOf(world.stat(troll, 'health')).toEqualTypeOf<number>();
    expect([world.stat(troll, 'x'), world.stat(troll, 'y'), world.stat(troll, 'health'), world.stat(troll, 'maxHealth')]).toEqual([3, 4, 30, 30]);
    world.cast('slow', troll);
    expect(world.stat(troll, 'speed')).toBe(2);
    expect(world.stat(troll, 'speed')).toBe(world.property(troll, 'speed'));
    world.setVelocity(troll, 1.5, -2);
    expect([world.stat(troll, 'vx'), world.stat(troll, 'vy')]).toEqual([1.5, -2]);
  });

  it('refuses an entity that is not alive and a name that is not a hot field', () => {
    const { world, ids } = worldOf('grid', [[3, 4, false]]);
    world.despawn(ids[0]!);
    expect(() => world.stat(ids[0]!, 'x')).toThrow(new WorldError(`#${ids[0]} is not a living entity.`));
    const { world: other, ids: more } = worldOf('grid', [[3, 4, false]]);
    expect(() => other.stat(more[0]!, 'armor' as 'x')).toThrow(/'armor' is not one \(property\(\) reads the others\)/);
  });
});
