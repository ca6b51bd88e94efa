import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ObserverSets } from './aoi-sets.js';

type Op =
  | { kind: 'write'; o: number; keys: number[] }
  | { kind: 'insert'; o: number; key: number }
  | { kind: 'remove'; o: number; key: number }
  | { kind: 'empty'; o: number }
  | { kind: 'clear' };

const OBSERVERS = 12;
const key = fc.integer({ min: 1, max: 200 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('write' as const), o: fc.nat(OBSERVERS - 1), keys: fc.uniqueArray(key, { maxLength: 40 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('insert' as const), o: fc.nat(OBSERVERS - 1), key }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), o: fc.nat(OBSERVERS - 1), key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('empty' as const), o: fc.nat(OBSERVERS - 1) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

function contents(sets: ObserverSets, o: number): number[] {
  return Array.from(sets.keys.subarray(sets.start[o]!, sets.start[o]! + sets.length[o]!));
}

describe('ObserverSets against a model', () => {
  it('keeps every set sorted and exact through writes, inserts, removes, moves to bigger blocks and packing', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (ops, packAfter) => {
        const sets = new ObserverSets(packAfter);
        sets.ensureSlots(OBSERVERS);
        const model: Set<number>[] = Array.from({ length: OBSERVERS }, () => new Set());
        for (const op of ops) {
          if (op.kind === 'write') {
            const sorted = Float64Array.from(op.keys).sort();
            sets.write(op.o, sorted, sorted.length);
            model[op.o] = new Set(op.keys);
          } else if (op.kind === 'insert' || op.kind === 'remove') {
            const at = sets.find(op.o, op.key);
            expect(at >= 0).toBe(model[op.o]!.has(op.key));
            if (op.kind === 'insert' && at < 0) {
              sets.insertAt(op.o, -at - 1, op.key);
              model[op.o]!.add(op.key);
            }
            if (op.kind === 'remove' && at >= 0) {
              sets.removeAt(op.o, at);
              model[op.o]!.delete(op.key);
            }
          } else if (op.kind === 'empty') {
            sets.empty(op.o);
            model[op.o] = new Set();
          } else {
            sets.clear();
            for (let o = 0; o < OBSERVERS; o++) model[o] = new Set();
          }
          let total = 0;
          for (let o = 0; o < OBSERVERS; o++) {
            expect(contents(sets, o)).toEqual([...model[o]!].sort((a, b) => a - b));
            total += model[o]!.size;
          }
          expect(sets.total).toBe(total);
        }
      }),
      { seed: 12, numRuns: 300 },
    );
  });
});

describe('ObserverSets memory', () => {
  it('stays bounded when sets grow big and shrink again (blocks are cut back when the slab is mostly slack)', () => {
    const sets = new ObserverSets();
    sets.ensureSlots(100);
    const big = Float64Array.from({ length: 500 }, (_, i) => i + 1);
    for (let o = 0; o < 100; o++) {
      sets.write(o, big, big.length);
      sets.write(o, big, 1);
    }
    // Without packing: 100 blocks of 512 keys.
    expect(sets.keys.length).toBeLessThanOrEqual(16384);
    for (let o = 0; o < 100; o++) expect(Array.from(sets.keys.subarray(sets.start[o]!, sets.start[o]! + sets.length[o]!))).toEqual([1]);
    expect(sets.total).toBe(100);
  });
});
