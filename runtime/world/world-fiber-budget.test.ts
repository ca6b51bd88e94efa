/**
 * A world's fiber budget (budgets.maxFibers: casts alive at once in one of
 * its VMs, one per loaded source) must leave room for its entities' tick
 * casts beside the casts waiting in the same VM. At the VM's default of
 * 10,000, a world of 10,000 entities with one cast waiting on each refused
 * every tick cast ("Too many fibers"), at ~2 µs of error-building a cast —
 * issue 34's "cliff at 10,000 waiting casts", which looked like a VM whose
 * per-cast work grew with the casts waiting in it. Counted here, not timed:
 * every tick cast of every step runs, however many casts wait beside it.
 */
import { describe, expect, it } from 'vitest';
import { WORLD_MAX_FIBERS } from './world-options.js';
import { World } from './world.js';

/** A tick spell that counts its casts, and a cast that stays waiting (waking every 2 steps, to wait again), in one source. */
const SPELLS = `
  var ticks = 0;
  spell drift(self, dt) {
    ticks = ticks + 1;
    if (random() < 0.2) setVelocity(self, random() * 4 - 2, random() * 4 - 2);
  }
  spell linger(self, target) { while (true) { wait(0.2); } }
`;

function lingeringWorld(entities: number, waiting: number, budgets?: { maxFibers: number }): { world: World; errors: string[] } {
  const world = new World({ width: 300, height: 300, capacity: entities, seed: 5, aoiMoveEvents: false, ...(budgets ? { budgets } : {}) });
  world.loadSpells(SPELLS);
  world.loadBreeds({ breeds: [{ name: 'Mote', health: 10, spells: { tick: 'drift' } }] });
  const errors: string[] = [];
  world.on((e) => {
    if (e.type === 'cast-error') errors.push(e.message);
  });
  for (let i = 0; i < entities; i++) {
    const id = world.spawn('Mote', (i * 13) % 300, (i * 7) % 300);
    if (i < waiting) world.cast('linger', id);
  }
  return { world, errors };
}

describe("a world's fiber budget and the casts waiting in a VM", () => {
  it('every tick cast of every step runs, with 0, 1,000 or 10,000 casts waiting in the same VM (waking and waiting again meanwhile)', () => {
    const entities = 10_000;
    const steps = 3;
    const ran: number[] = [];
    for (const waiting of [0, 1000, entities]) {
      const { world, errors } = lingeringWorld(entities, waiting);
      for (let s = 0; s < steps; s++) world.step();
      expect(errors).toEqual([]);
      ran.push(world.spellVm('drift')!.getGlobal('ticks') as number);
      expect(world.waitingCasts).toBe(waiting);
      // Between steps only the waiting casts are alive in the VM (a tick loop's fiber counts while it runs).
      expect(world.spellVm('drift')!.liveFiberCount).toBe(waiting);
    }
    expect(ran).toEqual([steps * entities, steps * entities, steps * entities]);
  });

  it("a world's VMs default to WORLD_MAX_FIBERS, and a world given a smaller budget still refuses the cast past it, by name", () => {
    expect(new World({ width: 10, height: 10 }).options.budgets.maxFibers).toBe(WORLD_MAX_FIBERS);
    expect(WORLD_MAX_FIBERS).toBeGreaterThan(65_536); // the default maxCapacity, one waiting cast each, and the running tick
    const { world, errors } = lingeringWorld(8, 5, { maxFibers: 5 });
    world.step();
    expect(errors).toEqual(Array(8).fill('Too many fibers: more than 5 casts are alive at once.'));
    expect(world.waitingCasts).toBe(5);
  });
});
