import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BucketGrid } from './aoi-buckets.js';

type Op =
  | { kind: 'set'; slot: number; x: number; y: number }
  | { kind: 'remove'; slot: number }
  | { kind: 'rebuild' }
  | { kind: 'query'; x: number; y: number; r: number };

const SLOTS = 40;
const coord = fc.oneof(fc.integer({ min: -5, max: 45 }), fc.double({ min: -5, max: 45, noNaN: true }));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), slot: fc.nat(SLOTS - 1), x: coord, y: coord }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), slot: fc.nat(SLOTS - 1) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'rebuild' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('query' as const), x: coord, y: coord, r: fc.integer({ min: 0, max: 25 }) }) },
);

/** Every entry the runs hold: slot → [x, y]. */
function entriesInRuns(grid: BucketGrid, minX: number, minY: number, maxX: number, maxY: number): Map<number, [number, number]> {
  const runs = new Int32Array(4096);
  const k = grid.runsInRect(minX, minY, maxX, maxY, runs);
  expect(k).toBeGreaterThanOrEqual(0);
  const out = new Map<number, [number, number]>();
  for (let q = 0; q < k; q += 2) {
    for (let j = runs[q]!; j < runs[q + 1]!; j++) {
      expect(out.has(grid.slot[j]!)).toBe(false);
      out.set(grid.slot[j]!, [grid.xy[2 * j]!, grid.xy[2 * j + 1]!]);
    }
  }
  return out;
}

describe('BucketGrid against a model', () => {
  it('holds each entity once, at its position, and a look finds every one in the rectangle', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (ops, packAfter) => {
        // A small world of cells of 7 (positions outside it land in border cells), packed often.
        const grid = new BucketGrid(40, 40, 7, packAfter);
        grid.ensureSlots(SLOTS);
        const model = new Map<number, [number, number]>();
        for (const op of ops) {
          if (op.kind === 'set') {
            grid.set(op.slot, op.x, op.y);
            model.set(op.slot, [op.x, op.y]);
          } else if (op.kind === 'remove') {
            grid.remove(op.slot);
            model.delete(op.slot);
          } else if (op.kind === 'rebuild') {
            const slots = Int32Array.from(model.keys());
            const x = new Float64Array(SLOTS);
            const y = new Float64Array(SLOTS);
            for (const [s, [px, py]] of model) {
              x[s] = px;
              y[s] = py;
            }
            grid.rebuild(slots, slots.length, x, y);
          } else {
            const found = entriesInRuns(grid, op.x - op.r, op.y - op.r, op.x + op.r, op.y + op.r);
            for (const [s, [px, py]] of model) {
              const inside = Math.abs(px - op.x) <= op.r && Math.abs(py - op.y) <= op.r;
              if (inside) expect(found.get(s)).toEqual([px, py]);
            }
            for (const s of found.keys()) expect(model.has(s)).toBe(true);
          }
        }
        // The whole world: exactly the model.
        const all = entriesInRuns(grid, -Infinity, -Infinity, Infinity, Infinity);
        expect(new Map([...all].sort())).toEqual(new Map([...model].sort()));
        // In cell order: a permutation of what was given.
        const slots = Int32Array.from(model.keys());
        const ordered = new Int32Array(slots.length);
        grid.orderByCell(slots, slots.length, ordered);
        expect([...ordered].sort((a, b) => a - b)).toEqual([...slots].sort((a, b) => a - b));
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});

describe('BucketGrid memory', () => {
  it('stays bounded when a crowd crosses the world (cells it left give their blocks back)', () => {
    const grid = new BucketGrid(400, 400, 10);
    const crowd = 500;
    grid.ensureSlots(crowd);
    for (let step = 0; step < 390; step += 2) {
      for (let s = 0; s < crowd; s++) grid.set(s, step + (s % 7) * 0.1, step + (s % 11) * 0.1);
    }
    // Without packing, each of the ~40 cells on the diagonal would keep a 512-entry block.
    expect(grid.slot.length).toBeLessThanOrEqual(8192);
    const runs = new Int32Array(64);
    expect(grid.runsInRect(380, 380, 400, 400, runs)).toBeGreaterThan(0);
  });
});
