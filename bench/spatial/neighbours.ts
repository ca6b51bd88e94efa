/**
 * Moving-entity neighbour queries: n entities wander a square world at a
 * fixed density; every tick each one moves, the structure is brought up to
 * date, and every entity asks for its neighbours within R. Each contender
 * returns the total neighbour count per tick, and the counts must agree.
 */

import KDBush from 'kdbush';
import RBush from 'rbush';
import { AxisListIndex } from '../../runtime/spatial/axis-list-index.js';
import { GridIndex } from '../../runtime/spatial/grid-index.js';
import { seededRandom } from './table.js';

/** Query radius, and the area per entity (about 7 neighbours each on average). */
export const QUERY_RADIUS = 10;
const AREA_PER_ENTITY = 45;
const MAX_STEP = 1;

export class MovingWorld {
  readonly size: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  private readonly vx: Float64Array;
  private readonly vy: Float64Array;

  constructor(
    readonly n: number,
    seed = 1,
  ) {
    this.size = Math.sqrt(n * AREA_PER_ENTITY);
    const random = seededRandom(seed);
    this.x = new Float64Array(n);
    this.y = new Float64Array(n);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      this.x[i] = random() * this.size;
      this.y[i] = random() * this.size;
      this.vx[i] = (random() * 2 - 1) * MAX_STEP;
      this.vy[i] = (random() * 2 - 1) * MAX_STEP;
    }
  }

  /** One step of movement, bouncing off the walls; with a stride k, only every k-th entity moves. */
  step(stride = 1): void {
    const { x, y, vx, vy, size } = this;
    for (let i = 0; i < this.n; i += stride) {
      let nx = x[i]! + vx[i]!;
      let ny = y[i]! + vy[i]!;
      if (nx < 0 || nx >= size) {
        vx[i] = -vx[i]!;
        nx = x[i]! + vx[i]!;
      }
      if (ny < 0 || ny >= size) {
        vy[i] = -vy[i]!;
        ny = y[i]! + vy[i]!;
      }
      x[i] = nx;
      y[i] = ny;
    }
  }
}

export interface Contender {
  readonly name: string;
  /** Largest n worth running (brute force is quadratic). */
  readonly maxN: number;
  /** Build the structure for a world; returns the per-tick function (move already applied to the world). */
  prepare(world: MovingWorld): () => number;
}

/**
 * The two runtime indexes get a function each (not one shared closure), so
 * each call site stays monomorphic — as it is in a game that picks one.
 */
function gridContender(): Contender {
  return {
    name: 'grid',
    maxN: Infinity,
    prepare(world) {
      const index = new GridIndex({ width: world.size, height: world.size, cellSize: QUERY_RADIUS, capacity: world.n });
      for (let i = 0; i < world.n; i++) index.insert(i, world.x[i]!, world.y[i]!);
      let found = 0;
      const count = (): void => {
        found++;
      };
      return () => {
        for (let i = 0; i < world.n; i++) index.move(i, world.x[i]!, world.y[i]!);
        found = 0;
        for (let i = 0; i < world.n; i++) index.forEachNear(i, QUERY_RADIUS, count);
        return found;
      };
    },
  };
}

function axisContender(): Contender {
  return {
    name: 'axis lists',
    // A query walks a strip across the whole world (O(√n) entities at constant density), so a tick is
    // O(n^1.5): about 10–20 s per tick at 100k. Measured up to 10k.
    maxN: 10_000,
    prepare(world) {
      const index = new AxisListIndex({
        width: world.size,
        height: world.size,
        anchorSpacing: QUERY_RADIUS,
        capacity: world.n,
      });
      for (let i = 0; i < world.n; i++) index.insert(i, world.x[i]!, world.y[i]!);
      let found = 0;
      const count = (): void => {
        found++;
      };
      return () => {
        for (let i = 0; i < world.n; i++) index.move(i, world.x[i]!, world.y[i]!);
        found = 0;
        for (let i = 0; i < world.n; i++) index.forEachNear(i, QUERY_RADIUS, count);
        return found;
      };
    },
  };
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: number;
}

function boxesFor(world: MovingWorld): Box[] {
  return Array.from({ length: world.n }, (_, id) => ({ minX: 0, minY: 0, maxX: 0, maxY: 0, id }));
}

function placeBox(box: Box, world: MovingWorld): void {
  box.minX = box.maxX = world.x[box.id]!;
  box.minY = box.maxY = world.y[box.id]!;
}

/** Count rbush hits inside the circle (rbush answers boxes). */
function countRbush(tree: RBush<Box>, world: MovingWorld, query: Box): number {
  const r2 = QUERY_RADIUS * QUERY_RADIUS;
  let found = 0;
  for (let i = 0; i < world.n; i++) {
    const px = world.x[i]!;
    const py = world.y[i]!;
    query.minX = px - QUERY_RADIUS;
    query.minY = py - QUERY_RADIUS;
    query.maxX = px + QUERY_RADIUS;
    query.maxY = py + QUERY_RADIUS;
    for (const hit of tree.search(query)) {
      const dx = hit.minX - px;
      const dy = hit.minY - py;
      if (dx * dx + dy * dy <= r2) found++;
    }
  }
  return found;
}

export const CONTENDERS: readonly Contender[] = [
  gridContender(),
  axisContender(),
  {
    name: 'rbush rebuilt (load)',
    maxN: Infinity,
    prepare(world) {
      const tree = new RBush<Box>();
      const boxes = boxesFor(world);
      const query = { minX: 0, minY: 0, maxX: 0, maxY: 0, id: -1 };
      return () => {
        for (const b of boxes) placeBox(b, world);
        tree.clear().load(boxes);
        return countRbush(tree, world, query);
      };
    },
  },
  {
    name: 'rbush remove+insert',
    maxN: Infinity,
    prepare(world) {
      const tree = new RBush<Box>();
      const boxes = boxesFor(world);
      for (const b of boxes) placeBox(b, world);
      tree.load(boxes);
      const query = { minX: 0, minY: 0, maxX: 0, maxY: 0, id: -1 };
      return () => {
        for (const b of boxes) {
          tree.remove(b);
          placeBox(b, world);
          tree.insert(b);
        }
        return countRbush(tree, world, query);
      };
    },
  },
  {
    name: 'kdbush rebuilt',
    maxN: Infinity,
    prepare(world) {
      return () => {
        const tree = new KDBush(world.n);
        for (let i = 0; i < world.n; i++) tree.add(world.x[i]!, world.y[i]!);
        tree.finish();
        let found = 0;
        for (let i = 0; i < world.n; i++) found += tree.within(world.x[i]!, world.y[i]!, QUERY_RADIUS).length;
        return found;
      };
    },
  },
  {
    name: 'brute force',
    maxN: 10_000,
    prepare(world) {
      const r2 = QUERY_RADIUS * QUERY_RADIUS;
      return () => {
        let found = 0;
        const { x, y, n } = world;
        for (let i = 0; i < n; i++) {
          const px = x[i]!;
          const py = y[i]!;
          for (let j = 0; j < n; j++) {
            const dx = x[j]! - px;
            const dy = y[j]! - py;
            if (dx * dx + dy * dy <= r2) found++;
          }
        }
        return found;
      };
    },
  },
];

/** Run `ticks` ticks of one contender on a fresh world; returns the neighbour count of each tick. */
export function neighbourCounts(contender: Contender, n: number, ticks: number): number[] {
  const world = new MovingWorld(n);
  const tick = contender.prepare(world);
  const counts: number[] = [];
  for (let t = 0; t < ticks; t++) {
    world.step();
    counts.push(tick());
  }
  return counts;
}
