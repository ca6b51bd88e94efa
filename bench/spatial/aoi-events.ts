/**
 * AOI cost per tick: every entity has an interest range; a share of them
 * (1%, 10%, 100%) moves each tick; then the area-of-interest pass runs.
 * The same rig runs the library's AreaOfInterest (cost follows change) and
 * the recompute-and-diff baseline it replaced (bench/spatial/recompute-aoi).
 */

import { AreaOfInterest, type AoiEventKind, type InterestShape } from '../../runtime/aoi/aoi.js';
import { AxisListIndex } from '../../runtime/spatial/axis-list-index.js';
import { EntityPool } from '../../runtime/entities/entity-pool.js';
import { GridIndex } from '../../runtime/spatial/grid-index.js';
import type { SpatialIndex } from '../../runtime/spatial/spatial-index.js';
import { MovingWorld, QUERY_RADIUS } from './neighbours.js';
import { RecomputeAoi } from './recompute-aoi.js';

/** 'changes': the library's AOI; 'changes, no moves': the same with move notifications off; 'recompute': the baseline. */
export type AoiImplementation = 'changes' | 'changes, no moves' | 'recompute';

export interface AoiRigOptions {
  readonly partition: 'grid' | 'axis';
  readonly implementation?: AoiImplementation;
  readonly shape?: InterestShape;
  /** Every k-th entity moves each tick (1: all of them). */
  readonly moverStride?: number;
}

export interface AoiRig {
  readonly world: MovingWorld;
  readonly pool: EntityPool;
  readonly index: SpatialIndex;
  readonly events: Record<AoiEventKind, number>;
  /** Milliseconds spent in the AOI pass itself (not the movement or the index update), summed over ticks. */
  aoiMs: number;
  /** Move the movers one step, update the index and run the AOI pass. */
  tick(): void;
}

export function makeAoiRig(n: number, options: AoiRigOptions): AoiRig {
  const { partition, implementation = 'changes', shape = 'square', moverStride = 1 } = options;
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
  const aoi =
    implementation === 'recompute'
      ? new RecomputeAoi(pool, index, shape)
      : new AreaOfInterest(pool, index, shape, undefined, { moveEvents: implementation === 'changes' });
  const events: Record<AoiEventKind, number> = { enter: 0, move: 0, leave: 0 };
  const listen = (kind: AoiEventKind): void => {
    events[kind]++;
  };
  return {
    world,
    pool,
    index,
    events,
    aoiMs: 0,
    tick() {
      world.step(moverStride);
      // Slots were spawned in order 0..n-1, so slot i is world entity i.
      for (let i = 0; i < n; i += moverStride) {
        pool.x[i] = world.x[i]!;
        pool.y[i] = world.y[i]!;
        index.move(i, world.x[i]!, world.y[i]!);
      }
      const start = performance.now();
      aoi.update(listen);
      this.aoiMs += performance.now() - start;
    },
  };
}
