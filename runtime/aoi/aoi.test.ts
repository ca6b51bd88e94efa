import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AreaOfInterest, type AoiEventKind, type InterestShape } from './aoi.js';
import { sortByKey } from './aoi-outbox.js';
import { EntityPool, type EntityHandle } from '../entities/entity-pool.js';
import { GridIndex } from '../spatial/grid-index.js';
import { AxisListIndex } from '../spatial/axis-list-index.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';

type Op =
  | { kind: 'spawn'; x: number; y: number; r: number }
  | { kind: 'despawn'; pick: number }
  | { kind: 'move'; pick: number; dx: number; dy: number }
  | { kind: 'interest'; pick: number; r: number }
  // Every entity moves at once.
  | { kind: 'moveAll'; dx: number; dy: number; spread: number }
  // An entity moves away and comes back inside one step (the index sees both moves).
  | { kind: 'wiggle'; pick: number; dx: number; dy: number }
  // A far jump: many nodes passed at once.
  | { kind: 'teleport'; pick: number; x: number; y: number }
  // Born and gone between two updates: nobody may hear of it.
  | { kind: 'spawnDespawn'; x: number; y: number; r: number }
  // Save the sets, load them into a fresh AreaOfInterest (as World.restore does), go on.
  | { kind: 'restore' };

const small = fc.integer({ min: 0, max: 60 });
const range = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 25 }), fc.double({ min: 0, max: 25, noNaN: true }));
const step = fc.integer({ min: -5, max: 5 });
/** The operations of one tick, with interest ranges drawn from `range`. */
const opsWith = (range: fc.Arbitrary<number>): fc.Arbitrary<Op> => fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('spawn' as const), x: small, y: small, r: range }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('despawn' as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), dx: step, dy: step }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('interest' as const), pick: fc.nat(), r: range }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('moveAll' as const), dx: step, dy: step, spread: fc.integer({ min: 0, max: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wiggle' as const), pick: fc.nat(), dx: step, dy: step }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('teleport' as const), pick: fc.nat(), x: small, y: small }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('spawnDespawn' as const), x: small, y: small, r: range }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restore' as const }) },
);
const opArb = opsWith(range);
/** Mostly nobody observes (an update then skips its work), now and then somebody starts to. */
const quietOpArb = opsWith(fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 25 }) }));

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
  observed(o: EntityHandle): EntityHandle[] {
    return [...(this.seen.get(o) ?? [])].sort((a, b) => a - b);
  }
}

/** Events come observer by observer in the pool's active order, subjects by ascending key (the order the world relies on). */
function expectCanonicalOrder(pool: EntityPool, events: readonly [AoiEventKind, number, number][]): void {
  const position = new Map<number, number>();
  for (let i = 0; i < pool.count; i++) position.set(pool.handleAt(pool.activeAt(i)), i);
  for (let i = 1; i < events.length; i++) {
    const [, o1, s1] = events[i - 1]!;
    const [, o2, s2] = events[i]!;
    const p1 = position.get(o1)!;
    const p2 = position.get(o2)!;
    expect(p1 < p2 || (p1 === p2 && s1 < s2)).toBe(true);
  }
}

interface RunOptions {
  readonly policy: 'recycle-oldest' | 'grow';
  readonly moveEvents: boolean;
}

