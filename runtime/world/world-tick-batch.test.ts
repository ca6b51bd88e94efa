/**
 * The tick phase casts `(self, dt)` spells as one batch per spell
 * (FastLoop.runPairInBatch): the loop holds its fiber open between casts and
 * enters a compiled spell through its loop entry. Every road a cast can take
 * in the middle of that batch — a fault, fuel running out, a wait, a host
 * call refusing an argument, the spells reloaded by a host function while
 * the phase runs, the debugger attaching — must give the same events and
 * the same world on either tier, and under `auto` (where the spell changes
 * tier in the middle of the run).
 */
import { describe, expect, it } from 'vitest';
import { Debugger } from '../../vm/debugger.js';
import type { Fiber } from '../../vm/fiber.js';
import type { HostFunction } from '../../vm/host.js';
import type { Tier } from '../../vm/vm.js';
import { World } from './world.js';

const TICK = `
  var ticks = 0;
  spell t(self, dt) {
    ticks = ticks + 1;
    var k = self.id % 7;
    if (k == 1) return nil + 1;
    if (k == 2) { var i = 0; while (true) i = i + 1; }
    if (k == 3 and now() < 1) { wait(0.25); print "woke " + str(self.id); }
    if (k == 4) setVelocity(self, ["fast"][0], 1);
    if (k == 5 and ticks == 179) reloadNow();
    setVelocity(self, random() * 2 - 1, random() * 2 - 1);
    if (k == 6) print "t " + str(self.id) + " " + str(ticks);
  }
`;

/** The reloaded module: the same spell, which now says so (the casts of the rest of the phase run the code they started the phase with). */
const RELOADED = TICK.replace('print "t "', 'print "v2 "');

function run(tier: Tier, steps: number, onStep?: (world: World, step: number) => void): { events: string[]; world: World } {
  let world!: World;
  let reloads = 0;
  // A game host function that reloads the spells while a tick cast runs.
  const reloadNow: HostFunction = {
    name: 'reloadNow',
    params: [],
    returns: 'nil',
    doc: 'Reload the spells (once).',
    impl: () => {
      if (reloads++ === 0) world.loadSpells(RELOADED, 'tick.spell');
      return null;
    },
  };
  world = new World({ width: 60, height: 60, seed: 9, tier, hosts: [reloadNow], budgets: { fuel: 4000 } });
  world.loadSpells(TICK, 'tick.spell');
  world.loadBreeds({ breeds: [{ name: 'U', health: 10, spells: { tick: 't' } }] });
  const events: string[] = [];
  world.on((e) => events.push(JSON.stringify(e)));
  for (let i = 0; i < 40; i++) world.spawn('U', 1 + i, 2 + ((i * 7) % 50));
  for (let s = 0; s < steps; s++) {
    world.step();
    onStep?.(world, s);
  }
  events.push(JSON.stringify(world.snapshot()));
  return { events, world };
}

describe('the tick phase as one batch per spell', () => {
  it('gives the same events and world on either tier and under auto: faults, fuel, waits, refused arguments, a reload mid-phase', () => {
    const interpreted = run('interpreter', 30).events;
    const compiled = run('compiled', 30);
    expect(compiled.events).toEqual(interpreted);
    expect(run('auto', 30).events).toEqual(interpreted);
    // Every road happened: errors of each kind, waits that woke, the reload, the new code's prints.
    // The reload came in the middle of a phase (entity 19 of step 5): the rest of that phase ran the old code ("t 20 180").
    const text = interpreted.join('\n');
    const roads = ['Operands must be', 'fuel', 'Argument 2 of setVelocity() must be', 'woke ', '"type":"spells-reload"', 'v2 ', '"text":"t 20 180"'];
    expect(roads.filter((road) => !text.includes(road))).toEqual([]);
    // The compiled world cast through the loop entry (made for the spell a batch holds its fiber for).
    const vm = compiled.world.spellVm('t')!;
    expect(vm.runtimeFunctions.some((fn) => fn.name === 't' && fn.loopEntry !== null)).toBe(true);
    expect(vm.compileFailures).toEqual([]);
    // Between steps no loop holds a fiber: only the casts that wait are live.
    expect(vm.liveFiberCount).toBe(0);
  });

  it('a fault in the middle of a phase ends that cast alone: the next entity ticks, and every step reports the same casts', () => {
    for (const tier of ['interpreter', 'compiled'] as const) {
      const { events } = run(tier, 6);
      const errors = events.map((e) => JSON.parse(e) as { type: string; caster?: number; tick?: number }).filter((e) => e.type === 'cast-error');
      // Ids 1..40: k = id % 7 is 1, 2 or 4 for 18 of them, each failing every step.
      const perStep = new Map<number, number>();
      for (const e of errors) perStep.set(e.tick!, (perStep.get(e.tick!) ?? 0) + 1);
      expect([...perStep.values()]).toEqual([18, 18, 18, 18, 18, 18]);
      // The entities after a failing one still ticked: entity 6 prints every step (after the reload, in step 6, as v2).
      expect(events.filter((e) => /"text":"(t|v2) 6 /.test(e)).length).toBe(6);
      expect(events.filter((e) => e.includes('"text":"v2 6 ')).length).toBe(1);
    }
  });

  it('a debugger attached between steps pauses a tick cast on the interpreter; detached, the batch runs compiled again', () => {
    const source = 'spell t(self, dt) {\n  var v = self.id;\n  setVelocity(self, v, 0);\n}\n';
    const world = new World({ width: 60, height: 60, seed: 1, tier: 'compiled' });
    world.loadSpells(source, 'd.spell');
    world.loadBreeds({ breeds: [{ name: 'U', health: 10, spells: { tick: 't' } }] });
    for (let i = 0; i < 5; i++) world.spawn('U', 1 + i, 1);
    world.step();
    world.step();
    const vm = world.spellVm('t')!;
    const fn = vm.runtimeFunctions.find((f) => f.name === 't')!;
    expect(fn.loopEntry).not.toBeNull();
    const dbg = new Debugger(vm);
    dbg.attach();
    expect(fn.compiled).toBeNull();
    expect(fn.loopEntry).toBeNull();
    dbg.setBreakpoints([3]);
    // Note the fibers the debugger pauses (the world hands paused tick casts to no one else).
    const seen = new Set<Fiber>();
    const inner = vm.breakHandler!;
    vm.breakHandler = { shouldPause: (f, at, pc, depth) => (seen.add(f), inner.shouldPause(f, at, pc, depth)) };
    const failed: string[] = [];
    world.on((e) => {
      if (e.type === 'cast-error') failed.push(e.message);
    });
    world.step();
    // Every tick cast paused at line 3 and is kept by the world; none failed.
    expect(world.pausedCasts).toBe(5);
    expect(seen.size).toBe(5);
    expect(vm.liveFiberCount).toBe(5);
    for (const fiber of seen) expect(world.continuePaused(fiber, (f) => dbg.continue(f)).state).toBe('done');
    vm.breakHandler = inner;
    dbg.detach();
    expect(vm.liveFiberCount).toBe(0);
    for (let i = 0; i < 3; i++) world.step();
    world.flush();
    expect(failed).toEqual([]);
    expect(fn.compiled).not.toBeNull();
    expect(fn.loopEntry).not.toBeNull();
    expect(world.pool.vx[world.pool.activeAt(0)]).toBe(1);
  });
});
