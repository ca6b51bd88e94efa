/**
 * The game API's functions marked `heapFree` (vm/objects.ts) never charge the
 * calling fiber's heap: each is called, in a cast on a real world, with a
 * context whose heap charges throw, over every combination of representative
 * arguments of its parameters' types (the VM checks the types before a call).
 */

import { describe, expect, it } from 'vitest';
import type { HostContext, HostFunction } from '../../vm/host.js';
import { ObjHostFunction } from '../../vm/objects.js';
import type { Value, ValueType } from '../../vm/value.js';
import { EntityRef } from '../entities/entity-ref.js';
import { World } from '../world/world.js';
import { GAME_HOST_FUNCTIONS, castIn, type CastContext } from './host-api.js';
import { worldHostFunction } from './world-hosts.js';

const HEAP_FREE = [
  'damage',
  'heal',
  'spawn',
  'despawn',
  'move',
  'setVelocity',
  'nearest',
  'distance',
  'sound',
  'particles',
  'say',
  'buff',
  'random',
  'now',
  'wait',
];

const CHARGED = 'charged the heap';

function refuse(): never {
  throw new Error(CHARGED);
}

/** A context that allows fuel, output and waits, and refuses any heap charge. */
const REFUSING: HostContext = {
  suspend: () => {},
  chargeFuel: () => {},
  remainingFuel: 1e9,
  chargeHeap: refuse,
  chargeOutput: () => {},
  checkWait: () => {},
  maxWait: Infinity,
  makeList: refuse,
  fiber: null,
  line: 1,
  cast: null,
};

/** REFUSING, in a cast of the world (the host functions find their world through the context's cast). */
function refusingIn(cast: CastContext): HostContext {
  return { ...REFUSING, cast };
}

/** A world with a few entities, and a cast on it held after it ran (the host functions reach the world only through a cast). */
function worldAndCast(): { world: World; cast: CastContext; foreign: Value } {
  let held: CastContext | null = null;
  const grab = worldHostFunction({
    name: 'grab',
    params: [],
    returns: 'nil',
    doc: 'Keep the running cast.',
    impl: (ctx) => {
      held = castIn(ctx);
      return null;
    },
  });
  const world = new World({ width: 50, height: 50, hosts: [grab] });
  world.loadBreeds({ breeds: [{ name: 'Hero', health: 20 }, { name: 'Troll', health: 30, tags: ['monster'] }] });
  world.loadSpells('spell keep(c, t) { grab(); }', 'game.spell');
  const caster = world.spawn('Hero', 10, 10);
  for (let i = 0; i < 5; i++) world.spawn('Troll', 12 + i, 10);
  expect(world.cast('keep', caster, null).state).toBe('done');
  const other = new World({ width: 5, height: 5 });
  other.loadBreeds({ breeds: [{ name: 'Hero', health: 20 }] });
  return { world, cast: held!, foreign: other.entityRef(other.spawn('Hero', 1, 1))! };
}

/** Representative arguments of a parameter type: entities are made afresh for each call (a call may kill or remove them). */
function samples(type: ValueType, fresh: () => Value[], foreign: Value): (() => Value)[] {
  switch (type) {
    case 'entity':
      return [() => fresh()[0]!, () => fresh()[1]!, () => fresh()[2]!, () => foreign];
    case 'number':
      return [0, 1.5, 25, -1, 1e9, Number.NaN, Number.POSITIVE_INFINITY].map((n) => () => n);
    case 'string':
      return ['Troll', 'monster', 'speed', 'maxHealth', 'health', '', 'x'.repeat(5000)].map((s) => () => s);
    default:
      return [() => null, () => 1, () => 'text'];
  }
}

/** Every combination of the samples of `host`'s parameters (optional ones also left out). */
function argumentLists(host: HostFunction, fresh: () => Value[], foreign: Value): (() => Value[])[] {
  let lists: (() => Value[])[] = [() => []];
  for (const param of host.params) {
    const next: (() => Value[])[] = [];
    for (const list of lists) {
      if (param.optional === true) next.push(list);
      for (const sample of samples(param.type, fresh, foreign)) next.push(() => [...list(), sample()]);
    }
    lists = next;
  }
  return lists;
}

describe('game host functions that never charge the heap', () => {
  it('are all but the two that return a new list', () => {
    const free = GAME_HOST_FUNCTIONS.filter((host) => !new ObjHostFunction(host).chargesHeap).map((host) => host.name);
    expect(free).toEqual(HEAP_FREE);
    expect(GAME_HOST_FUNCTIONS.filter((host) => !free.includes(host.name)).map((host) => host.name)).toEqual(['nearby', 'within']);
  });

  it('charge nothing of the heap, whatever arguments of their types they are given', () => {
    const { world, cast, foreign } = worldAndCast();
    // A fresh hero, a fresh troll and one already gone, for each call's entity arguments.
    let made: Value[] | null = null;
    const fresh = (): Value[] => {
      if (made !== null) return made;
      const gone = world.spawn('Troll', 30, 30);
      const goneRef = world.entityRef(gone)!;
      world.despawn(gone);
      made = [world.entityRef(world.spawn('Hero', 11, 11))!, world.entityRef(world.spawn('Troll', 14, 12))!, goneRef];
      return made;
    };
    for (const host of GAME_HOST_FUNCTIONS) {
      if (new ObjHostFunction(host).chargesHeap) continue;
      let returned = 0;
      for (const args of argumentLists(host, fresh, foreign)) {
        made = null;
        const list = args();
        // A refused argument, a gone entity or a full world may throw its own error; a heap charge is the only thing not allowed.
        try {
          const result = host.impl(refusingIn(cast), ...list);
          if (result instanceof EntityRef) list.push(result);
          returned++;
        } catch (error) {
          expect((error as Error).message, host.name).not.toBe(CHARGED);
        }
        // The world as it was: what the call made or was given goes.
        for (const v of [...list, ...(made ?? [])]) if (v instanceof EntityRef && world.isAlive(v.id)) world.despawn(v.id);
        world.step();
      }
      // Not a test of errors only: every one of them did its work for some arguments.
      expect(returned, host.name).toBeGreaterThan(0);
    }
  });

  it('are told apart from those that charge by the context used above', () => {
    const { world, cast } = worldAndCast();
    const nearby = GAME_HOST_FUNCTIONS.find((host) => host.name === 'nearby')!;
    const center = world.entityRef(world.spawn('Hero', 20, 20))!;
    expect(() => nearby.impl(refusingIn(cast), center, 10)).toThrow(CHARGED);
  });

  it('a game’s own host functions are never taken as heap-free', () => {
    const { world } = worldAndCast();
    const own = world.hosts.find((host) => host.name === 'grab')!;
    expect(new ObjHostFunction(own).chargesHeap).toBe(true);
  });
});
