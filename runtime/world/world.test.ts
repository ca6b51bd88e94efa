import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compile } from '../../compiler/index.js';
import { Debugger } from '../../vm/debugger.js';
import { displayValue } from '../../vm/display.js';
import { writeSpb } from '../../vm/spb.js';
import { BreedError, SpellsCompileError, WorldError } from '../errors.js';
import type { WorldEvent } from '../events/events.js';
import { WORLD_HOST_FUNCTIONS } from '../host/host-api.js';
import { World, type WorldOptions } from './world.js';
import type { BreedData } from '../entities/breeds.js';

const BREEDS: BreedData = {
  breeds: [
    { name: 'Thing', abstract: true, health: 10, speed: 2, attributes: { armor: 0 } },
    { name: 'Troll', parent: 'Thing', health: 25, interest: 3, tags: ['monster'], attributes: { attackText: 'The troll hits you!' } },
    { name: 'Troll Archer', parent: 'Troll', attributes: { attackText: 'The troll archer fires an arrow!' } },
    { name: 'Rock', parent: 'Thing', health: 100, speed: 0 },
  ],
};

function makeWorld(spells: string, options: Partial<WorldOptions> = {}): { world: World; events: WorldEvent[] } {
  const world = new World({ width: 50, height: 50, seed: 9, ...options });
  world.loadSpells(spells, 'test.spell');
  world.loadBreeds(BREEDS);
  const events: WorldEvent[] = [];
  world.on((e) => events.push(e));
  return { world, events };
}

const ofType = <T extends WorldEvent['type']>(events: WorldEvent[], type: T): Extract<WorldEvent, { type: T }>[] =>
  events.filter((e): e is Extract<WorldEvent, { type: T }> => e.type === type);

