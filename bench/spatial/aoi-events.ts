/**
 * AOI cost per tick: every entity has an interest range, everything moves,
 * and the area-of-interest pass diffs every observer's set.
 */

import { AreaOfInterest, type AoiEventKind, type InterestShape } from '../../runtime/aoi.js';
import { AxisListIndex } from '../../runtime/axis-list-index.js';
import { EntityPool } from '../../runtime/entity-pool.js';
import { GridIndex } from '../../runtime/grid-index.js';
import type { SpatialIndex } from '../../runtime/spatial-index.js';
import { MovingWorld, QUERY_RADIUS } from './neighbours.js';

export interface AoiRig {
  readonly world: MovingWorld;
  readonly pool: EntityPool;
  readonly index: SpatialIndex;
  readonly events: Record<AoiEventKind, number>;
  /** Move everything one step, update the index and run the AOI pass. */
  tick(): void;
}

export function makeAoiRig(n: number, partition: 'grid' | 'axis', shape: InterestShape = 'square'): AoiRig {
  const world = new MovingWorld(n, 7);
  const pool = new EntityPool({ capacity: n });
  const index: SpatialIndex =
    partition === 'grid'
      ? new GridIndex({ width: world.size, height: world.size, cellSize: QUERY_RADIUS, capacity: n })
      : new AxisListIndex({ width: world.size, height: world.size, anchorSpacing: QUERY_RADIUS, capacity: n });
  for (let i = 0; i < n; i++) {
    const slot = pool.indexOf(pool.spawn());
    pool.x[slot] = world.x[i]!;
    pool.y[slot] = world.y[i]!;
    pool.interest[slot] = QUERY_RADIUS;
    index.insert(slot, world.x[i]!, world.y[i]!);
  }
  const aoi = new AreaOfInterest(pool, index, shape);
  const events: Record<AoiEventKind, number> = { enter: 0, move: 0, leave: 0 };
  const listen = (kind: AoiEventKind): void => {
    events[kind]++;
  };
  return {
    world,
    pool,
    index,
    events,
    tick() {
      world.step();
      // Slots were spawned in order 0..n-1, so slot i is world entity i.
      for (let i = 0; i < n; i++) {
        pool.x[i] = world.x[i]!;
        pool.y[i] = world.y[i]!;
        index.move(i, world.x[i]!, world.y[i]!);
      }
      aoi.update(listen);
    },
  };
}
