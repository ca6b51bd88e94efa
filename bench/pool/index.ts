/**
 * `npm run bench -- --only pool`: the entity pool against plain objects.
 *
 *   churn:   despawn a random live entity and spawn a new one (fields set),
 *            pool (typed arrays, free list) vs `{ x, y, … }` objects in an array;
 *   iterate: one update pass over all live entities (x += vx …),
 *            packed struct-of-arrays vs array of objects.
 */

import { EntityPool } from '../../runtime/entities/entity-pool.js';
import { fmt, formatTable, seededRandom, timePerRun } from '../spatial/table.js';

export interface PoolRow {
  readonly test: string;
  readonly n: number;
  readonly poolNsPerOp: number;
  readonly objectsNsPerOp: number;
  /** Objects' time over the pool's (> 1: the pool is faster). */
  readonly objectsOverPool: number;
}

interface PlainEntity {
  /** Its position in the live array, for O(1) swap-removal. */
  slot: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
  health: number;
  maxHealth: number;
  breed: number;
}

const OPS_PER_RUN = 100_000;

function poolChurn(n: number): () => void {
  const pool = new EntityPool({ capacity: n });
  const handles = new Float64Array(n);
  const random = seededRandom(5);
  const spawn = (k: number): void => {
    const h = pool.spawn();
    const s = pool.indexOf(h);
    pool.x[s] = k;
    pool.y[s] = k;
    pool.vx[s] = 1;
    pool.health[s] = 10;
    pool.maxHealth[s] = 10;
    pool.breed[s] = 1;
    handles[k] = h;
  };
  for (let k = 0; k < n; k++) spawn(k);
  return () => {
    for (let op = 0; op < OPS_PER_RUN; op++) {
      const k = Math.floor(random() * n);
      pool.despawn(handles[k]!);
      spawn(k);
    }
  };
}

function objectChurn(n: number): () => void {
  const live: PlainEntity[] = [];
  const byKey: PlainEntity[] = [];
  const random = seededRandom(5);
  const spawn = (k: number): void => {
    const e: PlainEntity = { slot: live.length, x: k, y: k, vx: 1, vy: 0, health: 10, maxHealth: 10, breed: 1 };
    live.push(e);
    byKey[k] = e;
  };
  const despawn = (e: PlainEntity): void => {
    const last = live.pop()!;
    if (last !== e) {
      live[e.slot] = last;
      last.slot = e.slot;
    }
  };
  for (let k = 0; k < n; k++) spawn(k);
  return () => {
    for (let op = 0; op < OPS_PER_RUN; op++) {
      const k = Math.floor(random() * n);
      despawn(byKey[k]!);
      spawn(k);
    }
  };
}

function poolIterate(n: number): () => void {
  const pool = new EntityPool({ capacity: n });
  for (let k = 0; k < n; k++) {
    const s = pool.indexOf(pool.spawn());
    pool.vx[s] = 1e-6;
    pool.vy[s] = -1e-6;
  }
  return () => {
    const { x, y, vx, vy, activeSlots } = pool;
    const count = pool.count;
    for (let i = 0; i < count; i++) {
      const s = activeSlots[i]!;
      x[s] += vx[s]!;
      y[s] += vy[s]!;
    }
  };
}

function objectIterate(n: number): () => void {
  const random = seededRandom(9);
  // Allocated interleaved with other garbage, as a long-running game's objects end up.
  const live: PlainEntity[] = [];
  const junk: unknown[] = [];
  for (let k = 0; k < n; k++) {
    live.push({ slot: k, x: 0, y: 0, vx: 1e-6, vy: -1e-6, health: 10, maxHealth: 10, breed: 1 });
    if (random() < 0.5) junk.push({ k, text: `junk ${k}` });
  }
  return () => {
    for (let i = 0; i < live.length; i++) {
      const e = live[i]!;
      e.x += e.vx;
      e.y += e.vy;
    }
  };
}

export async function run(options: { quick?: boolean } = {}): Promise<PoolRow[]> {
  const quick = options.quick ?? false;
  const timing = { warmup: 2, minMs: quick ? 150 : 1000, maxRuns: 10_000 };
  const rows: PoolRow[] = [];
  for (const n of quick ? [10_000] : [1000, 10_000, 100_000]) {
    const poolMs = timePerRun(poolChurn(n), timing);
    const objMs = timePerRun(objectChurn(n), timing);
    rows.push(row('spawn+despawn', n, (poolMs * 1e6) / OPS_PER_RUN, (objMs * 1e6) / OPS_PER_RUN));
    const poolIt = timePerRun(poolIterate(n), timing);
    const objIt = timePerRun(objectIterate(n), timing);
    rows.push(row('update pass (per entity)', n, (poolIt * 1e6) / n, (objIt * 1e6) / n));
  }
  process.stdout.write('\n## Entity pool vs plain objects\n\n');
  process.stdout.write(
    formatTable(
      ['test', 'n', 'pool ns/op', 'objects ns/op', 'objects ÷ pool'],
      rows.map((r) => [r.test, String(r.n), fmt(r.poolNsPerOp), fmt(r.objectsNsPerOp), fmt(r.objectsOverPool)]),
    ) + '\n',
  );
  return rows;
}

function row(test: string, n: number, pool: number, objects: number): PoolRow {
  return { test, n, poolNsPerOp: pool, objectsNsPerOp: objects, objectsOverPool: objects / pool };
}
