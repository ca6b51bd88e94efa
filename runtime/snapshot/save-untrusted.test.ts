/**
 * Issue 17, part 4: a save game is untrusted input. One regression test per
 * repro: each ends in a WorldError naming the field, or in a world that runs
 * within the embedder's budgets. Repros that needed gigabytes to show are
 * tested by the error and by what was allocated before it (no stack at all),
 * not by eating memory.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compile } from '../../compiler/index.js';
import { Fiber } from '../../vm/fiber.js';
import { writeSpb } from '../../vm/spb.js';
import { WorldError } from '../errors.js';
import type { WorldEvent } from '../events/events.js';
import { World, type RestoreOptions } from '../world/world.js';
import { bytesToBase64, type WorldSnapshot } from './world-snapshot.js';

const BREEDS = { breeds: [{ name: 'Rock', health: 100, interest: 3 }, { name: 'Spinner', health: 10, spells: { tick: 'spin' } }] };
const SPELLS = `
spell spin(self, dt) { self.turns = dt; }
spell chant(caster) { wait(1); return 1; }
spell hoard(caster) { var xs = []; while (true) { xs.append(1); wait(0.1); } }
`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function world(spells = SPELLS): World {
  const w = new World({ width: 40, height: 40 });
  w.loadSpells(spells, 'game.spell');
  w.loadBreeds(BREEDS);
  return w;
}

/** A JSON copy of a world's snapshot, as a file or a wire would give it. */
function save(w: World): Json {
  return JSON.parse(JSON.stringify(w.snapshot())) as Json;
}

function edited(base: Json, edit: (d: Json) => void): WorldSnapshot {
  const d = structuredClone(base);
  edit(d);
  return d as WorldSnapshot;
}

function refusal(data: unknown, options?: RestoreOptions): string {
  try {
    World.restore(data as WorldSnapshot, options);
  } catch (error) {
    expect(error).toBeInstanceOf(WorldError);
    return (error as Error).message;
  }
  throw new Error('restored');
}

/** Every stack size a restore asks a fiber for. */
function stackSizes(): number[] {
  const sizes: number[] = [];
  const grow = Fiber.prototype.growStack;
  vi.spyOn(Fiber.prototype, 'growStack').mockImplementation(function (this: Fiber, needed: number) {
    sizes.push(needed);
    grow.call(this, needed);
  });
  return sizes;
}

/** Only the re-run top-level script got a stack (a small one): none was made for a forged fiber. */
function expectNoForgedStack(sizes: readonly number[]): void {
  expect(sizes.length).toBeLessThanOrEqual(1);
  expect(Math.max(0, ...sizes)).toBeLessThan(100);
}

afterEach(() => vi.restoreAllMocks());

