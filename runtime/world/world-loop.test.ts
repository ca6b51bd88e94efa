/**
 * The loop's invariants under the things that break them: the pool
 * evicting or reusing slots while a phase iterates it, listeners that throw
 * or step the world from inside a delivery, hot copies of derived stats,
 * tiny fixed steps, and casts whose caster dies while they wait.
 */
import { describe, expect, it } from 'vitest';
import { Debugger } from '../../vm/debugger.js';
import { ListenerError, WorldError } from '../errors.js';
import { describeEvent, EntityNames, type WorldEvent } from '../events/events.js';
import { World, type WorldOptions } from './world.js';

const BREEDS = {
  breeds: [
    { name: 'U', health: 20, speed: 3, spells: { tick: 't' } },
    { name: 'Rock', health: 20, speed: 3 },
    { name: 'Watcher', health: 20, interest: 5 },
  ],
};

function makeWorld(spells: string, options: Partial<WorldOptions> = {}): { world: World; events: WorldEvent[]; lines: () => string[] } {
  const world = new World({ width: 50, height: 50, seed: 3, ...options });
  world.loadSpells(spells.includes('spell t(') ? spells : `${spells}\nspell t(self, dt) {}`, 'loop.spell');
  world.loadBreeds(BREEDS);
  const events: WorldEvent[] = [];
  world.on((e) => events.push(e));
  const lines = (): string[] =>
    events
      .filter((e) => e.type === 'print' || e.type === 'despawn' || e.type === 'spawn' || e.type === 'cast-cancelled')
      .map((e) =>
        e.type === 'print' ? e.text : e.type === 'spawn' ? `spawn #${e.entity}` : e.type === 'despawn' ? `despawn #${e.entity} (${e.reason})` : `cancelled ${e.spell}`,
      );
  return { world, events, lines };
}

const ofType = <T extends WorldEvent['type']>(events: WorldEvent[], type: T): Extract<WorldEvent, { type: T }>[] =>
  events.filter((e): e is Extract<WorldEvent, { type: T }> => e.type === type);

describe('the update loop while the pool recycles', () => {
  it('ticks every entity alive at the start of the phase once, and no newborn, when a tick spell evicts', () => {
    const { world, lines } = makeWorld(
      'spell t(self, dt) { print "tick " + str(self.id); if (self.id == 2 and now() < 0.15) spawn("U", 1, 1); }',
      { capacity: 3, policy: 'recycle-oldest' },
    );
    world.spawn('U', 1, 1);
    world.spawn('U', 2, 2);
    world.spawn('U', 3, 3);
    world.flush();
    const before = lines().length;
    world.step();
    expect(lines().slice(before)).toEqual(['tick 1', 'tick 2', 'despawn #1 (evicted)', 'spawn #4', 'tick 3']);
    world.step();
    expect(lines().slice(before + 5).sort()).toEqual(['tick 2', 'tick 3', 'tick 4']);
  });

  it('every entity alive at the start ticks exactly once whatever the spells spawn, kill and despawn (random worlds)', () => {
    // Each tick spell may spawn (evicting the oldest), kill or despawn a random entity.
    const spells = `
      spell t(self, dt) {
        print "tick " + str(self.id);
        var r = random();
        if (r < 0.3) spawn("U", random() * 50, random() * 50);
        else if (r < 0.45) { var n = nearest(self, 100); if (n != nil) damage(n, 999); }
        else if (r < 0.55) { var m = nearest(self, 100); if (m != nil) despawn(m); }
      }`;
    for (const policy of ['recycle-oldest', 'grow', 'error'] as const) {
      for (let seed = 1; seed <= 12; seed++) {
        const { world, events } = makeWorld(spells, { capacity: 6, policy, seed });
        for (let i = 0; i < 6; i++) world.spawn('U', i * 7, i * 5);
        world.flush();
        for (let step = 0; step < 8; step++) {
          const from = events.length;
          const aliveAtStart = world.entities().map((e) => e.id);
          world.step();
          const stepEvents = events.slice(from);
          const ticked = ofType(stepEvents, 'print').map((e) => Number(e.text.slice(5)));
          // Who was gone before their turn: killed, despawned or evicted earlier in the phase.
          const goneBefore = new Set<number>();
          const expected: number[] = [];
          for (const e of stepEvents) {
            if (e.type === 'despawn') goneBefore.add(e.entity);
            if (e.type === 'damage' && e.health === 0) goneBefore.add(e.entity);
          }
          for (const id of ticked) expect(aliveAtStart).toContain(id); // no newborn ticks
          expect(new Set(ticked).size).toBe(ticked.length); // nobody ticks twice
          for (const id of aliveAtStart) if (!ticked.includes(id)) expected.push(id);
          for (const id of expected) expect(goneBefore.has(id)).toBe(true); // only the gone miss their turn
        }
      }
    }
  });
});

