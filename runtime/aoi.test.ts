import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AreaOfInterest, sortRange, type AoiEventKind, type InterestShape } from './aoi.js';
import { EntityPool, type EntityHandle } from './entity-pool.js';
import { GridIndex } from './grid-index.js';
import { AxisListIndex } from './axis-list-index.js';
import type { SpatialIndex } from './spatial-index.js';

type Op =
  | { kind: 'spawn'; x: number; y: number; r: number }
  | { kind: 'despawn'; pick: number }
  | { kind: 'move'; pick: number; dx: number; dy: number }
  | { kind: 'interest'; pick: number; r: number };

const small = fc.integer({ min: 0, max: 60 });
const range = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 25 }), fc.double({ min: 0, max: 25, noNaN: true }));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('spawn' as const), x: small, y: small, r: range }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('despawn' as const), pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      pick: fc.nat(),
      dx: fc.integer({ min: -5, max: 5 }),
      dy: fc.integer({ min: -5, max: 5 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('interest' as const), pick: fc.nat(), r: range }) },
);

const inside = (shape: InterestShape, dx: number, dy: number, r: number): boolean =>
  shape === 'square' ? Math.abs(dx) <= r && Math.abs(dy) <= r : dx * dx + dy * dy <= r * r;

/** Brute force: recompute every observer's set from scratch and diff against last tick's. */
class ReferenceAoi {
  private seen = new Map<EntityHandle, Set<EntityHandle>>();
  private lastPos = new Map<EntityHandle, string>();
  constructor(
    private readonly pool: EntityPool,
    private readonly shape: InterestShape,
  ) {}
  update(): string[] {
    const events: string[] = [];
    const live: EntityHandle[] = [];
    for (let i = 0; i < this.pool.count; i++) live.push(this.pool.handleAt(this.pool.activeAt(i)));
    const pos = (h: EntityHandle): [number, number] => {
      const s = this.pool.indexOf(h);
      return [this.pool.x[s]!, this.pool.y[s]!];
    };
    const next = new Map<EntityHandle, Set<EntityHandle>>();
    for (const o of live) {
      const r = this.pool.interest[this.pool.indexOf(o)]!;
      const [ox, oy] = pos(o);
      const now = new Set(live.filter((s) => s !== o && r > 0 && inside(this.shape, pos(s)[0] - ox, pos(s)[1] - oy, r)));
      const before = this.seen.get(o) ?? new Set<EntityHandle>();
      for (const s of before) if (!now.has(s)) events.push(`leave ${o} ${s}`);
      for (const s of now) {
        if (!before.has(s)) events.push(`enter ${o} ${s}`);
        else if (this.lastPos.get(s) !== pos(s).join()) events.push(`move ${o} ${s}`);
      }
      next.set(o, now);
    }
    this.seen = next;
    this.lastPos = new Map(live.map((h) => [h, pos(h).join()]));
    return events.sort();
  }
}

function run(makeIndex: (capacity: number) => SpatialIndex, shape: InterestShape, ticks: readonly Op[][]): void {
  const pool = new EntityPool({ capacity: 24, policy: 'recycle-oldest' });
  const index = makeIndex(pool.capacity);
  pool.onEvict = (_h, slot) => index.remove(slot);
  const aoi = new AreaOfInterest(pool, index, shape);
  const reference = new ReferenceAoi(pool, shape);
  const handles: EntityHandle[] = [];
  const pick = (n: number): number => (handles.length === 0 ? -1 : pool.indexOf(handles[n % handles.length]!));
  for (const ops of ticks) {
    for (const op of ops) {
      if (op.kind === 'spawn') {
        const h = pool.spawn();
        const slot = pool.indexOf(h);
        pool.x[slot] = op.x;
        pool.y[slot] = op.y;
        pool.interest[slot] = op.r;
        index.insert(slot, op.x, op.y);
        handles.push(h);
        continue;
      }
      const slot = pick(op.pick);
      if (slot < 0) continue;
      if (op.kind === 'despawn') {
        index.remove(slot);
        pool.despawn(pool.handleAt(slot));
      } else if (op.kind === 'move') {
        pool.x[slot] += op.dx;
        pool.y[slot] += op.dy;
        index.move(slot, pool.x[slot]!, pool.y[slot]!);
      } else {
        pool.interest[slot] = op.r;
      }
    }
    const events: string[] = [];
    aoi.update((kind: AoiEventKind, o, s) => events.push(`${kind} ${o} ${s}`));
    expect(events.sort()).toEqual(reference.update());
  }
}

const indexes: Record<string, (capacity: number) => SpatialIndex> = {
  grid: (capacity) => new GridIndex({ width: 60, height: 60, cellSize: 7, capacity }),
  axis: (capacity) => new AxisListIndex({ width: 60, height: 60, anchorSpacing: 7, capacity }),
};

describe('AreaOfInterest against brute force', () => {
  for (const [name, make] of Object.entries(indexes)) {
    for (const shape of ['square', 'circle'] as const) {
      it(`${name} index, ${shape} interest: same enter/move/leave events`, () => {
        fc.assert(
          fc.property(fc.array(fc.array(opArb, { maxLength: 10 }), { minLength: 1, maxLength: 20 }), (ticks) =>
            run(make, shape, ticks),
          ),
          { seed: 7, numRuns: 200 },
        );
      });
    }
  }

  it('reports a slot reused between updates as a leave plus an enter', () => {
    const pool = new EntityPool({ capacity: 2 });
    const index = new GridIndex({ width: 10, height: 10, cellSize: 5, capacity: 2 });
    const aoi = new AreaOfInterest(pool, index, 'circle');
    const watcher = pool.spawn();
    pool.interest[pool.indexOf(watcher)] = 5;
    index.insert(pool.indexOf(watcher), 0, 0);
    const first = pool.spawn();
    index.insert(pool.indexOf(first), 1, 0);
    const events: string[] = [];
    const listen = (k: AoiEventKind, o: EntityHandle, s: EntityHandle): void => {
      events.push(`${k} ${o === watcher ? 'W' : o} ${s === first ? 'A' : 'B'}`);
    };
    aoi.update(listen);
    index.remove(pool.indexOf(first));
    pool.despawn(first);
    const second = pool.spawn();
    index.insert(pool.indexOf(second), 1, 0);
    aoi.update(listen);
    expect(events).toEqual(['enter W A', 'leave W A', 'enter W B']);
    expect(aoi.observedBy(watcher)).toEqual([second]);
  });
});

describe('sortRange', () => {
  it('sorts any range in place', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 200 }), (xs) => {
        const a = Float64Array.from(xs);
        sortRange(a, 0, a.length - 1);
        expect(Array.from(a)).toEqual([...xs].sort((p, q) => p - q));
      }),
      { seed: 3 },
    );
  });
});
