import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GridIndex } from './grid-index.js';
import { AxisListIndex } from './axis-list-index.js';
import { SpatialIndexError, type SpatialIndex } from './spatial-index.js';

const WORLD = 100;
const CAPACITY = 48;

type Op =
  | { kind: 'insert'; id: number; x: number; y: number }
  | { kind: 'remove'; id: number }
  | { kind: 'move'; id: number; dx: number; dy: number }
  | { kind: 'teleport'; id: number; x: number; y: number };

type Query =
  | { kind: 'radius'; x: number; y: number; r: number }
  | { kind: 'near'; id: number; r: number }
  | { kind: 'rect'; x: number; y: number; w: number; h: number }
  | { kind: 'nearest'; x: number; y: number; r: number; filter: number; exclude: number }
  | { kind: 'pairs'; d: number };

// Integer-ish coordinates make exact ties (the inclusive boundaries) common; some lie outside the world.
const coord = fc.oneof(fc.integer({ min: -20, max: 120 }), fc.double({ min: -30, max: 130, noNaN: true }));
const id = fc.integer({ min: 0, max: CAPACITY - 1 });
const radius = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(Infinity), fc.double({ min: 0, max: 60, noNaN: true }));

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert' as const), id, x: coord, y: coord }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      id,
      dx: fc.integer({ min: -6, max: 6 }),
      dy: fc.integer({ min: -6, max: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('teleport' as const), id, x: coord, y: coord }) },
);

const queryArb: fc.Arbitrary<Query> = fc.oneof(
  fc.record({ kind: fc.constant('radius' as const), x: coord, y: coord, r: radius }),
  fc.record({ kind: fc.constant('near' as const), id, r: radius }),
  fc.record({
    kind: fc.constant('rect' as const),
    x: coord,
    y: coord,
    w: fc.integer({ min: 0, max: 80 }),
    h: fc.integer({ min: 0, max: 80 }),
  }),
  fc.record({
    kind: fc.constant('nearest' as const),
    x: coord,
    y: coord,
    r: radius,
    filter: fc.integer({ min: 1, max: 4 }),
    exclude: fc.integer({ min: -1, max: CAPACITY - 1 }),
  }),
  fc.record({ kind: fc.constant('pairs' as const), d: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 30, noNaN: true })) }),
);

/** The model: a map from id to position, answered by brute force. */
class Model {
  readonly pos = new Map<number, [number, number]>();
  d2(id: number, x: number, y: number): number {
    const [px, py] = this.pos.get(id)!;
    return (px - x) ** 2 + (py - y) ** 2;
  }
  answer(q: Query): unknown {
    const ids = [...this.pos.keys()].sort((a, b) => a - b);
    switch (q.kind) {
      case 'radius':
        return ids.filter((i) => this.d2(i, q.x, q.y) <= q.r * q.r);
      case 'near': {
        if (!this.pos.has(q.id)) return null;
        const [x, y] = this.pos.get(q.id)!;
        return ids.filter((i) => this.d2(i, x, y) <= q.r * q.r);
      }
      case 'rect':
        return ids.filter((i) => {
          const [x, y] = this.pos.get(i)!;
          return x >= q.x && x <= q.x + q.w && y >= q.y && y <= q.y + q.h;
        });
      case 'nearest': {
        let best = -1;
        let bestD2 = Infinity;
        for (const i of ids) {
          if (i === q.exclude || i % q.filter !== 0) continue;
          const d2 = this.d2(i, q.x, q.y);
          if (d2 <= q.r * q.r && d2 < bestD2) {
            best = i;
            bestD2 = d2;
          }
        }
        return best;
      }
      case 'pairs': {
        const out: string[] = [];
        for (const a of ids) for (const b of ids) if (a < b && this.d2(a, ...this.pos.get(b)!) <= q.d * q.d) out.push(`${a}-${b}`);
        return out;
      }
    }
  }
}

function ask(index: SpatialIndex, q: Query): unknown {
  const got: number[] = [];
  const push = (i: number): void => {
    got.push(i);
  };
  const sorted = (): number[] => got.sort((a, b) => a - b);
  switch (q.kind) {
    case 'radius':
      index.forEachInRadius(q.x, q.y, q.r, push);
      return sorted();
    case 'near':
      if (!index.has(q.id)) return null;
      index.forEachNear(q.id, q.r, push);
      return sorted();
    case 'rect':
      index.forEachInRect(q.x, q.y, q.x + q.w, q.y + q.h, push);
      return sorted();
    case 'nearest':
      return index.nearest(q.x, q.y, q.r, (i) => i % q.filter === 0, q.exclude);
    case 'pairs': {
      const out: string[] = [];
      index.forEachPair(q.d, (a, b) => out.push(a < b ? `${a}-${b}` : `${b}-${a}`));
      return out.sort((a, b) => {
        const [a1, a2] = a.split('-').map(Number);
        const [b1, b2] = b.split('-').map(Number);
        return a1! - b1! || a2! - b2!;
      });
    }
  }
}

