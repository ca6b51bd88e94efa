/**
 * A priority queue for timers that mostly arrive in order: the world's
 * waiting casts. A cast that waits again after it wakes — an aura's pulse,
 * a wanderer's journey, anything in a `while (true) { …; wait(d); }` — asks
 * for a wake time past every other of its length, so most pushes are at or
 * after the latest one. Those go on a run kept in order (an array read from
 * its head: a pop is one read, in memory order); only a push that would
 * break the run's order goes to a binary heap. A pop takes the lesser of the
 * run's head and the heap's top, so items come out in exactly the order
 * one MinHeap would give (the order must be total: no two items equal).
 *
 * Why: 10,000 casts waking in one step popped from a heap of 10,000 cost
 * ~26 comparisons each, every one a cache miss on a different entry — a
 * quarter of what a wake cost (issue 34, item 6).
 */

import { MinHeap } from './min-heap.js';

/** Items popped from the run's head before its array is cut (the front of the array is garbage until then). */
const CUT_RUN_AFTER = 1024;

export class WakeQueue<T> {
  /** Items pushed in order, from `head` on; the slots before `head` are spent (undefined). */
  private run: (T | undefined)[] = [];
  private head = 0;
  private readonly heap: MinHeap<T>;

  /** `less` must be a strict total order (the world's: wake time, then the order casts began waiting). */
  constructor(private readonly less: (a: T, b: T) => boolean) {
    this.heap = new MinHeap(less);
  }

  get size(): number {
    return this.run.length - this.head + this.heap.size;
  }

  peek(): T | undefined {
    return this.fromRun() ? this.run[this.head] : this.heap.peek();
  }

  push(item: T): void {
    const run = this.run;
    if (run.length === this.head || !this.less(item, run[run.length - 1]!)) run.push(item);
    else this.heap.push(item);
  }

  pop(): T | undefined {
    if (!this.fromRun()) return this.heap.pop();
    const run = this.run;
    const item = run[this.head];
    run[this.head++] = undefined;
    if (this.head === run.length) {
      run.length = 0;
      this.head = 0;
    } else if (this.head >= CUT_RUN_AFTER && this.head * 2 >= run.length) {
      run.splice(0, this.head);
      this.head = 0;
    }
    return item;
  }

  /** Drop every item `drop` says so, in O(n); the rest keep their order. */
  removeWhere(drop: (item: T) => boolean): void {
    const kept = this.run.slice(this.head).filter((item) => !drop(item!));
    this.run = kept;
    this.head = 0;
    this.heap.removeWhere(drop);
  }

  /** Every item, in no particular order. */
  toArray(): T[] {
    return [...(this.run.slice(this.head) as T[]), ...this.heap.toArray()];
  }

  /** Whether the next item is the run's head (else the heap's top, or there is none). */
  private fromRun(): boolean {
    if (this.head === this.run.length) return false;
    const top = this.heap.peek();
    return top === undefined || !this.less(top, this.run[this.head]!);
  }
}
