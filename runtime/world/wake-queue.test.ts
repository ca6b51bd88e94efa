import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MinHeap } from './min-heap.js';
import { WakeQueue } from './wake-queue.js';

/** A timer as the world's are ordered: wake time, then a unique sequence number. */
interface Timer {
  readonly at: number;
  readonly seq: number;
}
const before = (a: Timer, b: Timer): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/** One step of a run against both queues: push a timer (mostly in order, as re-waiting casts push), pop, or drop some. */
const operation = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('push' as const), delay: fc.integer({ min: 0, max: 20 }), inOrder: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pop' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), modulo: fc.integer({ min: 2, max: 5 }) }) },
);

describe('WakeQueue', () => {
  it('gives exactly the order a MinHeap gives, whatever mix of in-order and out-of-order pushes, pops and drops', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 3000 }), (ops) => {
        const queue = new WakeQueue<Timer>(before);
        const heap = new MinHeap<Timer>(before);
        let seq = 0;
        let now = 0;
        let latest = 0;
        for (const op of ops) {
          if (op.kind === 'push') {
            // In order: at or after the latest wake time pushed (a cast waiting again); else anywhere from now on.
            const at = op.inOrder ? latest + op.delay : now + op.delay;
            latest = Math.max(latest, at);
            const timer = { at, seq: seq++ };
            queue.push(timer);
            heap.push(timer);
          } else if (op.kind === 'pop') {
            const a = queue.pop();
            expect(a).toBe(heap.pop());
            if (a !== undefined) now = a.at;
          } else {
            queue.removeWhere((t) => t.seq % op.modulo === 0);
            heap.removeWhere((t) => t.seq % op.modulo === 0);
          }
          expect(queue.size).toBe(heap.size);
          expect(queue.peek()).toBe(heap.peek());
        }
        expect(new Set(queue.toArray())).toEqual(new Set(heap.toArray()));
      }),
      { seed: 34, numRuns: 200 },
    );
  });

  it('pops past the point where it cuts its run, in order', () => {
    const queue = new WakeQueue<Timer>(before);
    for (let i = 0; i < 5000; i++) queue.push({ at: Math.floor(i / 10), seq: i });
    const seqs: number[] = [];
    for (let i = 0; i < 3000; i++) seqs.push(queue.pop()!.seq);
    for (let i = 5000; i < 6000; i++) queue.push({ at: Math.floor(i / 10), seq: i });
    while (queue.size > 0) seqs.push(queue.pop()!.seq);
    expect(seqs).toEqual(Array.from({ length: 6000 }, (_, i) => i));
  });
});
