/**
 * Heap growth in steady state: a world of entities that move, churn
 * (despawn + spawn a few per tick), query neighbours and run AOI, for 10,000
 * ticks. Measured as heap in use after a full GC, before and after.
 */

import { AreaOfInterest } from '../../runtime/aoi.js';
import { EntityPool } from '../../runtime/entity-pool.js';
import { GridIndex } from '../../runtime/grid-index.js';
import { getGc, settledHeap } from './gc.js';
import { QUERY_RADIUS, MovingWorld } from './neighbours.js';
import { seededRandom } from './table.js';

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
