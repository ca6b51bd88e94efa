/**
 * Heap growth in steady state: a world of entities that move, churn
 * (despawn + spawn a few per tick), query neighbours and run AOI, for 10,000
 * ticks. Measured as heap in use after a full GC, before and after.
 */

import { AreaOfInterest } from '../../runtime/aoi/aoi.js';
import { EntityPool } from '../../runtime/entities/entity-pool.js';
import { GridIndex } from '../../runtime/spatial/grid-index.js';
import { getGc, settledHeap } from './gc.js';
import { QUERY_RADIUS, MovingWorld } from './neighbours.js';
import { seededRandom, timePerRun } from './table.js';

export interface HeapResult {
  readonly ticks: number;
  readonly entities: number;
  readonly gcAvailable: boolean;
  readonly beforeBytes: number;
  readonly afterBytes: number;
  readonly growthBytes: number;
  readonly bytesPerTick: number;
}

export function measureSteadyHeap(entities = 1000, ticks = 10_000): HeapResult {
  const gc = getGc();
  const world = new MovingWorld(entities, 3);
  const pool = new EntityPool({ capacity: entities });
  const grid = new GridIndex({ width: world.size, height: world.size, cellSize: QUERY_RADIUS, capacity: entities });
  const aoi = new AreaOfInterest(pool, grid, 'circle');
  const random = seededRandom(11);
  const handles = new Float64Array(entities);
  for (let i = 0; i < entities; i++) {
    handles[i] = spawnAt(i);
  }
  function spawnAt(i: number): number {
    const h = pool.spawn();
    const slot = pool.indexOf(h);
    pool.x[slot] = world.x[i]!;
    pool.y[slot] = world.y[i]!;
    pool.interest[slot] = QUERY_RADIUS;
    grid.insert(slot, world.x[i]!, world.y[i]!);
    return h;
  }
  let sink = 0;
  const count = (): void => {
    sink++;
  };
  const onAoi = (): void => {
    sink++;
  };
  const tick = (): void => {
    world.step();
    for (let k = 0; k < 5; k++) {
      const i = Math.floor(random() * entities);
      const slot = pool.indexOf(handles[i]!);
      grid.remove(slot);
      pool.despawn(handles[i]!);
      handles[i] = spawnAt(i);
    }
    for (let i = 0; i < entities; i++) {
      const slot = pool.indexOf(handles[i]!);
      pool.x[slot] = world.x[i]!;
      pool.y[slot] = world.y[i]!;
      grid.move(slot, world.x[i]!, world.y[i]!);
    }
    for (let i = 0; i < pool.count; i++) grid.forEachNear(pool.activeAt(i), QUERY_RADIUS, count);
    aoi.update(onAoi);
  };
  for (let t = 0; t < 500; t++) tick();
  const beforeBytes = settledHeap(gc);
  for (let t = 0; t < ticks; t++) tick();
  const afterBytes = settledHeap(gc);
  if (sink < 0) throw new Error('unreachable');
  return {
    ticks,
    entities,
    gcAvailable: gc !== null,
    beforeBytes,
    afterBytes,
    growthBytes: afterBytes - beforeBytes,
    bytesPerTick: (afterBytes - beforeBytes) / ticks,
  };
}

/**
 * The same question for a whole World: entities with a breed tick spell
 * (a cast per entity per step), velocities, AOI with onEnter spells, and
 * churn (one despawn + spawn per step).
 */
export async function measureWorldHeap(entities = 100, ticks = 10_000): Promise<HeapResult> {
  const { World } = await import('../../runtime/world/world.js');
  const gc = getGc();
  const world = new World({ width: 100, height: 100, capacity: entities + 8, seed: 5, cellSize: 8, aoiMoveEvents: false });
  world.loadSpells(`
    spell drift(self, dt) {
      if (random() < 0.2) setVelocity(self, random() * 4 - 2, random() * 4 - 2);
    }
    spell notice(self, other) { self.seen = other.id; }
  `);
  world.loadBreeds({ breeds: [{ name: 'Mote', health: 10, interest: 6, spells: { tick: 'drift', onEnter: 'notice' } }] });
  const random = seededRandom(21);
  const ids: number[] = [];
  for (let i = 0; i < entities; i++) ids.push(world.spawn('Mote', random() * 100, random() * 100));
  let events = 0;
  let failure: string | null = null;
  world.on((e) => {
    events++;
    if (e.type === 'cast-error') failure ??= e.message;
  });
  const tick = (): void => {
    const k = Math.floor(random() * entities);
    world.despawn(ids[k]!);
    ids[k] = world.spawn('Mote', random() * 100, random() * 100);
    world.step();
  };
  for (let t = 0; t < 200; t++) tick();
  const beforeBytes = settledHeap(gc);
  for (let t = 0; t < ticks; t++) tick();
  const afterBytes = settledHeap(gc);
  if (failure !== null) throw new Error(`a spell failed during the heap run: ${failure}`);
  if (events === 0) throw new Error('the world produced no events');
  return {
    ticks,
    entities,
    gcAvailable: gc !== null,
    beforeBytes,
    afterBytes,
    growthBytes: afterBytes - beforeBytes,
    bytesPerTick: (afterBytes - beforeBytes) / ticks,
  };
}

/** Milliseconds per World step with `entities` entities each running a tick spell (a cast apiece). */
export async function measureWorldStep(entities: number, minMs: number): Promise<{ msPerStep: number; usPerCast: number }> {
  const { World } = await import('../../runtime/world/world.js');
  const world = new World({ width: 300, height: 300, capacity: entities, seed: 5, cellSize: 8, aoiMoveEvents: false });
  world.loadSpells('spell drift(self, dt) { if (random() < 0.2) setVelocity(self, random() * 4 - 2, random() * 4 - 2); }');
  world.loadBreeds({ breeds: [{ name: 'Mote', health: 10, interest: 4, spells: { tick: 'drift' } }] });
  const random = seededRandom(3);
  for (let i = 0; i < entities; i++) world.spawn('Mote', random() * 300, random() * 300);
  let failure: string | null = null;
  world.on((e) => {
    if (e.type === 'cast-error') failure ??= e.message;
  });
  const ms = timePerRun(() => world.step(), { warmup: 5, minMs, maxRuns: 10_000 });
  // A failing cast is cheaper or dearer than a working one: the figure would mean nothing.
  if (failure !== null) throw new Error(`the tick spell failed: ${failure}`);
  return { msPerStep: ms, usPerCast: (ms * 1000) / entities };
}
