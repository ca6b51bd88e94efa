import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MinHeap } from './min-heap.js';

describe('MinHeap', () => {
  it('pops in order, like sorting', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -100, max: 100 })), (xs) => {
        const heap = new MinHeap<number>((a, b) => a < b);
        for (const x of xs) heap.push(x);
        expect(heap.size).toBe(xs.length);
        const out: number[] = [];
        while (heap.size > 0) out.push(heap.pop()!);
        expect(out).toEqual([...xs].sort((a, b) => a - b));
        expect(heap.pop()).toBeUndefined();
      }),
      { seed: 8 },
    );
  });

  it('removeWhere keeps the rest in order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -100, max: 100 })), fc.integer({ min: 2, max: 5 }), (xs, m) => {
        const heap = new MinHeap<number>((a, b) => a < b);
        for (const x of xs) heap.push(x);
        heap.removeWhere((x) => x % m === 0);
        const out: number[] = [];
        while (heap.size > 0) out.push(heap.pop()!);
        expect(out).toEqual(xs.filter((x) => x % m !== 0).sort((a, b) => a - b));
      }),
      { seed: 9 },
    );
  });
});
