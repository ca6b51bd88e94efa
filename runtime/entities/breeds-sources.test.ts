/**
 * Breeds from several sources, as cantrip.json lists breeds files: a later
 * source adds breeds and may extend an earlier one's; a name defined twice is
 * a BreedError naming both sources; a world refuses new breeds once it has
 * entities, with a BreedError too (loading never throws anything else).
 */
import { describe, expect, it } from 'vitest';
import { BreedRegistry, type BreedData } from './breeds.js';
import { BreedError } from '../errors.js';
import { World } from '../world/world.js';

const BASE: BreedData = { breeds: [{ name: 'Monster', health: 20, attributes: { armor: 2 } }, { name: 'Wizard', health: 10 }] };
const DLC: BreedData = { breeds: [{ name: 'Ice Troll', parent: 'Monster', speed: 1, attributes: { frost: true } }] };

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

describe('BreedRegistry.adding', () => {
  it('adds the breeds of one more source after these; a child may name a parent from an earlier source', () => {
    const registry = BreedRegistry.fromData(BASE, 'base.json').adding(JSON.stringify(DLC), 'dlc.json');
    expect(registry.breeds.map((b) => [b.name, b.index])).toEqual([
      ['Monster', 0],
      ['Wizard', 1],
      ['Ice Troll', 2],
    ]);
    const troll = registry.get('Ice Troll')!;
    expect([troll.health, troll.speed, troll.attributes.get('armor'), troll.attributes.get('frost')]).toEqual([20, 1, 2, true]);
    expect(troll.ancestry).toEqual(['Ice Troll', 'Monster']);
    expect(registry.sourceCount).toBe(2);
    // A snapshot keeps every source's breeds together, which load back as the same breeds.
    expect(BreedRegistry.fromData(registry.source).breeds.map((b) => b.name)).toEqual(['Monster', 'Wizard', 'Ice Troll']);
  });

  it('a name defined in two sources is a BreedError naming both', () => {
    const error = thrown(() => BreedRegistry.fromData(BASE, 'base.json').adding({ breeds: [{ name: 'Wizard', health: 12 }] }, 'dlc.json'));
    expect(error).toBeInstanceOf(BreedError);
    expect(error).toMatchObject({ message: "Breed 'Wizard': field 'name' is defined in both base.json and dlc.json.", breed: 'Wizard', field: 'name' });
  });

  it('twice in one source keeps its message', () => {
    expect(() => BreedRegistry.fromData({ breeds: [{ name: 'A' }, { name: 'A' }] })).toThrow("Breed 'A': field 'name' duplicates an earlier breed.");
  });

  it('leaves the registry it was called on as it was', () => {
    const base = BreedRegistry.fromData(BASE);
    base.adding(DLC);
    expect(base.breeds.map((b) => b.name)).toEqual(['Monster', 'Wizard']);
  });
});

describe('World.loadBreeds', () => {
  it('a second call adds breeds, and they may extend the first call’s', () => {
    const world = new World({ width: 10, height: 10 });
    world.loadBreeds(BASE);
    world.loadBreeds(DLC);
    expect(world.breeds.breeds.map((b) => b.name)).toEqual(['Monster', 'Wizard', 'Ice Troll']);
    const id = world.spawn('Ice Troll', 1, 1);
    expect(world.property(id, 'armor')).toBe(2);
    expect(world.entity(id)!.health).toBe(20);
  });

  it('takes a list, as cantrip.json does', () => {
    const world = new World({ width: 10, height: 10 });
    world.loadBreeds([JSON.stringify(BASE), DLC]);
    expect(world.breeds.get('Ice Troll')!.parent).toBe('Monster');
  });

  it('a name defined twice names both sources: given names, else the order they were loaded in', () => {
    const named = new World({ width: 10, height: 10 });
    named.loadBreeds(BASE, 'base.json');
    expect(thrown(() => named.loadBreeds({ breeds: [{ name: 'Monster' }] }, 'more.json'))).toMatchObject({
      name: 'BreedError',
      message: "Breed 'Monster': field 'name' is defined in both base.json and more.json.",
    });
    const unnamed = new World({ width: 10, height: 10 });
    expect(thrown(() => unnamed.loadBreeds([BASE, DLC, { breeds: [{ name: 'Wizard' }] }]))).toMatchObject({
      message: "Breed 'Wizard': field 'name' is defined in both breeds #1 and breeds #3.",
    });
  });

  it('loads nothing when any source fails', () => {
    const world = new World({ width: 10, height: 10 });
    expect(thrown(() => world.loadBreeds([BASE, JSON.stringify({ breeds: [{ name: 'Bad', health: 'lots' }] })]))).toBeInstanceOf(BreedError);
    expect(() => world.breeds).toThrow('No breeds are loaded.');
    world.loadBreeds(BASE);
    expect(thrown(() => world.loadBreeds({ breeds: [{ name: 'Orphan', parent: 'Nobody' }] }))).toMatchObject({
      message: "Breed 'Orphan': field 'parent' names unknown breed 'Nobody'.",
    });
    expect(world.breeds.breeds.map((b) => b.name)).toEqual(['Monster', 'Wizard']);
  });

  it('after a spawn: a BreedError, and the breeds stay as they were', () => {
    const world = new World({ width: 10, height: 10 });
    world.loadBreeds(BASE);
    world.spawn('Wizard', 1, 1);
    const error = thrown(() => world.loadBreeds(DLC));
    expect(error).toBeInstanceOf(BreedError);
    expect((error as BreedError).message).toBe('Load breeds before spawning entities (this world has 1 living entity).');
    expect(world.breeds.breeds).toHaveLength(2);
  });

  it('a world of two sources saves and restores with every breed', () => {
    const world = new World({ width: 10, height: 10 });
    world.loadBreeds(BASE);
    world.loadBreeds(DLC);
    world.spawn('Ice Troll', 2, 2);
    const restored = World.restore(JSON.parse(JSON.stringify(world.snapshot())));
    expect(restored.breeds.breeds.map((b) => b.name)).toEqual(['Monster', 'Wizard', 'Ice Troll']);
    expect(restored.entities().map((e) => e.breed)).toEqual(['Ice Troll']);
  });
});
