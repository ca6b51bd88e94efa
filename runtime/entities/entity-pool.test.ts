import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EntityPool, INDEX_LIMIT, handleIndex, type EntityHandle, type ExhaustionPolicy } from './entity-pool.js';
import { WorldError } from '../errors.js';

type Op =
  | { kind: 'spawn'; x: number }
  | { kind: 'despawn'; pick: number }
  | { kind: 'write'; pick: number; x: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('spawn' as const), x: fc.integer({ min: -1000, max: 1000 }) }),
  fc.record({ kind: fc.constant('despawn' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('write' as const), pick: fc.nat(), x: fc.integer({ min: -1000, max: 1000 }) }),
);

/** Runs ops against the pool and a trivially correct model: a map of live handles and their x, plus spawn order. */
function checkAgainstModel(capacity: number, policy: ExhaustionPolicy, ops: readonly Op[]): void {
  const pool = new EntityPool({ capacity, policy, maxCapacity: capacity * 4 });
  const live = new Map<EntityHandle, number>();
  const order: EntityHandle[] = [];
  const everIssued: EntityHandle[] = [];
  const evicted: EntityHandle[] = [];
  pool.onEvict = (h) => evicted.push(h);
  const pick = (n: number): EntityHandle | undefined =>
    everIssued.length === 0 ? undefined : everIssued[n % everIssued.length];

  for (const op of ops) {
    if (op.kind === 'spawn') {
      const full = live.size === pool.capacity;
      const wasFullAtMax = full && (policy !== 'grow' || pool.capacity === pool.maxCapacity);
      if (wasFullAtMax && policy !== 'recycle-oldest') {
        expect(() => pool.spawn()).toThrow(WorldError);
        continue;
      }
      const h = pool.spawn();
      if (wasFullAtMax && policy === 'recycle-oldest') {
        const victim = order.shift()!;
        expect(evicted.at(-1)).toBe(victim);
        live.delete(victim);
      }
      expect(live.has(h)).toBe(false);
      expect(everIssued.includes(h)).toBe(false);
      const i = pool.indexOf(h);
      expect(pool.x[i]).toBe(0);
      pool.x[i] = op.x;
      live.set(h, op.x);
      order.push(h);
      everIssued.push(h);
    } else {
      const h = pick(op.pick);
      if (h === undefined) continue;
      if (op.kind === 'despawn') {
        expect(pool.despawn(h)).toBe(live.has(h));
        live.delete(h);
        const at = order.indexOf(h);
        if (at >= 0) order.splice(at, 1);
      } else if (live.has(h)) {
        pool.x[pool.indexOf(h)] = op.x;
        live.set(h, op.x);
      } else {
        expect(pool.indexOf(h)).toBe(-1);
      }
    }
    // Invariants after every op.
    expect(pool.count).toBe(live.size);
    for (const h of everIssued) expect(pool.isAlive(h)).toBe(live.has(h));
    for (const [h, x] of live) expect(pool.x[pool.indexOf(h)]).toBe(x);
    const activeHandles = new Set<EntityHandle>();
    for (let i = 0; i < pool.count; i++) activeHandles.add(pool.handleAt(pool.activeAt(i)));
    expect(activeHandles).toEqual(new Set(live.keys()));
    expect(pool.oldestIndex()).toBe(order.length === 0 ? -1 : handleIndex(order[0]!));
  }
}

describe('EntityPool', () => {
  it('matches a simple model under every exhaustion policy', () => {
    for (const policy of ['error', 'grow', 'recycle-oldest'] as const) {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 6 }), fc.array(opArb, { maxLength: 120 }), (cap, ops) =>
          checkAgainstModel(cap, policy, ops),
        ),
        { seed: 1234, numRuns: 150 },
      );
    }
  });

  it('detects stale handles after many recycle cycles of the same slot', () => {
    const pool = new EntityPool({ capacity: 1 });
    const stale: EntityHandle[] = [];
    for (let cycle = 0; cycle < 50_000; cycle++) {
      const h = pool.spawn();
      expect(handleIndex(h)).toBe(0);
      if (cycle % 997 === 0) stale.push(h);
      pool.despawn(h);
    }
    const current = pool.spawn();
    pool.health[pool.indexOf(current)] = 99;
    for (const h of stale) {
      expect(pool.isAlive(h)).toBe(false);
      expect(pool.despawn(h)).toBe(false);
    }
    expect(pool.isAlive(current)).toBe(true);
    expect(pool.health[0]).toBe(99);
  });

  it('rejects malformed handles', () => {
    const pool = new EntityPool({ capacity: 4 });
    const h = pool.spawn();
    for (const bad of [0, -1, 0.5, NaN, Infinity, h + 1, h + INDEX_LIMIT, 2 ** 60]) {
      expect(pool.indexOf(bad)).toBe(-1);
    }
  });

  it('keeps live entities packed for iteration', () => {
    const pool = new EntityPool({ capacity: 8 });
    const hs = Array.from({ length: 8 }, () => pool.spawn());
    pool.despawn(hs[2]!);
    pool.despawn(hs[5]!);
    const seen: number[] = [];
    for (let i = 0; i < pool.count; i++) seen.push(pool.activeAt(i));
    expect(seen.sort()).toEqual([0, 1, 3, 4, 6, 7]);
  });

  it('grows, keeping data and notifying the owner', () => {
    const pool = new EntityPool({ capacity: 2, policy: 'grow' });
    const sizes: number[] = [];
    pool.onResize = (c) => sizes.push(c);
    const hs = Array.from({ length: 5 }, (_, k) => {
      const h = pool.spawn();
      pool.y[pool.indexOf(h)] = k;
      return h;
    });
    expect(sizes).toEqual([4, 8]);
    hs.forEach((h, k) => expect(pool.y[pool.indexOf(h)]).toBe(k));
  });

  it('fails cleanly when full under the error policy', () => {
    const pool = new EntityPool({ capacity: 1 });
    pool.spawn();
    expect(() => pool.spawn()).toThrow('Entity pool is full (capacity 1).');
    expect(() => new EntityPool({ capacity: 0 })).toThrow(WorldError);
  });

  it('refuses restored state whose arrays hold anything but finite numbers', () => {
    const pool = new EntityPool({ capacity: 3 });
    pool.x[pool.indexOf(pool.spawn())] = 4;
    const state = pool.exportState();
    expect(EntityPool.fromState(state).x[0]).toBe(4);
    for (const bad of ['x', null, Infinity, NaN] as unknown[]) {
      const vx = [...state.arrays.vx] as unknown[];
      vx[0] = bad;
      expect(() => EntityPool.fromState({ ...state, arrays: { ...state.arrays, vx: vx as number[] } })).toThrow(
        "Snapshot pool array 'vx' holds a value that is not a finite number.",
      );
    }
  });
});
