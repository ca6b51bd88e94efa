/**
 * The world's own casts (tick spells, AOI handlers) take the VM's fast path
 * and reuse their argument arrays and cast contexts: a cast that waits,
 * fails or is paused must keep its own context, and the ones that finish
 * must not disturb it.
 */
import { describe, expect, it } from 'vitest';
import { Debugger } from '../../vm/debugger.js';
import type { Fiber } from '../../vm/fiber.js';
import type { WorldEvent } from '../events/events.js';
import { World } from './world.js';
import type { BreedData } from '../entities/breeds.js';

const ofType = <T extends WorldEvent['type']>(events: WorldEvent[], type: T): Extract<WorldEvent, { type: T }>[] =>
  events.filter((e): e is Extract<WorldEvent, { type: T }> => e.type === type);

function makeWorld(spells: string, breeds: unknown[]): { world: World; events: WorldEvent[] } {
  const world = new World({ width: 40, height: 40, seed: 3, step: 0.05, aoiMoveEvents: false });
  world.loadSpells(spells, 'test.spell');
  world.loadBreeds({ breeds } as BreedData);
  const events: WorldEvent[] = [];
  world.on((e) => events.push(e));
  return { world, events };
}

describe('the world casts tick and AOI spells through the fast path', () => {
  it('tick casts that finish, wait, fail and print keep their own caster, spell and arguments', () => {
    const { world, events } = makeWorld(
      `
      spell count(self, dt) {
        self.n += 1;
        if (self.n % 3 == 0) {
          var keep = self.n * 100 + self.id;
          wait(dt * 2);
          print keep;
        }
      }
      spell flaky(self, dt) {
        self.n += 1;
        if (self.n % 2 == 0) print self.nothing;
      }
      spell three(self, dt, extra) { if (extra != nil) print "extra"; self.dt = dt; }
      `,
      [
        { name: 'Counter', health: 5, attributes: { n: 0 }, spells: { tick: 'count' } },
        { name: 'Flaky', health: 5, attributes: { n: 0 }, spells: { tick: 'flaky' } },
        { name: 'Padded', health: 5, attributes: { dt: 0 }, spells: { tick: 'three' } },
      ],
    );
    const counters = [world.spawn('Counter', 1, 1), world.spawn('Counter', 5, 5)];
    const flaky = world.spawn('Flaky', 9, 9);
    const padded = world.spawn('Padded', 20, 20);
    for (let i = 0; i < 6; i++) world.step();

    // Each waiting cast printed its own value, as its own caster and spell, two steps later.
    const prints = ofType(events, 'print').map((e) => [e.tick, e.spell, e.caster, e.text]);
    expect(prints).toEqual([
      [5, 'count', counters[0], String(300 + counters[0]!)],
      [5, 'count', counters[1], String(300 + counters[1]!)],
    ]);
    expect(ofType(events, 'cast-error').map((e) => [e.tick, e.spell, e.caster, e.message])).toEqual([
      [2, 'flaky', flaky, "Undefined property 'nothing'."],
      [4, 'flaky', flaky, "Undefined property 'nothing'."],
      [6, 'flaky', flaky, "Undefined property 'nothing'."],
    ]);
    // A spell with more parameters than the world passes gets nil for the rest.
    expect(world.property(padded, 'dt')).toBe(0.05);
    expect(world.waitingCasts).toBe(2);
  });

  it('each tick spell of a phase gets its own arguments, whatever its parameter count, step after step', () => {
    const { world, events } = makeWorld(
      `
      spell none() { print "none"; }
      spell one(self) { print ["one", self.id]; }
      spell two(self, dt) { print ["two", self.id, dt]; }
      spell twoToo(self, dt) { print ["twoToo", self.id, dt]; }
      spell three(self, dt, extra) { print ["three", self.id, dt, extra]; }
      `,
      [
        { name: 'N', health: 5, spells: { tick: 'none' } },
        { name: 'O', health: 5, spells: { tick: 'one' } },
        { name: 'T', health: 5, spells: { tick: 'two' } },
        { name: 'U', health: 5, spells: { tick: 'twoToo' } },
        { name: 'H', health: 5, spells: { tick: 'three' } },
      ],
    );
    const [h, u, t1, o, , t2] = ['H', 'U', 'T', 'O', 'N', 'T'].map((breed, i) => world.spawn(breed, i, i));
    for (let i = 0; i < 3; i++) world.step();
    const perStep = [`[three, ${h}, 0.05, nil]`, `[twoToo, ${u}, 0.05]`, `[two, ${t1}, 0.05]`, `[one, ${o}]`, 'none', `[two, ${t2}, 0.05]`];
    expect(ofType(events, 'cast-error')).toEqual([]);
    expect(ofType(events, 'print').map((e) => [e.tick, e.text])).toEqual([1, 2, 3].flatMap((tick) => perStep.map((text) => [tick, text])));
  });

  it('AOI handlers get (self, other) and may wait', () => {
    const { world, events } = makeWorld(
      `
      spell seen(self, other) { var who = other.id; wait(0.1); print who; }
      spell walk(self, dt) { move(self, self.x - 1, self.y); }
      `,
      [
        { name: 'Watcher', health: 5, interest: 5, spells: { onEnter: 'seen' } },
        { name: 'Walker', health: 5, speed: 0, spells: { tick: 'walk' } },
      ],
    );
    const watcher = world.spawn('Watcher', 10, 10);
    const walker = world.spawn('Walker', 30, 10);
    for (let i = 0; i < 20; i++) world.step();
    const prints = ofType(events, 'print');
    expect(prints.length).toBeGreaterThan(0);
    expect(prints[0]).toMatchObject({ spell: 'seen', caster: watcher, text: String(walker) });
  });

  it('a tick cast paused by a debugger is kept and continued in its own context', () => {
    const { world, events } = makeWorld('spell step1(self, dt) {\n  var x = self.id;\n  print x;\n}\n', [
      { name: 'One', health: 5, spells: { tick: 'step1' } },
    ]);
    const a = world.spawn('One', 1, 1);
    const b = world.spawn('One', 2, 2);
    const vm = world.spellVm('step1')!;
    const dbg = new Debugger(vm);
    dbg.attach();
    dbg.setBreakpoints([3]);
    // Note the fibers the debugger sees (the world hands paused tick casts to no one else).
    const seen = new Set<Fiber>();
    const inner = vm.breakHandler!;
    vm.breakHandler = { shouldPause: (f, fn, pc, depth) => (seen.add(f), inner.shouldPause(f, fn, pc, depth)) };
    world.step();
    expect(world.pausedCasts).toBe(2);
    expect(seen.size).toBe(2);
    world.flush();
    expect(ofType(events, 'print')).toEqual([]);
    // Continue both: each prints its own caster's id, as that caster.
    for (const fiber of seen) expect(world.continuePaused(fiber, (f) => dbg.continue(f)).state).toBe('done');
    world.flush();
    expect(ofType(events, 'print').map((e) => [e.spell, e.caster, e.text])).toEqual([
      ['step1', a, String(a)],
      ['step1', b, String(b)],
    ]);
    expect(world.pausedCasts).toBe(0);
  });
});
