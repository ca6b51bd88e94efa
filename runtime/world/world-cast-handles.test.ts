/**
 * Casts in flight as handles: world.casts(filter) lists them with a stable id
 * (across waits, snapshots and hand-overs), world.cancelCasts(filter) ends them.
 */

import { describe, expect, it } from 'vitest';
import { Debugger } from '../../vm/debugger.js';
import type { WorldEvent } from '../events/events.js';
import { BUILT_IN_EVENTS } from '../events/built-in-events.js';
import { World as RootWorld, type CastInfo as RootCastInfo } from '../../index.js';
import { WorldError } from '../errors.js';
import { World, type CastInfo } from './world.js';

const SPELLS = `spell aura(self, t) {
  var n = 0;
  while (true) {
    n += 1;
    wait(0.5);
  }
}
spell zap(c, t, power) {
  wait(1);
  damage(t, power);
}
spell watch(self, other) {
  wait(2);
}
`;

const BREEDS = {
  breeds: [
    { name: 'Mage', health: 30 },
    { name: 'Owl', health: 5, interest: 10, spells: { onEnter: 'watch' } },
  ],
};

function makeWorld(firstId = 1): { world: World; events: WorldEvent[] } {
  const world = new World({ width: 100, height: 100, step: 0.1 });
  world.loadBreeds(BREEDS);
  world.loadSpells(SPELLS, 'casts.spell');
  world.startIdsAt(firstId);
  const events: WorldEvent[] = [];
  world.on((e) => events.push(e as WorldEvent));
  return { world, events };
}

const brief = (c: CastInfo) => `${c.spell} by ${c.caster} on ${c.target} at line ${c.line} in ${c.function}, wakes ${c.wakesAt}`;