function run(makeIndex: (capacity: number) => SpatialIndex, shape: InterestShape, ticks: readonly Op[][], options: RunOptions): void {
  const pool = new EntityPool({ capacity: options.policy === 'grow' ? 3 : 24, policy: options.policy, maxCapacity: 64 });
  let index = makeIndex(pool.capacity);
  pool.onEvict = (_h, slot) => index.remove(slot);
  pool.onResize = (capacity) => index.ensureCapacity(capacity);
  const aoiOptions = { moveEvents: options.moveEvents };
  let aoi = new AreaOfInterest(pool, index, shape, undefined, aoiOptions);
  const reference = new ReferenceAoi(pool, shape);
  const handles: EntityHandle[] = [];
  const pick = (n: number): number => (handles.length === 0 ? -1 : pool.indexOf(handles[n % handles.length]!));
  const moveTo = (slot: number, x: number, y: number): void => {
    pool.x[slot] = x;
    pool.y[slot] = y;
    index.move(slot, x, y);
  };
  const spawn = (x: number, y: number, r: number): EntityHandle => {
    const h = pool.spawn();
    const slot = pool.indexOf(h);
    pool.x[slot] = x;
    pool.y[slot] = y;
    pool.interest[slot] = r;
    index.insert(slot, x, y);
    handles.push(h);
    return h;
  };
  for (const ops of ticks) {
    for (const op of ops) {
      if (op.kind === 'spawn') {
        if (pool.count < 60) spawn(op.x, op.y, op.r);
        continue;
      }
      if (op.kind === 'spawnDespawn') {
        if (pool.count >= 60) continue;
        const h = spawn(op.x, op.y, op.r);
        index.remove(pool.indexOf(h));
        pool.despawn(h);
        continue;
      }
      if (op.kind === 'moveAll') {
        for (let i = 0; i < pool.count; i++) {
          const slot = pool.activeAt(i);
          moveTo(slot, pool.x[slot]! + op.dx + (i % (op.spread + 1)), pool.y[slot]! + op.dy - (i % (op.spread + 1)));
        }
        continue;
      }
      if (op.kind === 'restore') {
        const state = JSON.parse(JSON.stringify(aoi.exportState())) as ReturnType<AreaOfInterest['exportState']>;
        aoi = new AreaOfInterest(pool, index, shape, undefined, aoiOptions);
        aoi.importState(state);
        continue;
      }
      const slot = pick(op.pick);
      if (slot < 0) continue;
      if (op.kind === 'despawn') {
        index.remove(slot);
        pool.despawn(pool.handleAt(slot));
      } else if (op.kind === 'move') {
        moveTo(slot, pool.x[slot]! + op.dx, pool.y[slot]! + op.dy);
      } else if (op.kind === 'wiggle') {
        const [x, y] = [pool.x[slot]!, pool.y[slot]!];
        moveTo(slot, x + op.dx * 7, y + op.dy * 7);
        moveTo(slot, x, y);
      } else if (op.kind === 'teleport') {
        moveTo(slot, op.x, op.y);
      } else {
        pool.interest[slot] = op.r;
      }
    }
    const events: [AoiEventKind, number, number][] = [];
    aoi.update((kind, o, s) => events.push([kind, o, s]));
    const expected = reference.update().filter((e) => options.moveEvents || !e.startsWith('move'));
    expect(events.map(([k, o, s]) => `${k} ${o} ${s}`).sort()).toEqual(expected);
    expectCanonicalOrder(pool, events);
    for (let i = 0; i < pool.count; i++) {
      const h = pool.handleAt(pool.activeAt(i));
      expect(aoi.observedBy(h)).toEqual(reference.observed(h));
    }
  }
}

const indexes: Record<string, (capacity: number) => SpatialIndex> = {
  grid: (capacity) => new GridIndex({ width: 60, height: 60, cellSize: 7, capacity }),
  axis: (capacity) => new AxisListIndex({ width: 60, height: 60, anchorSpacing: 7, capacity }),
};

const ticksArb = fc.array(fc.array(opArb, { maxLength: 10 }), { minLength: 1, maxLength: 20 });
const quietTicksArb = fc.array(fc.array(quietOpArb, { maxLength: 10 }), { minLength: 1, maxLength: 30 });