describe('waiting casts in a churning world', () => {
  it('a cast never resumes once its caster is gone, and each waiting cast resumes or is cancelled exactly once', () => {
    const spells = `
      spell t(self, dt) {
        var r = random();
        if (r < 0.25) spawn("U", random() * 50, random() * 50);
        else if (r < 0.35) { var n = nearest(self, 100); if (n != nil) damage(n, 999); }
        else if (r < 0.4) { var m = nearest(self, 100); if (m != nil) despawn(m); }
        else if (r < 0.5) despawn(self);
        if (random() < 0.4) { say(self, "wait"); wait(random() * 0.3); say(self, "back"); }
      }`;
    for (const policy of ['recycle-oldest', 'grow'] as const) {
      for (let seed = 1; seed <= 10; seed++) {
        const { world, events } = makeWorld(spells, { capacity: 8, policy, seed });
        for (let i = 0; i < 8; i++) world.spawn('U', i * 6, i * 6);
        for (let step = 0; step < 40; step++) world.step();
        const gone = new Set<number>();
        let waits = 0;
        let ends = 0;
        for (const e of events) {
          if (e.type === 'despawn') gone.add(e.entity);
          if (e.type === 'say' && e.text === 'wait') waits++;
          if (e.type === 'say' && e.text === 'back') {
            expect(gone.has(e.entity)).toBe(false);
            ends++;
          }
          if (e.type === 'cast-cancelled') {
            expect(e.reason).toBe('caster-gone');
            ends++;
          }
        }
        expect(ends + world.waitingCasts).toBe(waits);
      }
    }
  });
});

describe('why an entity went', () => {
  it('a killed entity is reported as killed when a spawn in the same cast needs a slot', () => {
    const { world, events } = makeWorld('spell kill(self, t) { damage(t, 999); spawn("Rock", 1, 1); }', { capacity: 2, policy: 'recycle-oldest' });
    const a = world.spawn('Rock', 1, 1);
    const b = world.spawn('Rock', 2, 2);
    world.cast('kill', b, a);
    world.flush();
    expect(ofType(events, 'despawn')).toMatchObject([{ entity: a, reason: 'killed' }]);
    expect(world.isAlive(b)).toBe(true);
  });

  it("a full pool reuses a dead entity's slot before it evicts a living one", () => {
    const { world, events } = makeWorld('spell kill(self, t) { damage(t, 999); spawn("Rock", 1, 1); }', { capacity: 2, policy: 'recycle-oldest' });
    const a = world.spawn('Rock', 1, 1);
    const b = world.spawn('Rock', 2, 2);
    world.cast('kill', a, b);
    world.flush();
    expect(ofType(events, 'despawn')).toMatchObject([{ entity: b, reason: 'killed' }]);
    expect(world.isAlive(a)).toBe(true);
    expect(world.entities().map((e) => e.id)).toEqual([a, 3]);
  });

  it("under the 'error' policy too: a dead entity's slot is free for the next spawn of the same step", () => {
    const { world, events } = makeWorld('spell kill(self, t) { despawn(t); spawn("Rock", 1, 1); }', { capacity: 2 });
    const a = world.spawn('Rock', 1, 1);
    const b = world.spawn('Rock', 2, 2);
    const result = world.cast('kill', a, b);
    world.flush();
    expect(result.state).toBe('done');
    expect(ofType(events, 'despawn')).toMatchObject([{ entity: b, reason: 'despawned' }]);
    expect(ofType(events, 'cast-error')).toEqual([]);
  });
});

