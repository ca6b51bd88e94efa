/**
 * Each observer's observed set, as its subjects' identity keys in ascending
 * order (the order notifications are delivered in), kept in one slab of
 * Float64s: an observer owns a block of the slab, sized a power of two, and
 * moves to a bigger block at the slab's end when its set outgrows it. A
 * block is kept when its set shrinks, so once the slab holds more than
 * twice the live keys (plus `packAfter`) it is packed into a second buffer
 * kept for that, each block cut to its set's size. Steady state, a set that
 * changes by a few keys allocates nothing.
 */

import { blockFor } from './aoi-buckets.js';
import { copyInto } from '../spatial/spatial-index.js';

export class ObserverSets {
  /** The keys of every block; observer o's set is keys[start[o] .. start[o] + length[o]). */
  keys: Float64Array = new Float64Array(1024);
  start: Int32Array = new Int32Array(0);
  length: Int32Array = new Int32Array(0);
  private room: Int32Array = new Int32Array(0);
  private spare: Float64Array = new Float64Array(0);
  /** The end of the used part of the slab, and how much of it lies in blocks nobody owns any more. */
  private top = 0;
  /** The sum of every set's length: 0 when nobody observes anything. */
  total = 0;

  /** `packAfter`: how many keys of slack, beyond the live keys, the slab may hold before it is packed. */
  constructor(private readonly packAfter = 4096) {}

  ensureSlots(capacity: number): void {
    if (capacity <= this.start.length) return;
    this.start = copyInto(this.start, new Int32Array(capacity));
    this.length = copyInto(this.length, new Int32Array(capacity));
    this.room = copyInto(this.room, new Int32Array(capacity));
  }

  clear(): void {
    this.length.fill(0);
    this.room.fill(0);
    this.top = 0;
    this.total = 0;
  }

  /** Forget o's set (its block stays o's, for the next occupant of the slot). */
  empty(o: number): void {
    this.total -= this.length[o]!;
    this.length[o] = 0;
  }

  /** Replace o's set with keys[0 .. count), which must be ascending. */
  write(o: number, keys: Float64Array, count: number): void {
    if (count > this.room[o]!) this.relocate(o, count);
    if (count > 0) this.keys.set(keys.subarray(0, count), this.start[o]!);
    this.total += count - this.length[o]!;
    this.length[o] = count;
  }

  /** The position of `key` in o's set, or −(insertion point) − 1 when it is not there. */
  find(o: number, key: number): number {
    const keys = this.keys;
    const base = this.start[o]!;
    let lo = 0;
    let hi = this.length[o]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const k = keys[base + mid]!;
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else return mid;
    }
    return -lo - 1;
  }

  /** Put `key` at position i of o's set (the insertion point find() gave). */
  insertAt(o: number, i: number, key: number): void {
    const n = this.length[o]!;
    if (n === this.room[o]!) this.relocate(o, n + 1);
    const base = this.start[o]!;
    this.keys.copyWithin(base + i + 1, base + i, base + n);
    this.keys[base + i] = key;
    this.length[o] = n + 1;
    this.total++;
  }

  removeAt(o: number, i: number): void {
    const n = this.length[o]!;
    const base = this.start[o]!;
    this.keys.copyWithin(base + i, base + i + 1, base + n);
    this.length[o] = n - 1;
    this.total--;
  }

  /** Give o a block with room for `need` keys at the slab's end, its keys moved along. */
  private relocate(o: number, need: number): void {
    const room = blockFor(need);
    if (this.top > 2 * this.total + this.packAfter) this.pack();
    if (this.top + room > this.keys.length) {
      let size = this.keys.length * 2;
      while (size < this.top + room) size *= 2;
      this.keys = copyInto(this.keys, new Float64Array(size));
    }
    const from = this.start[o]!;
    this.keys.copyWithin(this.top, from, from + this.length[o]!);
    this.start[o] = this.top;
    this.room[o] = room;
    this.top += room;
  }

  /** Move every block to the front of the other buffer, in slot order, cut to its set's size (empty sets give theirs up). */
  private pack(): void {
    if (this.spare.length < this.keys.length) this.spare = new Float64Array(this.keys.length);
    const to = this.spare;
    let top = 0;
    for (let o = 0; o < this.start.length; o++) {
      const n = this.length[o]!;
      this.room[o] = n === 0 ? 0 : blockFor(n);
      if (n === 0) continue;
      const from = this.start[o]!;
      to.set(this.keys.subarray(from, from + n), top);
      this.start[o] = top;
      top += this.room[o]!;
    }
    this.spare = this.keys;
    this.keys = to;
    this.top = top;
  }

}