describe('World basics', () => {
  it('lists what an entity holds beyond its hot fields: breed attributes, then what spells set (fields)', () => {
    const { world } = makeWorld('spell mark(caster, target) { caster.armor = 5; caster.mood = "grim"; caster.foe = target; }');
    const archer = world.spawn('Troll Archer', 1, 1);
    const rock = world.spawn('Rock', 2, 2);
    expect(world.fields(archer)).toEqual([
      { name: 'armor', value: 0, setBy: 'breed' },
      { name: 'attackText', value: 'The troll archer fires an arrow!', setBy: 'breed' },
    ]);
    world.cast('mark', archer, rock);
    const fields = world.fields(archer);
    expect(fields.map((f) => [f.name, f.setBy])).toEqual([
      ['attackText', 'breed'],
      ['armor', 'spell'],
      ['mood', 'spell'],
      ['foe', 'spell'],
    ]);
    expect(fields.find((f) => f.name === 'armor')?.value).toBe(5);
    expect(displayValue(fields.find((f) => f.name === 'foe')!.value)).toBe(`<Rock #${rock}>`);
    world.despawn(archer);
    world.step();
    expect(world.fields(archer)).toEqual([]);
  });

  it('spawns from breeds, refuses abstract and unknown breeds', () => {
    const { world } = makeWorld('');
    const id = world.spawn('Troll Archer', 3, 4);
    expect(world.entity(id)).toMatchObject({ breed: 'Troll Archer', x: 3, y: 4, health: 25, maxHealth: 25, speed: 2, interest: 3 });
    expect(world.property(id, 'attackText')).toBe('The troll archer fires an arrow!');
    expect(() => world.spawn('Thing', 0, 0)).toThrow(/abstract/);
    expect(() => world.spawn('Dragon', 0, 0)).toThrow(WorldError);
    expect(world.despawn(id)).toBe(true);
    expect(world.isAlive(id)).toBe(false);
    expect(world.despawn(id)).toBe(false);
  });

  it('queues AOI enter and leave events, and move events only when asked (aoiMoveEvents)', () => {
    const kinds = (options: Partial<WorldOptions>): string[] => {
      const { world, events } = makeWorld('', options);
      const troll = world.spawn('Troll', 10, 10);
      const rock = world.spawn('Rock', 11, 10);
      world.step();
      world.move(rock, 11.5, 10); // inside the troll's range (3): a move
      world.step();
      world.move(rock, 20, 10); // out of it: a leave
      world.step();
      return ofType(events, 'aoi').filter((e) => e.observer === troll).map((e) => e.kind);
    };
    expect(kinds({})).toEqual(['enter', 'leave']);
    expect(kinds({ aoiMoveEvents: true })).toEqual(['enter', 'move', 'leave']);
  });

  it("checks breeds' spell names against the loaded spells", () => {
    const world = new World({ width: 10, height: 10 });
    world.loadSpells('spell poke(a, b) {}');
    expect(() => world.loadBreeds({ breeds: [{ name: 'A', spells: { attack: 'poke' } }, { name: 'B', spells: { tick: 'nope' } }] })).toThrow(
      BreedError,
    );
  });

  it('hands out the references spells hold, for embedders running their own VM', () => {
    const { world } = makeWorld('');
    const id = world.spawn('Troll', 1, 2);
    const ref = world.entityRef(id)!;
    expect(ref.getProperty('x')).toBe(1);
    expect(ref.display()).toBe('<Troll #1>');
    expect(ref.equals(world.entityRef(id)!)).toBe(true);
    world.despawn(id);
    expect(world.entityRef(id)).toBeNull();
    expect(ref.getProperty('alive')).toBe(false);
    expect(() => ref.getProperty('x')).toThrow('Entity is gone.');
  });

  it("world.random() draws from the generator a spell's random() draws from, and a snapshot keeps its place", () => {
    const make = (): World => {
      const world = new World({ width: 10, height: 10, seed: 42 });
      world.loadSpells('spell roll() { return random(); }');
      return world;
    };
    const a = make();
    const b = make();
    // The same sequence whoever draws: the game, a spell, the game again.
    const fromA = [a.random(), a.cast('roll').result, a.random()];
    const fromB = [b.cast('roll').result, b.random(), b.cast('roll').result];
    expect(fromB).toEqual(fromA);
    for (const x of fromA) expect(typeof x === 'number' && x >= 0 && x < 1).toBe(true);
    const restored = World.restore(a.snapshot());
    expect(restored.random()).toBe(a.random());
  });

  it('runs fixed steps from an accumulator', () => {
    const { world } = makeWorld('', { step: 0.1 });
    expect(world.tick(0.25)).toBe(2);
    expect(world.tick(0.05)).toBe(1);
    expect(world.tick(0.01)).toBe(0);
    expect(world.steps).toBe(3);
    expect(world.tick(100)).toBe(10); // maxStepsPerTick: no spiral of death
    expect(world.tick(0)).toBe(0);
  });

  it('follows the documented step order: tick spells, movement, index, AOI with handlers', () => {
    const { world, events } = makeWorld(`
      spell march(self, dt) { setVelocity(self, 10, 0); }
      spell greet(self, other) { print "hello " + other.breed; }
    `);
    world.loadBreeds({
      breeds: [
        { name: 'Walker', health: 5, spells: { tick: 'march' } },
        { name: 'Post', health: 5, interest: 1.5, spells: { onEnter: 'greet' } },
      ],
    });
    const walker = world.spawn('Walker', 0, 0);
    world.spawn('Post', 3, 0);
    world.step(); // tick spell sets velocity, integrate moves 1 unit: x = 1
    expect(world.entity(walker)!.x).toBe(1);
    world.step(); // x = 2, within 1.5 of the post: enter + handler in the same step
    const enter = ofType(events, 'aoi').find((e) => e.kind === 'enter' && e.subject === walker);
    expect(enter?.tick).toBe(2);
    expect(ofType(events, 'print').map((e) => [e.tick, e.text])).toEqual([[2, 'hello Walker']]);
  });

  it('bounces movement off the world edges', () => {
    const { world } = makeWorld('spell go(self) { setVelocity(self, -30, 0); }');
    const id = world.spawn('Troll', 1, 1);
    world.cast('go', id);
    world.step();
    expect(world.entity(id)).toMatchObject({ x: 2, vx: 30 });
  });
});