describe('observers', () => {
  it('a listener that throws does not silence the others or lose the queue; the flush reports it after delivering everything', () => {
    const { world } = makeWorld('spell chat(self) { say(self, "a"); say(self, "b"); say(self, "c"); }');
    const seen: string[] = [];
    const bad = new Error('renderer bug');
    world.on((e) => {
      if (e.type === 'say' && e.text === 'a') throw bad;
    });
    world.on((e) => {
      if (e.type === 'say') seen.push(e.text);
    });
    world.cast('chat', world.spawn('Rock', 1, 1));
    let thrown: unknown;
    try {
      world.flush();
    } catch (error) {
      thrown = error;
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(thrown).toBeInstanceOf(ListenerError);
    const failure = thrown as ListenerError;
    expect(failure.cause).toBe(bad);
    expect(failure.failures).toMatchObject([{ error: bad, event: { type: 'say', text: 'a' } }]);
    expect(failure.message).toBe('A world listener threw on a say event: renderer bug');
    // The queue was delivered: nothing is left to deliver twice.
    world.flush();
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('with an error handler, a throwing listener is reported there and the step goes on quietly', () => {
    const { world, events } = makeWorld('spell t(self, dt) { say(self, "tick"); }');
    const reported: [string, string][] = [];
    world.onListenerError((error, event) => reported.push([(error as Error).message, event.type]));
    world.on((e) => {
      if (e.type === 'say') throw new Error('boom');
    });
    world.spawn('U', 1, 1);
    world.spawn('U', 2, 2);
    expect(world.tick(0.2)).toBe(2);
    expect(reported).toEqual([
      ['boom', 'say'],
      ['boom', 'say'],
      ['boom', 'say'],
      ['boom', 'say'],
    ]);
    expect(ofType(events, 'say')).toHaveLength(4);
  });

  it('a tick whose first step has a failing listener keeps the rest of its time for the next tick', () => {
    const { world } = makeWorld('', { step: 0.1 });
    let fail = true;
    world.on(() => {
      if (fail) throw new Error('once');
    });
    world.spawn('Rock', 1, 1);
    expect(() => world.tick(0.3)).toThrow(ListenerError);
    fail = false;
    expect(world.steps).toBe(1);
    expect(world.tick(0)).toBe(2);
    expect(world.steps).toBe(3);
  });

  it('step(), tick() and flush() from inside a listener are refused with a clear error, and delivery order holds', () => {
    const { world } = makeWorld('spell t(self, dt) { say(self, "A" + str(self.id)); }');
    const order: string[] = [];
    const refusals: unknown[] = [];
    world.on((e) => {
      order.push(e.type === 'say' ? `say@${e.tick}:${e.text}` : `${e.type}@${e.tick}`);
      if (e.type === 'say' && e.text === 'A1') {
        for (const reenter of [() => world.step(), () => world.tick(1), () => world.flush()]) {
          try {
            reenter();
          } catch (error) {
            refusals.push(error);
          }
        }
      }
    });
    world.spawn('U', 1, 1);
    world.spawn('U', 2, 2);
    world.flush();
    order.length = 0;
    world.step();
    expect(order).toEqual(['say@1:A1', 'say@1:A2']);
    expect(refusals).toHaveLength(3);
    for (const r of refusals) expect(r).toBeInstanceOf(WorldError);
    expect((refusals[0] as Error).message).toBe(
      'step() was called from a world listener: the world is delivering events. Call it after tick(), step() or flush() returns.',
    );
    expect(world.steps).toBe(1);
  });
});

describe('re-entering the loop from code the embedder runs inside a step', () => {
  it('tick() and step() from a debugger hook during a tick spell are refused, and the refused time is not counted', () => {
    const { world } = makeWorld('spell t(self, dt) {\n  print "tick";\n}');
    world.spawn('U', 1, 1);
    const vm = world.spellVm('t')!;
    const dbg = new Debugger(vm);
    dbg.attach();
    dbg.setBreakpoints([2]);
    const refusals: string[] = [];
    vm.breakHandler = {
      shouldPause: () => {
        for (const reenter of [() => world.tick(5), () => world.step()]) {
          try {
            reenter();
          } catch (error) {
            refusals.push((error as Error).message);
          }
        }
        return false;
      },
    };
    expect(world.tick(0.1)).toBe(1);
    expect(new Set(refusals)).toEqual(new Set(['tick() was called from inside a step.', 'step() was called from inside a step.']));
    vm.breakHandler = null;
    expect(world.tick(0)).toBe(0);
    expect(world.steps).toBe(1);
  });
});

describe('hot copies of derived stats', () => {
  it('keeps pool.maxHealth, speed and interest in step with setProperty, spells and buffs', () => {
    const { world } = makeWorld('spell setMax(self) { self.maxHealth = 7; } spell boost(self) { buff(self, "maxHealth", 5, 0.15); }');
    const id = world.spawn('Watcher', 1, 1);
    const slot = (): number => world.pool.indexOf(world.entityRef(id)!.handle);
    world.setProperty(id, 'maxHealth', 50);
    expect(world.property(id, 'maxHealth')).toBe(50);
    expect(world.pool.maxHealth[slot()]).toBe(50);
    world.cast('setMax', id);
    expect(world.pool.maxHealth[slot()]).toBe(7);
    expect(world.pool.health[slot()]).toBe(7);
    world.cast('boost', id);
    expect(world.pool.maxHealth[slot()]).toBe(12);
    world.tick(0.2);
    expect(world.pool.maxHealth[slot()]).toBe(7);
    world.setProperty(id, 'speed', 9);
    world.setProperty(id, 'interest', 4);
    expect([world.pool.speed[slot()], world.pool.interest[slot()]]).toEqual([9, 4]);
    const view = world.entity(id)!;
    expect([view.maxHealth, view.speed, view.interest]).toEqual([world.pool.maxHealth[slot()], world.pool.speed[slot()], world.pool.interest[slot()]]);
  });

  it('lowering maxHealth below health is seen by observers as the damage it amounts to', () => {
    const { world, events } = makeWorld('');
    const id = world.spawn('Rock', 1, 1);
    world.setProperty(id, 'maxHealth', 5);
    world.flush();
    expect(ofType(events, 'damage')).toMatchObject([{ entity: id, amount: 15, health: 5 }]);
    world.setProperty(id, 'maxHealth', 0);
    world.flush();
    expect(ofType(events, 'damage')).toMatchObject([{ amount: 15 }, { amount: 5, health: 0 }]);
    expect(ofType(events, 'despawn')).toMatchObject([{ entity: id, reason: 'killed' }]);
  });
});

describe('the fixed step', () => {
  it('a tiny step needs time to pass: tick(0) runs nothing, the tolerance is relative to the step', () => {
    const { world } = makeWorld('', { step: 1e-9 });
    expect(world.tick(0)).toBe(0);
    expect(world.tick(0)).toBe(0);
    expect(world.tick(3e-9)).toBe(3);
    expect(world.steps).toBe(3);
  });

  it('still counts ten ticks of 0.1 s as ten steps despite rounding', () => {
    const { world } = makeWorld('', { step: 0.1 });
    let ran = 0;
    for (let i = 0; i < 10; i++) ran += world.tick(0.1);
    expect(ran).toBe(10);
    const fine = makeWorld('', { step: 1 / 60 }).world;
    let steps = 0;
    for (let i = 0; i < 600; i++) steps += fine.tick(1 / 60);
    expect(steps).toBe(600);
  });

  it('a wait with a tiny step resumes when its time has come, not a step early', () => {
    const { world, events } = makeWorld('spell nap(self) { wait(0.000000005); print "up at " + str(now() / 0.000000001); }', { step: 1e-9 });
    world.cast('nap', world.spawn('Rock', 1, 1));
    for (let i = 0; i < 6; i++) world.step();
    expect(ofType(events, 'print').map((e) => Math.round(Number(e.text.slice(6))))).toEqual([5]);
    expect(ofType(events, 'print')[0]!.tick).toBe(5);
  });
});

describe('casts whose caster dies while they wait', () => {
  const SPELLS = 'spell channel(self, t) { wait(1); print "done"; } spell killSelf(self, t) { damage(self, 999); wait(0.2); print "never"; }';

  it('are cancelled with a cast-cancelled event the moment the caster dies, with the reason', () => {
    const { world, events, lines } = makeWorld(SPELLS);
    const wizard = world.spawn('Rock', 1, 1);
    const troll = world.spawn('Rock', 2, 2);
    world.cast('channel', wizard, troll);
    expect(world.waitingCasts).toBe(1);
    world.step();
    world.setProperty(wizard, 'health', 0);
    expect(world.waitingCasts).toBe(0);
    world.flush();
    expect(ofType(events, 'cast-cancelled')).toEqual([
      { type: 'cast-cancelled', tick: 1, id: `${wizard}:1`, spell: 'channel', caster: wizard, reason: 'caster-gone', message: 'Its caster died.' },
    ]);
    expect(lines().slice(-2)).toEqual(['cancelled channel', `despawn #${wizard} (killed)`]);
    for (let i = 0; i < 20; i++) world.step();
    expect(ofType(events, 'print')).toEqual([]);
  });

  it('says which way the caster went: despawned, recycled, or dead before the cast even waited', () => {
    const { world, events } = makeWorld(SPELLS, { capacity: 2, policy: 'recycle-oldest' });
    const a = world.spawn('Rock', 1, 1);
    const b = world.spawn('Rock', 2, 2);
    world.cast('channel', a, b);
    world.cast('channel', b, a);
    world.spawn('Rock', 3, 3); // evicts a
    world.despawn(b);
    const c = world.spawn('Rock', 4, 4);
    world.cast('killSelf', c, null);
    world.flush();
    expect(ofType(events, 'cast-cancelled').map((e) => [e.spell, e.caster, e.message])).toEqual([
      ['channel', a, 'Its caster was recycled.'],
      ['channel', b, 'Its caster was despawned.'],
      ['killSelf', c, 'Its caster died.'],
    ]);
    expect(world.waitingCasts).toBe(0);
  });

  it('a cast the embedder cancels is reported too, with its message', () => {
    const { world, events } = makeWorld(SPELLS);
    const a = world.spawn('Rock', 1, 1);
    const { fiber } = world.cast('channel', a, null);
    expect(world.cancelCast(fiber, 'Interrupted.')).toBe(true);
    world.flush();
    expect(ofType(events, 'cast-cancelled')).toMatchObject([{ spell: 'channel', caster: a, reason: 'cancelled', message: 'Interrupted.' }]);
    expect(ofType(events, 'cast-error')).toEqual([]);
    expect(world.waitingCasts).toBe(0);
  });

  it('the others go on in order when many casters die at once', () => {
    const { world, events } = makeWorld('spell channel(self, t) { wait(0.3); print str(self.id); }');
    const ids = Array.from({ length: 30 }, (_, i) => world.spawn('Rock', i, i));
    for (const id of ids) world.cast('channel', id, null);
    for (const id of ids) if (id % 3 === 0) world.despawn(id);
    expect(world.waitingCasts).toBe(20);
    for (let i = 0; i < 4; i++) world.step();
    expect(ofType(events, 'print').map((e) => Number(e.text))).toEqual(ids.filter((id) => id % 3 !== 0));
    expect(ofType(events, 'cast-cancelled')).toHaveLength(10);
  });

  it('names the caster in text, also in the lines after its death', () => {
    const { world, events } = makeWorld(SPELLS);
    const names = new EntityNames();
    const wizard = world.spawn('Rock', 1, 1);
    world.cast('channel', wizard, null);
    world.despawn(wizard);
    world.flush();
    const text = events.map((e) => {
      names.observe(e);
      return describeEvent(e, names.breedOf);
    });
    expect(text.slice(-2)).toEqual(['[tick 0] channel (cast by Rock#1) is cancelled: Its caster was despawned.', '[tick 0] Rock#1 vanishes']);
  });
});
