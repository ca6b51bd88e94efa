import { describe, expect, expectTypeOf, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { VerifyError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import { hostFunction, type HostFunction } from '../../vm/host.js';
import { writeSpb } from '../../vm/spb.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { SpellsCompileError, WorldError } from '../errors.js';
import type { WorldEvent } from '../events/events.js';
import { WORLD_HOST_FUNCTIONS } from './host-api.js';
import { World } from '../world/world.js';
import { worldHostFunction, type WorldHostContext } from './world-hosts.js';

const BREEDS = { breeds: [{ name: 'Hero', health: 20 }, { name: 'Troll', health: 30 }] };

interface Calls {
  gifts: string[];
  shakes: number[];
}

function gameHosts(calls: Calls): HostFunction[] {
  return [
    worldHostFunction({
      name: 'giveItem',
      params: [
        { name: 'target', type: 'entity' },
        { name: 'item', type: 'string' },
        { name: 'count', type: 'number', optional: true },
      ],
      returns: 'number',
      doc: 'Put an item in an entity’s bag; returns how many it now has.',
      impl: (ctx, target, item, count) => {
        expectTypeOf(target).toEqualTypeOf<EntityRef>();
        expectTypeOf(item).toEqualTypeOf<string>();
        expectTypeOf(count).toEqualTypeOf<number | undefined>();
        expectTypeOf(ctx).toEqualTypeOf<WorldHostContext>();
        expectTypeOf(ctx.fiber).toEqualTypeOf<Fiber | null>();
        calls.gifts.push(`${ctx.spell}: ${ctx.caster?.id ?? 'nobody'} gives ${count ?? 1} ${item} to #${target.id} (${target.breedName}) in a world of ${ctx.world.entities().length}`);
        return calls.gifts.length;
      },
    }),
    worldHostFunction({
      name: 'shake',
      params: [{ name: 'seconds', type: 'number' }],
      returns: 'nil',
      doc: 'Shake the camera.',
      impl: (ctx, seconds) => {
        calls.shakes.push(seconds);
        ctx.wait(seconds); // the cast goes on once the shake is over
        return null;
      },
    }),
  ];
}

function makeWorld(spells: string, calls: Calls = { gifts: [], shakes: [] }): { world: World; events: WorldEvent[]; calls: Calls } {
  const world = new World({ width: 20, height: 20, hosts: gameHosts(calls) });
  world.loadSpells(spells, 'game.spell');
  world.loadBreeds(BREEDS);
  const events: WorldEvent[] = [];
  world.on((e) => events.push(e));
  return { world, events, calls };
}

describe('the game’s own host functions', () => {
  it('are one table with the built-ins: spells call them with typed, checked arguments and the cast’s context', () => {
    const { world, calls } = makeWorld(`
      spell reward(caster, target) { print giveItem(target, "potion", 3); print giveItem(target, "key"); }
    `);
    const hero = world.spawn('Hero', 1, 1);
    const troll = world.spawn('Troll', 2, 2);
    expect(world.cast('reward', hero, troll).state).toBe('done');
    expect(calls.gifts).toEqual([
      `reward: ${hero} gives 3 potion to #${troll} (Troll) in a world of 2`,
      `reward: ${hero} gives 1 key to #${troll} (Troll) in a world of 2`,
    ]);
    expect(world.hosts.map((h) => h.name)).toEqual([...WORLD_HOST_FUNCTIONS.map((h) => h.name), 'giveItem', 'shake']);
  });

  it('wrong arity and unknown names are compile errors, as for the built-ins', () => {
    const world = new World({ width: 10, height: 10, hosts: gameHosts({ gifts: [], shakes: [] }) });
    expect(() => world.loadSpells('spell s(c, t) { giveItem(t); }', 'a.spell')).toThrow(SpellsCompileError);
    try {
      world.loadSpells('spell s(c, t) { giveItem(t); }', 'a.spell');
    } catch (error) {
      expect((error as SpellsCompileError).message).toContain('giveItem() expects 2 to 3 arguments (target, item, count?) but got 1.');
    }
    // Without the game's hosts the name is unknown: a warning (it could be a global defined later), as for any name.
    const warnings = new World({ width: 10, height: 10 }).loadSpells('spell s(c, t) { giveItem(t, "x"); }');
    expect(warnings.map((d) => d.severity + ': ' + d.message).join('\n')).toMatch(/warning: .*giveItem/);
  });

  it('checks argument types before the implementation runs, with the built-ins’ wording', () => {
    // Literals of the wrong type are compile errors (the compiler reads the same table) …
    expect(() => makeWorld('spell s(c, t) { giveItem(t, 42); }')).toThrow('Argument 2 of giveItem() must be a string.');
    // … values only known at run time are checked at the call.
    const { world, events, calls } = makeWorld(`
      spell badItem(caster, target) { var item = 42; giveItem(target, item); }
      spell notEntity(caster, target) { var who = "troll"; giveItem(who, "potion"); }
    `);
    const hero = world.spawn('Hero', 1, 1);
    world.cast('badItem', hero, hero);
    world.cast('notEntity', hero, hero);
    world.flush();
    expect(calls.gifts).toEqual([]);
    const messages = events.filter((e) => e.type === 'cast-error').map((e) => (e.type === 'cast-error' ? e.message : ''));
    expect(messages).toEqual(['Argument 2 of giveItem() must be a string.', 'Argument 1 of giveItem() must be an entity.']);
  });

  it('refuses an entity of another world', () => {
    const calls: Calls = { gifts: [], shakes: [] };
    const a = makeWorld('spell keep(c, t) { print giveItem(t, "x"); }', calls);
    const other = new World({ width: 5, height: 5 });
    other.loadBreeds(BREEDS);
    const stranger = other.entityRef(other.spawn('Hero', 1, 1))!;
    const vm = a.world.spellVm('keep')!;
    // A debugger-style direct cast with a foreign entity: refused at the call.
    const fiber = vm.cast('keep', [null, stranger]);
    expect(fiber.error?.message).toBe('giveItem() can only be used in a spell cast on its world.');
    a.world.spawn('Hero', 1, 1);
    const result = a.world.cast('keep', null, a.world.entities()[0]!.id);
    expect(result.state).toBe('done');
    expect(calls.gifts.length).toBe(1);
  });

  it('a game function can make the cast wait for game time (ctx.wait)', () => {
    const { world, events, calls } = makeWorld('spell quake(c, t) { shake(0.3); print "after"; }');
    const result = world.cast('quake', world.spawn('Hero', 1, 1));
    expect(result.state).toBe('suspended');
    expect(calls.shakes).toEqual([0.3]);
    world.step();
    world.step();
    expect(events.some((e) => e.type === 'print')).toBe(false);
    world.step();
    expect(events.filter((e) => e.type === 'print').map((e) => e.tick)).toEqual([3]);
  });

  it('a name colliding with a built-in, a duplicate or a bad declaration is a WorldError at construction', () => {
    const make = (hosts: HostFunction[]) => () => new World({ width: 5, height: 5, hosts });
    const impl = () => null;
    expect(make([{ name: 'damage', params: [], returns: 'nil', doc: '', impl }])).toThrow(
      new WorldError("Host function 'damage' collides with the built-in 'damage()'; give it another name."),
    );
    expect(make([{ name: 'len', params: [], returns: 'nil', doc: '', impl }])).toThrow(/collides with the built-in 'len\(\)'/);
    const shout = { name: 'shout', params: [], returns: 'nil', doc: '', impl } as const;
    expect(make([shout, shout])).toThrow(/'shout' is declared twice/);
    expect(make([{ ...shout, name: 'while' }])).toThrow(/named like a keyword/);
    expect(make([{ ...shout, name: 'no such' }])).toThrow(/not an identifier/);
    expect(make([{ ...shout, params: [{ name: 'x', type: 'float' as 'number' }] }])).toThrow(/unknown type "float"/);
    expect(make([{ ...shout, params: [{ name: 'x', type: 'number', optional: true }, { name: 'y', type: 'number' }] }])).toThrow(/must be optional too/);
    expect(make([{ ...shout, impl: undefined as unknown as HostFunction['impl'] }])).toThrow(/no implementation/);
  });

  it('verifies .spb imports against the world’s table', () => {
    const hosts = gameHosts({ gifts: [], shakes: [] });
    const { module } = compile('spell s(c, t) { shake(1); }', { hosts: [...WORLD_HOST_FUNCTIONS, ...hosts] });
    const bytes = writeSpb(module!);
    new World({ width: 5, height: 5, hosts }).loadModule(bytes);
    expect(() => new World({ width: 5, height: 5 }).loadModule(bytes)).toThrow(VerifyError);
  });

  it('a snapshot restores with the same hosts', () => {
    const calls: Calls = { gifts: [], shakes: [] };
    const { world } = makeWorld('spell reward(c, t) { giveItem(t, "gem"); }', calls);
    const hero = world.spawn('Hero', 1, 1);
    const copy = World.restore(JSON.parse(JSON.stringify(world.snapshot())), { hosts: gameHosts(calls) });
    copy.cast('reward', null, hero);
    expect(calls.gifts).toEqual([`reward: nobody gives 1 gem to #${hero} (Hero) in a world of 1`]);
    // Without them the spells compile to another module (giveItem becomes a global): the saved state does not fit, and restore says so.
    expect(() => World.restore(JSON.parse(JSON.stringify(world.snapshot())))).toThrow(/The world snapshot is malformed: the globals do not match the module/);
  });
});

describe('hostFunction() for a bare VM', () => {
  it('types the implementation from the parameter declarations', () => {
    const add = hostFunction({
      name: 'add',
      params: [
        { name: 'a', type: 'number' },
        { name: 'b', type: 'number' },
      ],
      returns: 'number',
      doc: 'a + b',
      impl: (_ctx, a, b) => {
        expectTypeOf(a).toEqualTypeOf<number>();
        return a + b;
      },
    });
    expect(add.impl({} as never, 1, 2)).toBe(3);
  });
});