describe('spells that do not compile', () => {
  it('reports every error with its line and column, and keeps the diagnostics', () => {
    const world = new World({ width: 10, height: 10 });
    let caught: unknown = null;
    try {
      world.loadSpells('print a +;\nfun f( {', 'x.spell');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SpellsCompileError);
    expect(caught).toBeInstanceOf(WorldError);
    const error = caught as SpellsCompileError;
    expect(error.message).toMatch(/^x\.spell does not compile \(\d+ errors\):\n/);
    expect(error.message).toContain('x.spell:1:10: error: Expect expression.');
    expect(error.message).toMatch(/x\.spell:2:\d+: error: /);
    expect(error.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThanOrEqual(2);
    expect(error.name).toBe('SpellsCompileError');
    expect(new WorldError('x').name).toBe('WorldError');
    // The same code frame `cantrip check` prints.
    expect(error.pretty().split('\n').slice(0, 3)).toEqual(['x.spell:1:10: error: Expect expression.', ' 1 | print a +;', '   |          ^']);
  });
});

describe('spells a breed names, whatever the order things load in', () => {
  const PACING: BreedData = { breeds: [{ name: 'Guard', health: 10, spells: { tick: 'pace', attack: 'strike' } }] };
  const PACE = 'spell pace(self, dt) { move(self, self.x + 1, self.y); }';
  const STRIKE = 'spell strike(self, target) { damage(target, 1); }';
  const refusal = (run: () => unknown): { breed: string | null; field: string | null; message: string } | null => {
    try {
      run();
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(BreedError);
      const e = error as BreedError;
      return { breed: e.breed, field: e.field, message: e.message };
    }
  };

  it('spells first: breeds naming a spell no module defines are refused when they load', () => {
    const world = new World({ width: 20, height: 20 });
    world.loadSpells(PACE, 'pace.spell');
    expect(refusal(() => world.loadBreeds(PACING))).toEqual({
      breed: 'Guard',
      field: 'spells.attack',
      message: "Breed 'Guard': field 'spells.attack' names spell 'strike', which the loaded spells do not define.",
    });
  });

  it('breeds first: the first spawn, cast or step after loading refuses a missing spell, naming breed and field', () => {
    const world = new World({ width: 20, height: 20 });
    world.loadBreeds(PACING);
    world.loadSpells(PACE + '\nspell hello() { print "hi"; }', 'pace.spell'); // one module of two: no error yet
    const expected = { breed: 'Guard', field: 'spells.attack', message: "Breed 'Guard': field 'spells.attack' names spell 'strike', which the loaded spells do not define." };
    expect(refusal(() => world.spawn('Guard', 1, 1))).toEqual(expected);
    expect(refusal(() => world.cast('hello'))).toEqual(expected);
    expect(refusal(() => world.step())).toEqual(expected);
    expect(world.steps).toBe(0);
    // The missing module loaded, the world runs: the tick spell moves the guard.
    world.loadSpells(STRIKE, 'strike.spell');
    const guard = world.spawn('Guard', 1, 1);
    world.step();
    expect(world.entity(guard)!.x).toBe(2);
  });

  it('breeds first with every spell then loaded: nothing is refused', () => {
    const world = new World({ width: 20, height: 20 });
    world.loadBreeds(PACING);
    world.loadSpells(PACE, 'pace.spell');
    world.loadSpells(STRIKE, 'strike.spell');
    expect(refusal(() => world.spawn('Guard', 1, 1))).toBeNull();
  });
});

describe('spells and handles', () => {
  it('a reference to a despawned entity reads alive = false, anything else is "Entity is gone."', () => {
    const { world, events } = makeWorld(`
      spell remember(self, other) { self.friend = other; }
      spell check(self) { print self.friend.alive; print self.friend.health; }
    `);
    const a = world.spawn('Troll', 1, 1);
    const b = world.spawn('Troll', 2, 2);
    world.cast('remember', a, b);
    world.despawn(b);
    // The slot is reused many times; the old reference must never see the new occupants.
    for (let i = 0; i < 50; i++) world.despawn(world.spawn('Rock', 5, 5));
    world.spawn('Rock', 5, 5);
    const result = world.cast('check', a);
    world.flush();
    expect(result.state).toBe('failed');
    expect(ofType(events, 'print').map((e) => e.text)).toEqual(['false']);
    const error = ofType(events, 'cast-error')[0]!;
    expect(error).toMatchObject({ spell: 'check', caster: a, line: 3, message: 'Entity is gone.' });
    expect(error.trace).toContain('[line 3] in check()');
  });

  it('a runtime error ends only its own cast; the world and other casts go on', () => {
    const { world, events } = makeWorld(`
      spell bad(self) { wait(0.2); print self.nothing; }
      spell good(self) { wait(0.3); print "still here"; }
      spell loop(self) { while (true) {} }
    `);
    const a = world.spawn('Troll', 1, 1);
    world.cast('bad', a);
    world.cast('good', a);
    const looped = world.cast('loop', a);
    expect(looped.state).toBe('failed');
    expect(looped.error?.limit).toBe('fuel');
    for (let i = 0; i < 4; i++) world.step();
    expect(ofType(events, 'print').map((e) => e.text)).toEqual(['still here']);
    expect(ofType(events, 'cast-error').map((e) => [e.spell, e.message])).toEqual([
      ['loop', 'Out of fuel: the cast ran more than 1000000 instructions.'],
      ['bad', "Undefined property 'nothing'."],
    ]);
  });

  it('wait(0) resumes on the next step, never in a loop within one', () => {
    const { world, events } = makeWorld('spell spin(self) { var n = 0; while (true) { wait(0); n += 1; print n; } }', {
      budgets: { fuel: Infinity },
    });
    world.cast('spin', world.spawn('Troll', 1, 1));
    for (let i = 0; i < 3; i++) world.step();
    expect(ofType(events, 'print').map((e) => [e.tick, e.text])).toEqual([
      [1, '1'],
      [2, '2'],
      [3, '3'],
    ]);
  });

  it('respects the maxWait budget: an hour by default (a 15-minute cooldown waits), and the error names the option', () => {
    const { world: w } = makeWorld('spell cooldown(self) { wait(900); } spell nap(self) { wait(100000); }');
    expect(w.cast('cooldown', w.spawn('Troll', 1, 1)).state).toBe('suspended');
    const result = w.cast('nap', w.spawn('Troll', 2, 1));
    expect(result.state).toBe('failed');
    expect(result.error?.limit).toBe('wait');
    expect(result.error?.message).toBe('Wait too long: the longest wait allowed is 3600 seconds (budgets.maxWait).');
  });

  it('charges fuel for what nearby returns', () => {
    const { world } = makeWorld('spell count(self) { var n = 0; for (i in [1, 2, 3]) n = n + len(nearby(self, 100)); print n; }', {
      capacity: 3000,
      budgets: { fuel: 2000 },
    });
    const ids: number[] = [];
    for (let i = 0; i < 2500; i++) ids.push(world.spawn('Rock', (i % 50) + 0.5, Math.floor(i / 50) + 0.5));
    const result = world.cast('count', ids[0]!);
    expect(result.state).toBe('failed');
    expect(result.error?.limit).toBe('fuel');
  });

  it('keeps __proto__, constructor and friends ordinary on entities', () => {
    const { world, events } = makeWorld(`
      spell poke(self) {
        self.__proto__ = 1;
        self.toString = "t";
        print self.__proto__;
        print self.toString;
        print self.constructor;
      }
    `);
    const a = world.spawn('Troll', 1, 1);
    const result = world.cast('poke', a);
    world.flush();
    expect(ofType(events, 'print').map((e) => e.text)).toEqual(['1', 't']);
    expect(result.error?.message).toBe("Undefined property 'constructor'.");
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(world.property(a, 'hasOwnProperty')).toBeUndefined();
  });

  it('refuses read-only properties and spell objects in entity fields', () => {
    const { world } = makeWorld(`
      spell a(self) { self.breed = "Dragon"; }
      spell b(self) { self.list = [1]; }
      spell c(self) { self.f = clock; }
    `);
    const e = world.spawn('Troll', 1, 1);
    expect(world.cast('a', e).error?.message).toBe("Property 'breed' is read-only.");
    expect(world.cast('b', e).error?.message).toMatch(/can only hold numbers, strings, booleans, nil or entities/);
    expect(world.cast('c', e).state).toBe('failed');
  });

  it('e.is() answers breed ancestry and tags', () => {
    const { world, events } = makeWorld('spell q(self) { print self.is("Troll"); print self.is("monster"); print self.is("Rock"); }');
    world.cast('q', world.spawn('Troll Archer', 1, 1));
    world.flush();
    expect(ofType(events, 'print').map((e) => e.text)).toEqual(['true', 'true', 'false']);
  });

  it('damage to 0 kills at the end of the step; the dead leave every query at once', () => {
    const { world, events } = makeWorld(`
      spell smash(self, other) { damage(other, 1000); print other.alive; print len(nearby(self, 10)); }
    `);
    const a = world.spawn('Troll', 1, 1);
    const b = world.spawn('Troll', 2, 1);
    world.cast('smash', a, b);
    world.flush();
    expect(ofType(events, 'print').map((e) => e.text)).toEqual(['false', '1']);
    expect(ofType(events, 'damage')[0]).toMatchObject({ entity: b, amount: 25, health: 0, by: a });
    expect(ofType(events, 'despawn')[0]).toMatchObject({ entity: b, reason: 'killed' });
  });

  it('derived stats use a dirty flag: recomputed when a modifier changes, not per read', () => {
    const { world } = makeWorld(`
      spell hasten(self) { buff(self, "speed", 3, 1); buff(self, "armor", 2, 2); }
      spell read(self) { var s = 0; for (var i = 0; i < 100; i += 1) s = s + self.speed + self.armor; }
    `);
    const e = world.spawn('Troll', 1, 1);
    world.cast('hasten', e);
    expect(world.property(e, 'speed')).toBe(5);
    expect(world.property(e, 'armor')).toBe(2);
    const before = world.derivedRecomputes(e);
    world.cast('read', e);
    expect(world.derivedRecomputes(e)).toBe(before);
    for (let i = 0; i < 10; i++) world.step();
    expect(world.property(e, 'speed')).toBe(2);
    expect(world.property(e, 'armor')).toBe(2);
    expect(world.derivedRecomputes(e)).toBe(before + 1);
    for (let i = 0; i < 10; i++) world.step();
    expect(world.property(e, 'armor')).toBe(0);
  });

  it('buffs interest like any derived stat, clamped to maxInterest', () => {
    const { world } = makeWorld('spell far(self) { buff(self, "interest", 500, 1); } spell set(self) { self.interest = 7; }', { maxInterest: 50 });
    const e = world.spawn('Troll', 1, 1);
    world.cast('far', e);
    expect(world.property(e, 'interest')).toBe(50);
    for (let i = 0; i < 10; i++) world.step();
    expect(world.property(e, 'interest')).toBe(3);
    world.cast('set', e);
    expect(world.property(e, 'interest')).toBe(7);
  });

  it('caps buffs per entity, and thousands of them expire in order cheaply', () => {
    const { world, events } = makeWorld(`
      spell pile(self) { for (var i = 0; i < 100; i += 1) buff(self, "armor", 1, 100 - i); }
      spell spread(self) { for (e in nearby(self, 100)) if (!e.is("Troll")) for (var i = 0; i < 60; i += 1) buff(e, "armor", 1, 1 + (i % 7) * 0.1); }
    `);
    const a = world.spawn('Troll', 1, 1);
    expect(world.cast('pile', a).error?.message).toBe('Too many buffs on this entity (at most 64).');
    expect(world.property(a, 'armor')).toBe(64);
    for (let i = 0; i < 40; i++) world.spawn('Rock', i, i);
    const b = world.spawn('Rock', 2, 2);
    expect(world.cast('spread', b).state).toBe('done');
    for (let i = 0; i < 20; i++) world.step();
    const ends = events.filter((e) => e.type === 'buff-end' && e.entity === b);
    expect(ends.length).toBe(60);
    expect(world.property(b, 'armor')).toBe(0);
  });

  it('loads verified .spb bytecode as well as source', () => {
    const { module } = compile('spell hi(self) { say(self, "hi"); }', { hosts: WORLD_HOST_FUNCTIONS });
    const world = new World({ width: 10, height: 10 });
    world.loadModule(writeSpb(module!), 'hi.spb');
    world.loadBreeds(BREEDS);
    const events: WorldEvent[] = [];
    world.on((e) => events.push(e));
    world.cast('hi', world.spawn('Rock', 1, 1));
    world.flush();
    expect(ofType(events, 'say').map((e) => e.text)).toEqual(['hi']);
    expect(() => world.loadModule(new Uint8Array([1, 2, 3]))).toThrow();
  });

  it('recycles the oldest entity when full under that policy', () => {
    const { world, events } = makeWorld('', { capacity: 2, policy: 'recycle-oldest' });
    const a = world.spawn('Rock', 1, 1);
    world.spawn('Rock', 2, 2);
    world.spawn('Rock', 3, 3);
    world.flush();
    expect(world.isAlive(a)).toBe(false);
    expect(ofType(events, 'despawn')).toMatchObject([{ entity: a, reason: 'evicted' }]);
    expect(world.entities().length).toBe(2);
  });

  it('grows the pool (and everything sized by it) under the grow policy', () => {
    const { world, events } = makeWorld('spell many(self) { for (var i = 0; i < 20; i += 1) spawn("Rock", i, i); print len(nearby(self, 100)); }', {
      capacity: 2,
      policy: 'grow',
    });
    const first = world.spawn('Troll', 0, 0);
    expect(world.cast('many', first).state).toBe('done');
    world.step();
    expect(world.pool.capacity).toBe(32);
    expect(world.entities().length).toBe(21);
    expect(ofType(events, 'print').map((e) => e.text)).toEqual(['21']);
  });

  it('reports a full world to the spell that spawns', () => {
    const { world } = makeWorld('spell many(self) { for (var i = 0; i < 10; i += 1) spawn("Rock", 1, 1); }', { capacity: 4 });
    const result = world.cast('many', world.spawn('Rock', 1, 1));
    expect(result.error?.message).toBe('Entity pool is full (capacity 4).');
  });
});

const SIM_SPELLS = `
  spell wander(self, dt) {
    if (random() < 0.3) setVelocity(self, random() * 4 - 2, random() * 4 - 2);
    var n = nearest(self, 5, "Troll");
    if (n != nil and random() < 0.05) damage(n, 1);
  }
  spell bolt(self, other) { damage(other, 2 + floor(random() * 3)); wait(0.3); heal(self, 1); }
  spell greet(self, other) { say(self, "hi " + str(other.id)); }
`;

const SIM_BREEDS = {
  breeds: [
    { name: 'Troll', health: 30, speed: 2, interest: 4, spells: { tick: 'wander', onEnter: 'greet', attack: 'bolt' } },
    { name: 'Rock', health: 50 },
  ],
};

/** A deterministic little world: spawns, wanders, casts, despawns. */
function simulate(options: Partial<WorldOptions>, steps: number, from?: World): { world: World; log: string[] } {
  const world = from ?? new World({ width: 30, height: 30, seed: 77, capacity: 64, cellSize: 4, ...options });
  if (!from) {
    world.loadSpells(SIM_SPELLS);
    world.loadBreeds(SIM_BREEDS);
  }
  const log: string[] = [];
  world.on((e) => log.push(JSON.stringify(e)));
  for (let i = 0; i < steps; i++) {
    const t = world.steps;
    if (t % 7 === 0) world.spawn(t % 3 === 0 ? 'Rock' : 'Troll', (t * 7) % 30, (t * 13) % 30);
    const all = world.entities();
    if (t % 5 === 0 && all.length >= 2) world.cast('bolt', all[0]!.id, all[all.length - 1]!.id);
    if (t % 11 === 0 && all.length > 3) world.despawn(all[1]!.id);
    world.step();
  }
  return { world, log };
}

describe('debugging casts on the world', () => {
  const SOURCE = [
    'var hits = 0;', //                          1
    'spell strike(caster, target) {', //         2
    '  hits += 1;', //                           3
    '  damage(target, 5);', //                   4
    '  wait(0.2);', //                           5
    '  damage(target, hits);', //                6
    '}', //                                      7
  ].join('\n');

  it('keeps a cast paused by a debugger, steps it in the cast context, and resumes it across wait', () => {
    const { world, events } = makeWorld(SOURCE);
    const troll = world.spawn('Troll', 5, 5);
    const vm = world.spellVm('strike')!;
    const dbg = new Debugger(vm);
    dbg.attach();
    dbg.setBreakpoints([4]);
    const first = world.cast('strike', null, troll);
    expect(first.state).toBe('paused');
    expect(world.pausedCasts).toBe(1);
    expect(dbg.callStack(first.fiber)[0]!.line).toBe(4);
    // The cast sees the world's own globals (its script ran in the world).
    expect(vm.getGlobal('hits')).toBe(1);
    expect(world.entity(troll)!.health).toBe(25);

    dbg.setBreakpoints([6]);
    const waiting = world.continuePaused(first.fiber, (f) => dbg.continue(f));
    expect(waiting.state).toBe('suspended');
    expect(world.entity(troll)!.health).toBe(20);
    expect(world.pausedCasts).toBe(0);
    expect(world.waitingCasts).toBe(1);
    world.step();
    world.step();
    expect(first.fiber.state).toBe('paused');
    expect(world.pausedCasts).toBe(1);
    const done = world.continuePaused(first.fiber, (f) => dbg.stepOver(f));
    expect(done.state).toBe('paused');
    expect(world.continuePaused(first.fiber, (f) => dbg.continue(f)).state).toBe('done');
    expect(world.entity(troll)!.health).toBe(19);
    world.flush();
    expect(events.filter((e) => e.type === 'damage').map((e) => e.tick)).toEqual([0, 2]);
    dbg.detach();
  });

  it('cancels paused and waiting casts without reporting an error', () => {
    const { world, events } = makeWorld(SOURCE);
    const troll = world.spawn('Troll', 5, 5);
    const dbg = new Debugger(world.spellVm('strike')!);
    dbg.attach();
    dbg.setBreakpoints([3]);
    const paused = world.cast('strike', null, troll);
    expect(world.cancelCast(paused.fiber, 'Stopped.')).toBe(true);
    expect(paused.fiber.state).toBe('failed');
    expect(world.pausedCasts).toBe(0);
    dbg.detach();
    const waiting = world.cast('strike', null, troll);
    const other = world.cast('strike', null, troll);
    expect(world.waitingCasts).toBe(2);
    expect(world.cancelCast(waiting.fiber)).toBe(true);
    expect(world.cancelCast(waiting.fiber)).toBe(false);
    expect(world.waitingCasts).toBe(1);
    for (let i = 0; i < 3; i++) world.step();
    expect(other.fiber.state).toBe('done');
    world.flush();
    expect(ofType(events, 'cast-error')).toEqual([]);
    expect(world.spellVm('nope')).toBeNull();
  });
});

describe('determinism and snapshots', () => {
  it('same seed and inputs give the same world', () => {
    const a = simulate({}, 80);
    const b = simulate({}, 80);
    expect(a.log.length).toBeGreaterThan(40);
    expect(b.log).toEqual(a.log);
    expect(JSON.stringify(b.world.snapshot())).toBe(JSON.stringify(a.world.snapshot()));
    const c = simulate({ seed: 78 }, 80);
    expect(c.log).not.toEqual(a.log);
  });

  it('the grid and the axis lists give the same game', () => {
    expect(simulate({ partition: 'axis' }, 80).log).toEqual(simulate({ partition: 'grid' }, 80).log);
    expect(simulate({ partition: 'axis', interestShape: 'square' }, 60).log).toEqual(
      simulate({ partition: 'grid', interestShape: 'square' }, 60).log,
    );
  });

  it('every AOI engine over every index gives the same game; the aoi option is checked', () => {
    const reference = simulate({ partition: 'grid' }, 80).log;
    expect(simulate({ partition: 'grid' }, 1).world.options.aoi).toBe('grid');
    expect(simulate({ partition: 'axis' }, 1).world.options.aoi).toBe('triggers');
    for (const partition of ['grid', 'axis'] as const) {
      for (const aoi of ['grid', 'triggers'] as const) expect(simulate({ partition, aoi }, 80).log).toEqual(reference);
    }
    expect(() => new World({ width: 10, height: 10, aoi: 'quadtree' as 'grid' })).toThrow("World option 'aoi' must be one of 'grid', 'triggers'.");
  });

  it('snapshot → JSON → restore continues exactly like the original', () => {
    const original = simulate({}, 40).world;
    // Let pending waits finish so the snapshot holds the whole state.
    for (let i = 0; i < 5; i++) original.step();
    const snapshot = JSON.parse(JSON.stringify(original.snapshot()));
    expect(snapshot.pendingCasts).toBe(0);
    const restored = World.restore(snapshot);
    expect(JSON.stringify(restored.snapshot())).toBe(JSON.stringify(original.snapshot()));
    const a = simulate({}, 40, original);
    const b = simulate({}, 40, restored);
    expect(b.log).toEqual(a.log);
    expect(a.log.length).toBeGreaterThan(20);
  });

  it('restores unlimited budgets when the embedder allows them, and refuses foreign data', () => {
    const world = new World({ width: 10, height: 10, budgets: { fuel: Infinity } });
    const saved = JSON.parse(JSON.stringify(world.snapshot()));
    expect(World.restore(saved, { budgets: { fuel: Infinity } }).options.budgets.fuel).toBe(Infinity);
    // The embedder's budgets govern: by default a new World's (a save may carry at most what they allow).
    expect(World.restore(saved).options.budgets.fuel).toBe(1_000_000);
    expect(() => World.restore({} as never)).toThrow(WorldError);
    const good = JSON.parse(JSON.stringify(simulate({}, 10).world.snapshot())) as Record<string, unknown>;
    for (const key of ['pool', 'entities', 'aoi', 'options', 'spells']) {
      expect(() => World.restore({ ...good, [key]: 42 } as never)).toThrow(WorldError);
    }
    expect(() => World.restore({ ...good, entities: [{ slot: 999 }] } as never)).toThrow("The world snapshot is malformed: $.entities[0] is missing its field 'id'.");
  });
});

describe('random world operations against a model', () => {
  type Op =
    | { kind: 'spawn'; breed: 'Troll' | 'Rock'; x: number; y: number }
    | { kind: 'despawn'; pick: number }
    | { kind: 'move'; pick: number; x: number; y: number }
    | { kind: 'cast'; pick: number; other: number }
    | { kind: 'tick'; dt: number };
  const coord = fc.integer({ min: 0, max: 30 });
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('spawn' as const), breed: fc.constantFrom('Troll' as const, 'Rock' as const), x: coord, y: coord }),
    fc.record({ kind: fc.constant('despawn' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), x: coord, y: coord }),
    fc.record({ kind: fc.constant('cast' as const), pick: fc.nat(), other: fc.nat() }),
    fc.record({ kind: fc.constant('tick' as const), dt: fc.constantFrom(0.05, 0.1, 0.3) }),
  );

  it('pool, handles and index never disagree with the model', () => {
    fc.assert(
      fc.property(fc.constantFrom('grid' as const, 'axis' as const), fc.array(op, { maxLength: 60 }), (partition, ops) => {
        const world = new World({ width: 30, height: 30, capacity: 8, partition, cellSize: 3, seed: 1 });
        world.loadSpells(SIM_SPELLS + 'spell census(self) { var ids = []; for (e in nearby(self, 6)) ids.append(e.id); print ids; }');
        world.loadBreeds(SIM_BREEDS);
        const everSpawned: number[] = [];
        const killed = new Set<number>();
        const census: number[][] = [];
        world.on((e) => {
          if (e.type === 'despawn') killed.add(e.entity);
          if (e.type === 'print') census.push((JSON.parse(e.text) as number[]).sort((p, q) => p - q));
        });
        const pick = (n: number): number | undefined => everSpawned[n % Math.max(1, everSpawned.length)];
        for (const o of ops) {
          if (o.kind === 'spawn') {
            if (world.entities().length === 8) {
              expect(() => world.spawn(o.breed, o.x, o.y)).toThrow(WorldError);
            } else {
              everSpawned.push(world.spawn(o.breed, o.x, o.y));
            }
          } else if (o.kind === 'tick') {
            world.tick(o.dt);
          } else {
            const id = pick(o.pick);
            if (id === undefined) continue;
            const alive = world.isAlive(id);
            if (o.kind === 'despawn') expect(world.despawn(id)).toBe(alive);
            else if (o.kind === 'move') {
              if (alive) world.setProperty(id, 'x', o.x);
              else expect(() => world.setProperty(id, 'x', o.x)).toThrow(WorldError);
            } else {
              const other = pick(o.other)!;
              if (alive && world.isAlive(other)) expect(['done', 'suspended', 'failed']).toContain(world.cast('bolt', id, other).state);
              else expect(() => world.cast('bolt', id, other)).toThrow(WorldError);
            }
          }
          world.flush();
          // The model: spawned and not despawned; ids never come back.
          const live = world.entities().map((e) => e.id);
          expect(new Set(live)).toEqual(new Set(everSpawned.filter((id) => !killed.has(id))));
          // Every living entity is found where it is, and nothing dead is found anywhere.
          for (const e of world.entities()) expect(world.property(e.id, 'alive')).toBe(true);
          for (const id of everSpawned) if (!world.isAlive(id)) expect(world.property(id, 'alive')).toBeUndefined();
          expect(world.pool.count).toBe(live.length);
          // The spatial index agrees with brute force over the model's positions.
          const probe = world.entities()[0];
          if (probe) {
            world.cast('census', probe.id);
            world.flush();
            const expected = world
              .entities()
              .filter((e) => (e.x - probe.x) ** 2 + (e.y - probe.y) ** 2 <= 36)
              .map((e) => e.id)
              .sort((p, q) => p - q);
            expect(census.at(-1)).toEqual(expected);
          }
        }
      }),
      { seed: 2024, numRuns: 120 },
    );
  });
});