describe('budgets are the embedder’s, not the save’s', () => {
  /** A world whose tick spell never ends. */
  function spinning(): Json {
    const w = world('spell spin(self, dt) { while (true) {} }');
    w.spawn('Spinner', 5, 5);
    return save(w);
  }

  it.each([['x', 'a number or null'], [{}, 'a number or null'], [true, 'a number or null'], [-1, 'at least 0']])(
    'a budget of %j is refused, naming the field',
    (value, wanted) => {
      const data = edited(spinning(), (d) => (d.options.budgets.fuel = value));
      expect(refusal(data)).toBe(`The world snapshot is malformed: $.options.budgets.fuel must be ${wanted}.`);
    },
  );

  it('an unlimited budget in the save (null) is the embedder’s: the first step after restore ends', () => {
    const data = edited(spinning(), (d) => {
      for (const key of Object.keys(d.options.budgets)) d.options.budgets[key] = null;
    });
    const restored = World.restore(data);
    expect(restored.options.budgets.fuel).toBe(1_000_000);
    const events: WorldEvent[] = [];
    restored.on((e) => events.push(e));
    restored.step();
    expect(events.find((e) => e.type === 'cast-error')).toMatchObject({ message: expect.stringMatching(/^Out of fuel/) });
  });

  it('a save carries at most what the embedder allows, and keeps lower budgets of its own', () => {
    const w = new World({ width: 10, height: 10, budgets: { fuel: 5_000, maxHeap: 10_000_000_000 }, maxWorldHeap: 1e12 });
    const data = save(w);
    const restored = World.restore(data as WorldSnapshot, { budgets: { fuel: 1e9, maxHeap: 1_000 }, maxWorldHeap: 5_000 });
    expect(restored.options.budgets.fuel).toBe(5_000);
    expect(restored.options.budgets.maxHeap).toBe(1_000);
    expect(restored.options.maxWorldHeap).toBe(5_000);
    expect(World.restore(data as WorldSnapshot).options.maxWorldHeap).toBe(32_000_000);
  });

  it('a world with an unlimited maxWorldHeap restores (JSON writes Infinity as null)', () => {
    const data = save(new World({ width: 10, height: 10, maxWorldHeap: Infinity }));
    expect(data.options.maxWorldHeap).toBeNull();
    expect(World.restore(data as WorldSnapshot, { maxWorldHeap: Infinity }).options.maxWorldHeap).toBe(Infinity);
  });

  it('World options refuse budgets that are not numbers, and budgets that do not exist', () => {
    expect(() => new World({ width: 10, height: 10, budgets: { fuel: 'x' as unknown as number } })).toThrow(
      new WorldError("World option 'budgets.fuel' must be a number ≥ 0 (Infinity for no limit), not a string."),
    );
    expect(() => new World({ width: 10, height: 10, budgets: { maxHeap: NaN } })).toThrow(/'budgets.maxHeap' must be a number ≥ 0/);
    expect(() => new World({ width: 10, height: 10, budgets: { fule: 5 } as never })).toThrow(/has no budget 'fule' \(the budgets are fuel, maxFrames/);
    expect(() => World.restore(save(world()) as WorldSnapshot, { budgets: { fuel: null as unknown as number } })).toThrow(/'budgets.fuel' must be a number/);
  });
});

describe('sizes are checked before anything is allocated', () => {
  /** A save whose module declares `maxStack` slots for `chant`, with `count` casts of it waiting. */
  function forged(maxStack: number, count: number): Json {
    const w = world();
    const caster = w.spawn('Rock', 1, 1);
    w.cast('chant', caster);
    const data = save(w);
    const module = compile(SPELLS, { sourceName: 'game.spell', hosts: w.hosts }).module!;
    const chant = module.spells.find((s) => s.name === 'chant')!.functionIndex;
    (module.functions[chant] as { maxStack: number }).maxStack = maxStack;
    data.spells = [{ sourceName: 'game.spell', spb: bytesToBase64(writeSpb(module)) }];
    const vm = data.spellState.vms[0].state;
    vm.fibers = new Array(count).fill(vm.fibers[0]);
    data.spellState.casts = new Array(count).fill(0).map((_, i) => ({ ...data.spellState.casts[0], fiber: i, seq: i }));
    data.castSeq = count;
    for (const key of Object.keys(data.options.budgets)) data.options.budgets[key] = null;
    return data;
  }

  it('1,000 forged fibers of a function declaring 2^20 stack slots: refused by maxStack, no stack allocated', () => {
    const data = forged(1 << 20, 1_000);
    const sizes = stackSizes();
    expect(refusal(data)).toMatch(
      /^The world snapshot is malformed: \$\.spellState\.vms\[0\]\.state\.fibers\[0\]\.frames: the frames need 104857\d stack slots, more than the maxStack budget \(65536\)\.$/,
    );
    expectNoForgedStack(sizes);
  });

  it('3,000 fibers within maxStack each: refused by what the world heap has left, before any stack is made', () => {
    const data = forged(60_000, 3_000);
    const sizes = stackSizes();
    expect(refusal(data)).toMatch(
      /^The world snapshot is malformed: \$\.spellState\.vms\[0\]\.state\.fibers: the fibers would hold 18\d{7} heap units \(stacks and allocations\), more than the 3\d{7} the budget leaves\.$/,
    );
    expectNoForgedStack(sizes);
  });

  it('more forged fibers than maxFibers: refused before any is made', () => {
    const data = forged(16, 50);
    const sizes = stackSizes();
    expect(refusal(data, { budgets: { maxFibers: 20 } })).toBe(
      'The world snapshot is malformed: $.spellState.vms[0].state.fibers: 50 fibers, more than the maxFibers budget (20) allows with 0 alive.',
    );
    expectNoForgedStack(sizes);
  });

  it('a pool bigger than the embedder’s maxCapacity, or with arrays that do not fit it, is refused before the pool is made', () => {
    const data = save(world());
    expect(refusal(edited(data, (d) => (d.pool.capacity = 1 << 24)))).toBe('The world snapshot is malformed: $.pool.capacity: 16777216 slots, more than maxCapacity (65536) allows.');
    expect(refusal(edited(data, (d) => (d.pool.capacity = 60_000)))).toBe('The world snapshot is malformed: $.pool.arrays.x: 1024 values, the pool has 60000 slots.');
  });

  it('a structured clone whose shared objects stand for a huge tree is refused by its size before it is read', () => {
    const data = save(world());
    let node: unknown = data.entities;
    for (let i = 0; i < 40; i++) node = [node, node]; // 2^40 copies of the entities in a few hundred bytes
    data.aoi.observers = node;
    expect(refusal(data, { maxSnapshotChars: 1_000_000 })).toMatch(
      /^The world snapshot is malformed: \$\.aoi\.observers(\[[01]\])+.*: the data is larger than 1000000 characters of JSON allow\.$/,
    );
    const cyclic = save(world());
    cyclic.entities.push(cyclic);
    expect(refusal(cyclic)).toBe('The world snapshot is malformed: $.entities[0] holds itself (a cycle): not data a snapshot can have.');
  });

  it('a forged fiber’s huge heap count is refused by maxHeap', () => {
    const w = world();
    w.cast('chant', w.spawn('Rock', 1, 1));
    const data = edited(save(w), (d) => (d.spellState.vms[0].state.fibers[0].heapUsed = 1e15));
    expect(refusal(data)).toBe('The world snapshot is malformed: $.spellState.vms[0].state.fibers[0].heapUsed: 1000000000000000 heap units, more than the maxHeap budget (16000000).');
  });
});

describe('entity data is type-checked', () => {
  function withRock(): Json {
    const w = world();
    const rock = w.spawn('Rock', 2, 2);
    w.setProperty(rock, 'note', 'hello');
    w.cast('chant', rock);
    return save(w);
  }

  const cases: [string, (d: Json) => void, string][] = [
    ['a field named by a number (the world heap count went NaN)', (d) => d.entities[0].fields.push([5, 1]), '$.entities[0].fields[1][0] must be a string.'],
    ['modifiers: [null]', (d) => (d.entities[0].modifiers = [null]), '$.entities[0].modifiers[0] must be an object.'],
    ['a base stat of {}', (d) => (d.entities[0].baseSpeed = {}), '$.entities[0].baseSpeed must be a number.'],
    ['a base stat of "x"', (d) => (d.entities[0].baseMaxHealth = 'x'), '$.entities[0].baseMaxHealth must be a number.'],
    [
      'a modifier amount of [1, 2]',
      (d) => (d.entities[0].modifiers = [{ stat: 'speed', amount: [1, 2], expiresAt: 5, seconds: 5, seq: 0 }]),
      '$.entities[0].modifiers[0].amount must be a number.',
    ],
    ['an object as a field value', (d) => (d.entities[0].fields[0][1] = { id: 3 }), '$.entities[0].fields[0][1] must be a field value: null, a boolean, a finite number, a string, {"entity": id} or {"number": "NaN" | "Infinity" | "-Infinity"}.'],
    ['an entity reference with more in it', (d) => (d.entities[0].fields[0][1] = { entity: 1, x: 2 }), '$.entities[0].fields[0][1] must be a field value: null, a boolean, a finite number, a string, {"entity": id} or {"number": "NaN" | "Infinity" | "-Infinity"}.'],
    ['nextId: 1 (two entities would share an id)', (d) => (d.nextId = 1), "$.nextId: 1 is the id of $.entities[0]: the next entity spawned would share it."],
    ['steps: "x" (time would be NaN)', (d) => (d.steps = 'x'), '$.steps must be a whole number.'],
    ['time: null', (d) => (d.time = null), '$.time must be a number.'],
    ['a duplicate entity id', (d) => d.entities.push({ ...d.entities[0], slot: 5 }), '$.entities: 2 entities, the pool holds 1.'],
    ['a field set twice', (d) => d.entities[0].fields.push(d.entities[0].fields[0]), "$.entities[0].fields[1][0]: the field 'note' appears twice."],
    ['a BigInt', (d) => (d.accumulator = 1n), '$.accumulator must be a number.'],
    ['a cycle', (d) => (d.entities[0].fields[0][1] = d.entities[0]), '$.entities[0].fields[0][1] holds itself (a cycle): not data a snapshot can have.'],
    ['a buff newer than castSeq', (d) => (d.entities[0].modifiers = [{ stat: 'speed', amount: 1, expiresAt: 5, seconds: 5, seq: 1e6 }]), `$.entities[0].modifiers[0].seq: 1000000 is not below castSeq (1).`],
  ];

  it.each(cases)('%s is refused, naming the field', (_name, edit, message) => {
    expect(refusal(edited(withRock(), edit))).toBe(`The world snapshot is malformed: ${message}`);
  });

  it('more buff modifiers than a spell can make (64) are refused: 65, and the issue’s 20,000', () => {
    const buff = (seq: number) => ({ stat: 'speed', amount: 1, expiresAt: 100, seconds: 100, seq });
    for (const n of [65, 20_000]) {
      const data = edited(withRock(), (d) => {
        d.entities[0].modifiers = Array.from({ length: n }, (_, i) => buff(i));
        d.castSeq = n;
      });
      expect(refusal(data)).toBe('The world snapshot is malformed: $.entities[0].modifiers has more than 64 items.');
    }
    const ok = edited(withRock(), (d) => {
      d.entities[0].modifiers = Array.from({ length: 64 }, (_, i) => buff(i));
      d.castSeq = 64;
    });
    const restored = World.restore(ok);
    expect(restored.entities()[0]!.speed).toBe(64);
  });

  it('entity fields past maxWorldHeap are refused before they are counted', () => {
    const data = edited(withRock(), (d) => d.entities[0].fields.push(['big', 'x'.repeat(5_000)]));
    expect(refusal(data, { maxWorldHeap: 4_000 })).toBe('The world snapshot is malformed: $.entities: the entities\' fields hold 5020 heap units, more than maxWorldHeap (4000).');
  });
});

describe('a world’s own save restores', () => {
  it('when a module’s top-level script spawns entities (breeds load before the script re-runs)', () => {
    const w = new World({ width: 20, height: 20 });
    w.loadBreeds({ breeds: [{ name: 'Rock', health: 100 }] });
    w.loadSpells('var boss = spawn("Rock", 5, 5);\nspell bossHealth() { return boss.health; }\nspell hitBoss() { damage(boss, 7); wait(1); damage(boss, 1); }', 'boss.spell');
    w.cast('hitBoss');
    w.step();
    const restored = World.restore(save(w) as WorldSnapshot);
    expect(restored.pool.count).toBe(1);
    expect(restored.entities().map((e) => e.id)).toEqual(w.entities().map((e) => e.id));
    expect(restored.cast('bossHealth').result).toBe(93);
    for (let i = 0; i < 12; i++) {
      w.step();
      restored.step();
    }
    expect(restored.cast('bossHealth').result).toBe(92);
    expect(w.cast('bossHealth').result).toBe(92);
    expect(JSON.stringify(restored.snapshot()) === JSON.stringify(w.snapshot())).toBe(true);
  });

  it('a module whose globals the save does not hold runs its script once the entities are back (its spawns are real)', () => {
    const w = new World({ width: 20, height: 20 });
    w.loadBreeds({ breeds: [{ name: 'Rock', health: 100 }] });
    w.loadSpells('var boss = spawn("Rock", 5, 5);\nspell bossId() { return boss.id; }\nspell hit() { damage(boss, 7); }', 'boss.spell');
    w.cast('hit');
    // As the playground's hot swap does: new code, the world's entities, no saved globals.
    const data = edited(save(w), (d) => (d.spellState = { vms: [], casts: [] }));
    const restored = World.restore(data);
    const ids = restored.entities().map((e) => e.id);
    expect(ids).toEqual([1, 2]);
    expect(restored.entity(1)!.health).toBe(93);
    // The global names the entity the script spawned now, not whatever the save keeps in that slot.
    expect(restored.cast('bossId').result).toBe(2);
    expect(restored.entity(2)!.health).toBe(100);
  });
});