describe('AreaOfInterest against brute force', () => {
  for (const [name, make] of Object.entries(indexes)) {
    for (const shape of ['square', 'circle'] as const) {
      it(`${name} index, ${shape} interest: same enter/move/leave events, in the canonical order`, () => {
        fc.assert(
          fc.property(ticksArb, (ticks) => run(make, shape, ticks, { policy: 'recycle-oldest', moveEvents: true })),
          { seed: 7, numRuns: 200 },
        );
      });
      it(`${name} index, ${shape} interest: worlds where mostly nobody observes (idle updates are skipped)`, () => {
        fc.assert(
          fc.property(quietTicksArb, (ticks) => run(make, shape, ticks, { policy: 'recycle-oldest', moveEvents: true })),
          { seed: 9, numRuns: 150 },
        );
      });
      it(`${name} index, ${shape} interest: a growing pool, and no move events when they are off`, () => {
        fc.assert(
          fc.property(ticksArb, fc.boolean(), (ticks, moveEvents) => run(make, shape, ticks, { policy: 'grow', moveEvents })),
          { seed: 8, numRuns: 100 },
        );
      });
    }
  }

  it('costs nothing when nothing changed: no events, and the sets stay', () => {
    for (const make of Object.values(indexes)) {
      const pool = new EntityPool({ capacity: 8 });
      const index = make(8);
      const aoi = new AreaOfInterest(pool, index, 'circle');
      for (const [x, y] of [
        [10, 10],
        [12, 10],
        [40, 40],
      ] as const) {
        const slot = pool.indexOf(pool.spawn());
        pool.x[slot] = x;
        pool.y[slot] = y;
        pool.interest[slot] = 5;
        index.insert(slot, x, y);
      }
      let count = 0;
      aoi.update(() => count++);
      expect(count).toBe(2);
      for (let t = 0; t < 3; t++) aoi.update(() => count++);
      expect(count).toBe(2);
    }
  });

  it('a last observer that stops observing still hears its leaves; then the world is idle until one starts again', () => {
    for (const make of Object.values(indexes)) {
      const pool = new EntityPool({ capacity: 4 });
      const index = make(4);
      const aoi = new AreaOfInterest(pool, index, 'square');
      const [watcher, thief] = [pool.spawn(), pool.spawn()];
      for (const [h, x] of [
        [watcher, 10],
        [thief, 12],
      ] as const) {
        pool.x[pool.indexOf(h)] = x;
        pool.y[pool.indexOf(h)] = 10;
        index.insert(pool.indexOf(h), x, 10);
      }
      pool.interest[pool.indexOf(watcher)] = 5;
      const events: string[] = [];
      const listen = (k: AoiEventKind, o: EntityHandle, s: EntityHandle): void => {
        events.push(`${k} ${o === watcher ? 'W' : 'T'} ${s === watcher ? 'W' : 'T'}`);
      };
      aoi.update(listen);
      pool.interest[pool.indexOf(watcher)] = 0;
      aoi.update(listen);
      // Nobody observes: the thief wanders off and back, unseen.
      for (const x of [40, 13]) {
        pool.x[pool.indexOf(thief)] = x;
        index.move(pool.indexOf(thief), x, 10);
        aoi.update(listen);
      }
      pool.interest[pool.indexOf(watcher)] = 5;
      aoi.update(listen);
      pool.x[pool.indexOf(thief)] = 14;
      index.move(pool.indexOf(thief), 14, 10);
      aoi.update(listen);
      expect(events).toEqual(['enter W T', 'leave W T', 'enter W T', 'move W T']);
    }
  });

  it('keeps its sets across setIndex, and goes on from them on the new index', () => {
    const pool = new EntityPool({ capacity: 4 });
    const grid = new GridIndex({ width: 20, height: 20, cellSize: 4, capacity: 4 });
    const aoi = new AreaOfInterest(pool, grid, 'circle');
    const [a, b] = [pool.spawn(), pool.spawn()];
    for (const [h, x] of [
      [a, 1],
      [b, 3],
    ] as const) {
      const slot = pool.indexOf(h);
      pool.x[slot] = x;
      pool.interest[slot] = 5;
      grid.insert(slot, x, 0);
    }
    const events: string[] = [];
    aoi.update((k, o, s) => events.push(`${k} ${o === a ? 'a' : 'b'} ${s === a ? 'a' : 'b'}`));
    const axis = new AxisListIndex({ width: 20, height: 20, anchorSpacing: 4, capacity: 4 });
    for (const h of [a, b]) axis.insert(pool.indexOf(h), pool.x[pool.indexOf(h)]!, 0);
    aoi.setIndex(axis);
    expect(aoi.observedBy(a)).toEqual([b]);
    pool.x[pool.indexOf(b)] = 12;
    axis.move(pool.indexOf(b), 12, 0);
    aoi.update((k, o, s) => events.push(`${k} ${o === a ? 'a' : 'b'} ${s === a ? 'a' : 'b'}`));
    pool.x[pool.indexOf(b)] = 2;
    axis.move(pool.indexOf(b), 2, 0);
    aoi.update((k, o, s) => events.push(`${k} ${o === a ? 'a' : 'b'} ${s === a ? 'a' : 'b'}`));
    expect(events).toEqual(['enter a b', 'enter b a', 'leave a b', 'leave b a', 'enter a b', 'enter b a']);
  });

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

describe('sortByKey', () => {
  it('sorts any range in place, moving each kind with its key', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -500, max: 500 }), { maxLength: 200 }), (xs) => {
        const keys = Float64Array.from(xs);
        const kinds = Int32Array.from(xs, (v) => ((v % 3) + 3) % 3);
        sortByKey(keys, kinds, 0, keys.length - 1);
        const sorted = [...xs].sort((p, q) => p - q);
        expect(Array.from(keys)).toEqual(sorted);
        expect(Array.from(kinds)).toEqual(sorted.map((v) => ((v % 3) + 3) % 3));
      }),
      { seed: 3 },
    );
  });
});