describe('the embedder API', () => {
  it('move() and setVelocity() move an entity and keep the spatial index in step', () => {
    const { world } = makeWorld('spell near(self) { print len(nearby(self, 1)); }');
    const a = world.spawn('Troll', 5, 5);
    const b = world.spawn('Troll', 40, 40);
    world.move(b, 5.5, 5);
    expect(world.entity(b)).toMatchObject({ x: 5.5, y: 5 });
    const printed: string[] = [];
    world.on((e) => e.type === 'print' && printed.push(e.text));
    world.cast('near', a);
    world.flush();
    expect(printed).toEqual(['2']);
    world.move(b, 1000, -3); // clamped to the world
    expect(world.entity(b)).toMatchObject({ x: 50, y: 0 });
    world.setVelocity(a, 10, 0);
    world.step();
    expect(world.entity(a)!.x).toBeCloseTo(6);
    expect(() => world.move(a, NaN, 0)).toThrow(WorldError);
    world.despawn(b);
    expect(() => world.move(b, 1, 1)).toThrow(/is not a living entity/);
    expect(() => world.setVelocity(b, 1, 1)).toThrow(WorldError);
  });

  it('interpolation is the leftover of the accumulator over the step, in [0, 1)', () => {
    const world = new World({ width: 10, height: 10, step: 0.1 });
    expect(world.interpolation).toBe(0);
    world.tick(0.25);
    expect(world.steps).toBe(2);
    expect(world.interpolation).toBeCloseTo(0.5);
    world.tick(0.05);
    expect(world.steps).toBe(3);
    expect(world.interpolation).toBeCloseTo(0, 5);
  });

  it('breeds are read-only: changing one cannot change later spawns', () => {
    const { world } = makeWorld('');
    const troll = world.breeds.get('Troll')!;
    expect(() => {
      (troll as { health: number }).health = 1;
    }).toThrow(TypeError);
    expect(() => (troll.tags as string[]).push('x')).toThrow(TypeError);
    expect(() => (troll.attributes as Map<string, number>).set('armor', 99)).toThrow(TypeError);
    expect(() => (world.breeds.breeds as unknown[]).pop()).toThrow(TypeError);
    const id = world.spawn('Troll', 1, 1);
    expect(world.entity(id)!.health).toBe(troll.health);
    expect(world.property(id, 'armor')).toBe(troll.attributes.get('armor'));
  });

  it('the registry keeps its own copy of the breed data', () => {
    const data = { breeds: [{ name: 'Imp', health: 3 }] };
    const world = new World({ width: 10, height: 10 });
    world.loadBreeds(data);
    data.breeds[0]!.health = 99;
    expect(world.breeds.get('Imp')!.health).toBe(3);
    expect(JSON.stringify(world.snapshot().breeds)).toContain('"health":3');
  });
});