function apply(index: SpatialIndex, model: Model, op: Op): void {
  const present = model.pos.has(op.id);
  if (op.kind === 'insert') {
    if (present) return;
    index.insert(op.id, op.x, op.y);
    model.pos.set(op.id, [op.x, op.y]);
  } else if (op.kind === 'remove') {
    if (!present) return;
    index.remove(op.id);
    model.pos.delete(op.id);
  } else {
    if (!present) return;
    const [x, y] = model.pos.get(op.id)!;
    const nx = op.kind === 'move' ? x + op.dx : op.x;
    const ny = op.kind === 'move' ? y + op.dy : op.y;
    index.move(op.id, nx, ny);
    model.pos.set(op.id, [nx, ny]);
  }
}

const makers: Record<string, (cell: number) => SpatialIndex> = {
  grid: (cell) => new GridIndex({ width: WORLD, height: WORLD, cellSize: cell, capacity: CAPACITY }),
  axis: (cell) => new AxisListIndex({ width: WORLD, height: WORLD, anchorSpacing: cell, capacity: CAPACITY }),
};

describe.each(Object.keys(makers))('%s index against brute force', (name) => {
  it('answers every query like brute force over random worlds and moves', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 3, 7.5, 10, 25, 150),
        fc.array(fc.tuple(fc.array(opArb, { minLength: 1, maxLength: 12 }), queryArb), { minLength: 1, maxLength: 25 }),
        (cell, steps) => {
          const index = makers[name]!(cell);
          const model = new Model();
          for (const [ops, query] of steps) {
            for (const op of ops) apply(index, model, op);
            expect(index.count).toBe(model.pos.size);
            expect(ask(index, query)).toEqual(model.answer(query));
          }
        },
      ),
      { seed: 42, numRuns: 400 },
    );
  });

  it('grows with the pool and keeps its contents', () => {
    const index = makers[name]!(10);
    index.insert(3, 5, 5);
    index.ensureCapacity(CAPACITY * 2);
    index.insert(CAPACITY + 5, 6, 6);
    const out: number[] = [];
    expect(index.queryRadius(5, 5, 2, out)).toBe(2);
    expect(out.sort((a, b) => a - b)).toEqual([3, CAPACITY + 5]);
  });

  it('refuses ids that are out of range or in the wrong state', () => {
    const index = makers[name]!(10);
    expect(() => index.insert(-1, 0, 0)).toThrow(RangeError);
    expect(() => index.remove(2)).toThrow(RangeError);
    index.insert(2, 0, 0);
    expect(() => index.insert(2, 1, 1)).toThrow(RangeError);
    expect(() => index.move(5, 1, 1)).toThrow(RangeError);
  });

  it('refuses NaN and infinite positions with a SpatialIndexError and keeps what it holds', () => {
    const index = makers[name]!(10);
    index.insert(2, 50, 50);
    for (const [x, y] of [
      [NaN, 5],
      [5, NaN],
      [Infinity, 5],
      [5, -Infinity],
    ] as const) {
      expect(() => index.insert(0, x, y)).toThrow(SpatialIndexError);
      expect(() => index.move(2, x, y)).toThrow(/must be finite numbers/);
    }
    expect(index.has(0)).toBe(false);
    expect(index.count).toBe(1);
    expect([index.xOf(2), index.yOf(2)]).toEqual([50, 50]);
    expect(index.nearest(0, 0, Infinity)).toBe(2);
    // Far but finite positions are kept as they are (no clamping).
    index.insert(1, 1e300, -1e300);
    expect([index.xOf(1), index.yOf(1)]).toEqual([1e300, -1e300]);
    expect(index.nearest(1e300, -1e300, 1)).toBe(1);
  });

  it('finds the nearest entity just across a cell line', () => {
    // Issue 12 #1: the grid's first ring was pruned by a negative bound squared.
    const index = makers[name]!(8);
    index.insert(0, 7.999995, 5);
    index.insert(1, 8, 5);
    expect(index.nearest(7.999999, 5, 1)).toBe(1);
    expect(index.nearest(7.999999, 5, Infinity)).toBe(1);
  });

  it('answers nearest like brute force when points sit on and beside cell lines', () => {
    const CELL = 8;
    const onLine = fc
      .tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom(0, 1e-9, -1e-9, 1e-6, -1e-6, 5e-6, -5e-6, 0.5))
      .map(([k, d]) => k * CELL + d);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(id, onLine, onLine), { selector: (t) => t[0], minLength: 1, maxLength: 30 }),
        onLine,
        onLine,
        fc.oneof(fc.constant(Infinity), fc.double({ min: 0, max: 20, noNaN: true })),
        (points, qx, qy, r) => {
          const index = makers[name]!(CELL);
          const model = new Model();
          for (const [i, x, y] of points) apply(index, model, { kind: 'insert', id: i, x, y });
          const q: Query = { kind: 'nearest', x: qx, y: qy, r, filter: 1, exclude: -1 };
          expect(ask(index, q)).toEqual(model.answer(q));
        },
      ),
      { seed: 12, numRuns: 1000 },
    );
  });
});

describe('grid pairs visit half the neighbours', () => {
  it('reports each close pair exactly once', () => {
    const grid = new GridIndex({ width: 10, height: 10, cellSize: 1, capacity: 9 });
    let id = 0;
    for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) grid.insert(id++, x + 0.5, y + 0.5);
    const seen: string[] = [];
    grid.forEachPair(1, (a, b) => seen.push([a, b].sort().join('-')));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(12); // the 12 orthogonal neighbour pairs of a 3×3 block
  });
});