describe('world.casts()', () => {
  it('lists every waiting cast with its id, spell, caster, target, line and wake time; filters', () => {
    const { world } = makeWorld();
    const mage = world.spawn('Mage', 10, 10);
    const troll = world.spawn('Mage', 90, 90);
    const aura = world.cast('aura', mage);
    const zap = world.cast('zap', mage, troll, [4]);
    expect(aura.state).toBe('suspended');
    expect(aura.id).toBe(`${mage}:1`);
    expect(zap.id).toBe(`${mage}:2`);
    expect(world.cast('zap', null, troll, [1]).id).toBe('world:3');
    expect(world.casts().map(brief)).toEqual([
      `aura by ${mage} on null at line 5 in aura, wakes 0.5`,
      `zap by ${mage} on ${troll} at line 9 in zap, wakes 1`,
      `zap by null on ${troll} at line 9 in zap, wakes 1`,
    ]);
    expect(world.casts()[0]).toMatchObject({ state: 'waiting', sourceName: 'casts.spell', oldCode: false });
    expect(world.casts({ spell: 'zap' }).map((c) => c.id)).toEqual([zap.id, 'world:3']);
    expect(world.casts({ caster: null }).map((c) => c.id)).toEqual(['world:3']);
    expect(world.casts({ caster: mage, spell: 'zap' }).map((c) => c.id)).toEqual([zap.id]);
    expect(world.casts({ id: aura.id! }).map((c) => c.spell)).toEqual(['aura']);
    expect(world.casts({ state: 'paused' })).toEqual([]);
  });

  it('keeps a cast’s id while it waits again and again; a finished cast has none', () => {
    const { world } = makeWorld();
    const mage = world.spawn('Mage', 10, 10);
    const id = world.cast('aura', mage).id;
    for (let i = 0; i < 12; i++) world.step();
    expect(world.casts().map((c) => [c.id, c.wakesAt])).toEqual([[id, 1.5]]);
    expect(world.cast('zap', mage, mage, [0]).id).toBe(`${mage}:2`);
    for (let i = 0; i < 12; i++) world.step();
    expect(world.casts().map((c) => c.id)).toEqual([id]);
  });

  it('names the target of an onEnter handler that waits, and none for a tick spell', () => {
    const { world } = makeWorld();
    const owl = world.spawn('Owl', 50, 50);
    const mage = world.spawn('Mage', 52, 50);
    world.step();
    expect(world.casts().map((c) => [c.spell, c.caster, c.target])).toEqual([['watch', owl, mage]]);
  });

  it('keeps the ids through a snapshot, and counts on past them', () => {
    const { world } = makeWorld();
    const mage = world.spawn('Mage', 10, 10);
    const troll = world.spawn('Mage', 90, 90);
    world.cast('aura', mage);
    world.cast('zap', mage, troll, [4]);
    world.step();
    const before = world.casts();
    const restored = World.restore(JSON.parse(JSON.stringify(world.snapshot())));
    expect(restored.casts()).toEqual(before);
    expect(restored.cast('aura', troll).id).toBe(`${troll}:3`);
  });

  it('gives a cast from an older save (no ids) a new one', () => {
    const { world } = makeWorld();
    const mage = world.spawn('Mage', 10, 10);
    world.cast('aura', mage);
    const data = JSON.parse(JSON.stringify(world.snapshot()));
    for (const c of data.spellState.casts) delete c.id;
    delete data.spellState.castNumber;
    const restored = World.restore(data);
    expect(restored.casts().map((c) => c.id)).toEqual([`${mage}:1`]);
    expect(restored.cast('aura', mage).id).toBe(`${mage}:2`);
  });

  it('gives a new id to a cast whose saved id another saved cast has, or which is not one', () => {
    const { world } = makeWorld();
    const mage = world.spawn('Mage', 10, 10);
    world.cast('aura', mage);
    world.cast('aura', mage);
    world.cast('aura', mage);
    const data = JSON.parse(JSON.stringify(world.snapshot()));
    data.spellState.casts[1].id = data.spellState.casts[0].id;
    data.spellState.casts[2].id = 'x:y';
    const ids = World.restore(data).casts().map((c) => c.id);
    expect(ids).toEqual([`${mage}:1`, `${mage}:4`, `${mage}:5`]);
  });

  it('keeps the ids of an entity’s casts when it is handed over to another world', () => {
    const a = makeWorld(1).world;
    const b = makeWorld(1_000_001).world;
    const there = b.spawn('Mage', 5, 5);
    b.cast('aura', there);
    b.cast('aura', there);
    const mage = a.spawn('Mage', 10, 10);
    const ids = [a.cast('aura', mage).id, a.cast('zap', mage, mage, [1]).id, a.cast('aura', mage).id];
    expect(ids).toEqual([`${mage}:1`, `${mage}:2`, `${mage}:3`]);
    const exported = JSON.parse(JSON.stringify(a.exportEntity(mage)));
    a.releaseEntity(mage);
    b.importEntity(exported);
    expect(b.casts({ caster: mage }).map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(b.casts({ caster: mage, spell: 'zap' })[0]!.target).toBe(mage);
    // b counts on past the numbers it took in: a new cast of the same caster gets a new id.
    expect(b.cast('aura', mage).id).toBe(`${mage}:4`);
    expect(new Set(b.casts().map((c) => c.id)).size).toBe(b.casts().length);
  });

  it('lists a cast a debugger paused, without a wake time', () => {
    const { world } = makeWorld();
    const mage = world.spawn('Mage', 10, 10);
    const vm = world.spellVm('zap')!;
    const dbg = new Debugger(vm);
    dbg.attach();
    dbg.setBreakpoints([10]);
    const zap = world.cast('zap', mage, mage, [1]);
    for (let i = 0; i < 10; i++) world.step();
    expect(world.pausedCasts).toBe(1);
    expect(world.casts().map((c) => [c.id, c.state, c.line, c.wakesAt])).toEqual([[zap.id, 'paused', 10, null]]);
    expect(world.continuePaused(zap.fiber, (f) => dbg.continue(f)).state).toBe('done');
    expect(world.casts()).toEqual([]);
  });

  it('is typed and exported from the package root', () => {
    const world = new RootWorld({ width: 10, height: 10 });
    const listed: RootCastInfo[] = world.casts({ spell: 'none' });
    expect(listed).toEqual([]);
  });
});

describe('world.cancelCasts()', () => {
  it('ends the casts a filter matches, each with a cast-cancelled event, and says how many', () => {
    const { world, events } = makeWorld();
    const mage = world.spawn('Mage', 10, 10);
    const other = world.spawn('Mage', 20, 10);
    world.cast('aura', mage);
    const zap = world.cast('zap', mage, other, [3]);
    world.cast('aura', other);
    world.cast('zap', other, mage, [3]);
    expect(world.cancelCasts({ id: zap.id! })).toBe(1);
    expect(world.cancelCasts({ id: zap.id! })).toBe(0);
    expect(world.cancelCasts({ spell: 'aura', caster: other }, 'Dispelled.')).toBe(1);
    expect(world.casts().map((c) => `${c.spell} ${c.caster}`)).toEqual([`aura ${mage}`, `zap ${other}`]);
    expect(world.cancelCasts({})).toBe(2);
    expect(world.waitingCasts).toBe(0);
    world.flush();
    const cancelled = events.flatMap((e) => (e.type === 'cast-cancelled' ? [`${e.spell} ${e.caster} ${e.reason}: ${e.message}`] : []));
    expect(cancelled).toEqual([
      `zap ${mage} cancelled: Cast cancelled.`,
      `aura ${other} cancelled: Dispelled.`,
      `aura ${mage} cancelled: Cast cancelled.`,
      `zap ${other} cancelled: Cast cancelled.`,
    ]);
    // Cancelled casts never run again: the troll is never zapped.
    for (let i = 0; i < 30; i++) world.step();
    expect(world.entity(mage)!.health).toBe(30);
  });

  it('refuses a filter that is not one, naming the criterion', () => {
    const { world } = makeWorld();
    expect(() => world.cancelCasts({ caster: -1 })).toThrow(WorldError);
    expect(() => world.cancelCasts({ caster: -1 })).toThrow("cancelCasts(): 'caster' must be an entity id or null, got -1.");
    expect(() => world.casts({ spel: 'aura' } as never)).toThrow("casts(): unknown filter 'spel' (it takes id, spell, caster and state).");
    expect(() => world.cancelCasts(null as never)).toThrow('cancelCasts() needs a filter object');
  });
});

describe('cast ids on events', () => {
  const SPELLS_WITH_FAILURES = `${SPELLS}
spell late(c, t) {
  wait(1);
  var nothing = nil;
  damage(t, nothing.power);
}
spell early(c, t) {
  var nothing = nil;
  damage(t, nothing.power);
}
`;

  it('cast-cancelled and cast-error carry the id world.casts() listed; a cast that never waited has none', () => {
    const { world, events } = makeWorld();
    world.loadSpells(SPELLS_WITH_FAILURES, 'casts.spell');
    const mage = world.spawn('Mage', 10, 10);
    const troll = world.spawn('Mage', 20, 10);
    const aura = world.cast('aura', mage);
    const zap = world.cast('zap', troll, mage, [1]);
    const late = world.cast('late', mage, troll);
    const early = world.cast('early', mage, troll);
    expect(early.state).toBe('failed');
    expect(world.casts().map((c) => c.id)).toEqual([aura.id, zap.id, late.id]);
    world.cancelCasts({ id: aura.id! }, 'Dispelled.');
    world.despawn(troll);
    for (let i = 0; i < 12; i++) world.step();
    world.flush();
    const ends = events.flatMap((e) =>
      e.type === 'cast-cancelled' ? [`${e.spell} ${e.id} ${e.reason}`] : e.type === 'cast-error' ? [`${e.spell} ${e.id} error`] : [],
    );
    expect(ends).toEqual([`early null error`, `aura ${aura.id} cancelled`, `zap ${zap.id} caster-gone`, `late ${late.id} error`]);
    expect(aura.id).toMatch(/^\d+:\d+$/);
  });

  it('is declared with the events (so their type and the docs’ event table have it)', () => {
    const declared = BUILT_IN_EVENTS.filter((d) => d.type === 'cast-cancelled' || d.type === 'cast-error');
    expect(declared.map((d) => [d.type, (d.fields as Readonly<Record<string, unknown>>).id])).toEqual([
      ['cast-error', expect.objectContaining({ type: 'string', nullable: true })],
      ['cast-cancelled', expect.objectContaining({ type: 'string', nullable: true })],
    ]);
  });
});
