/**
 * A binary min-heap: the world's timers (buffs wearing off) come out in
 * order in O(log n) each, however many a spell creates and in whatever order.
 */
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(item, items[parent]!)) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    this.siftDown(0, last);
    return top;
  }

  /** Drop every item `drop` says so, in O(n) (filter, then re-heapify bottom-up). */
  removeWhere(drop: (item: T) => boolean): void {
    const items = this.items;
    let kept = 0;
    for (const item of items) if (!drop(item)) items[kept++] = item;
    items.length = kept;
    for (let i = (kept >> 1) - 1; i >= 0; i--) this.siftDown(i, items[i]!);
  }

  /** Put `item` at `i` and move it down below its smaller children. */
  private siftDown(i: number, item: T): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && this.less(items[right]!, items[left]!) ? right : left;
      if (!this.less(items[child]!, item)) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = item;
  }

  /** Every item, in no particular order. */
  toArray(): T[] {
    return [...this.items];
  }
}
