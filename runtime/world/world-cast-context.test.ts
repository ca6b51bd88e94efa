/**
 * The running cast travels with the call (HostContext.cast, set on the VM by
 * the world around each run), never in a module-level variable: casts that
 * nest across worlds and across a world's VMs each see their own.
 */

import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.js';
import { VM } from '../../vm/vm.js';
import type { WorldEvent } from '../events/events.js';
import { WORLD_HOST_FUNCTIONS, runningCast } from '../host/host-api.js';
import { worldHostFunction } from '../host/world-hosts.js';
import { World } from './world.js';

const BREEDS = { breeds: [{ name: 'Hero', health: 20 }, { name: 'Troll', health: 30 }] };

function collect(world: World): WorldEvent[] {
  const events: WorldEvent[] = [];
  world.on((e) => events.push(e as WorldEvent));
  return events;
}

describe('the running cast on the host context', () => {
  it('a cast in another world from inside a game host function: each world sees its own caster, before and after', () => {
    const other = new World({ width: 50, height: 50 });
    other.loadBreeds(BREEDS);
    other.loadSpells('spell zap(c, t) { print "zap"; damage(t, 3); t.health = t.health - 1; }', 'other.spell');
    const otherHero = other.spawn('Hero', 1, 1);
    const otherTroll = other.spawn('Troll', 2, 1);
    const elsewhere = worldHostFunction({
      name: 'elsewhere',
      params: [],
      returns: 'nil',
      doc: 'Cast zap in the other world.',
      impl: () => {
        other.cast('zap', otherHero, otherTroll);
        return null;
      },
    });
    const world = new World({ width: 50, height: 50, hosts: [elsewhere] });
    world.loadBreeds(BREEDS);
    world.loadSpells('spell hit(c, t) { elsewhere(); print "hit"; damage(t, 5); t.health = t.health - 2; }', 'game.spell');
    const hero = world.spawn('Hero', 1, 1);
    const troll = world.spawn('Troll', 2, 1);
    const here = collect(world);
    const there = collect(other);
    expect(world.cast('hit', hero, troll).state).toBe('done');
    world.flush();
    other.flush();
    const summary = (events: WorldEvent[]) =>
      events.flatMap((e) => (e.type === 'print' ? [`print ${e.text} by ${e.spell} #${e.caster}`] : e.type === 'damage' ? [`damage ${e.amount} to #${e.entity} by #${e.by}`] : []));
    expect(summary(here)).toEqual([`print hit by hit #${hero}`, `damage 5 to #${troll} by #${hero}`, `damage 2 to #${troll} by #${hero}`]);
    expect(summary(there)).toEqual([`print zap by zap #${otherHero}`, `damage 3 to #${otherTroll} by #${otherHero}`, `damage 1 to #${otherTroll} by #${otherHero}`]);
  });

  it('a VM runs no cast once the world is done with it; a tick phase over two modules gives each cast its own caster', () => {
    const world = new World({ width: 50, height: 50 });
    world.loadBreeds({ breeds: [{ name: 'Hero', health: 20, spells: { tick: 'a' } }, { name: 'Troll', health: 30, spells: { tick: 'b' } }] });
    world.loadSpells('spell a(self, dt) { say(self, "a"); if (self.health > 19) wait(1); }', 'a.spell');
    world.loadSpells('spell b(self, dt) { say(self, "b"); }', 'b.spell');
    const ids = [world.spawn('Hero', 1, 1), world.spawn('Troll', 2, 1), world.spawn('Hero', 3, 1), world.spawn('Troll', 4, 1)];
    const events = collect(world);
    world.step();
    const said = events.flatMap((e) => (e.type === 'say' ? [`${e.text} #${e.entity}`] : []));
    expect(said).toEqual([`a #${ids[0]}`, `b #${ids[1]}`, `a #${ids[2]}`, `b #${ids[3]}`]);
    expect(world.waitingCasts).toBe(2);
    expect(runningCast(world.spellVm('a')!)).toBeNull();
    expect(runningCast(world.spellVm('b')!)).toBeNull();
  });

  it('on a VM no world cast on, the game functions say where they can be used', () => {
    const { module } = compile('print now();', { hosts: WORLD_HOST_FUNCTIONS });
    const vm = new VM(module!, { hosts: WORLD_HOST_FUNCTIONS, print: () => {} });
    const fiber = vm.runScript();
    expect(fiber.state).toBe('failed');
    expect(fiber.error?.message).toContain('now() can only be used in a spell cast on a world.');
  });
});
