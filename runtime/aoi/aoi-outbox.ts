/**
 * The notifications one AOI update produces, delivered in one fixed order
 * whatever order the engine found them in: observers in the pool's active
 * order, then subjects by ascending key — the order of the old
 * recompute-and-diff pass, so worlds (and their snapshots, casts and random
 * draws) stay deterministic and the grid and axis engines agree event for
 * event.
 *
 * Each observer with news gets a short linked list of records; only those
 * observers are visited at delivery, sorted by active position (or, when
 * most observers have news, found by one pass over the active slots).
 */

import type { AoiEventKind } from './aoi.js';
import { copyInto } from '../spatial/spatial-index.js';

const NONE = -1;
const KINDS: readonly AoiEventKind[] = ['enter', 'move', 'leave'];
export const ENTER = 0;
export const MOVE = 1;
export const LEAVE = 2;

export class AoiOutbox {
  /** Per observer slot, side by side (one cache line for both): the update it last got news in, and its first record. */
  private perSlot: Int32Array = new Int32Array(0);
  private observers: Int32Array = new Int32Array(64);
  private observerCount = 0;
  private recNext: Int32Array = new Int32Array(256);
  private recKey: Float64Array = new Float64Array(256);
  private recKind: Uint8Array = new Uint8Array(256);
  private recCount = 0;
  private sortKeys: Float64Array = new Float64Array(64);
  private sortKinds: Int32Array = new Int32Array(64);
  private order: Int32Array = new Int32Array(64);
  private epoch = 0;

  ensureSlots(capacity: number): void {
    if (2 * capacity <= this.perSlot.length) return;
    this.perSlot = copyInto(this.perSlot, new Int32Array(2 * capacity));
  }

  /** Start collecting for one update. */
  begin(epoch: number): void {
    this.epoch = epoch | 0;
    this.observerCount = 0;
    this.recCount = 0;
  }

  push(observer: number, subjectKey: number, kind: number): void {
    const at = 2 * observer;
    const perSlot = this.perSlot;
    if (perSlot[at] !== this.epoch) {
      perSlot[at] = this.epoch;
      perSlot[at + 1] = NONE;
      if (this.observerCount === this.observers.length) this.observers = grow32(this.observers);
      this.observers[this.observerCount++] = observer;
    }
    if (this.recCount === this.recKey.length) this.growRecords();
    const r = this.recCount++;
    this.recKey[r] = subjectKey;
    this.recKind[r] = kind;
    this.recNext[r] = perSlot[at + 1]!;
    perSlot[at + 1] = r;
  }

  /**
   * Deliver everything collected. `active` is the pool's packed live slots
   * (count entries), `activePos` each live slot's position in it, `keyOf`
   * the observer's identity key.
   */
  deliver(
    active: Int32Array,
    count: number,
    activePos: Int32Array,
    keyOf: (slot: number) => number,
    emit: (kind: AoiEventKind, observer: number, subject: number) => void,
  ): void {
    const n = this.observerCount;
    if (n === 0) return;
    if (n * 8 > count) {
      for (let i = 0; i < count; i++) {
        const slot = active[i]!;
        if (this.perSlot[2 * slot] === this.epoch) this.deliverTo(slot, keyOf(slot), emit);
      }
      return;
    }
    if (this.order.length < n) this.order = new Int32Array(n * 2);
    const order = this.order.subarray(0, n);
    for (let i = 0; i < n; i++) order[i] = activePos[this.observers[i]!]!;
    order.sort();
    for (let i = 0; i < n; i++) {
      const slot = active[order[i]!]!;
      this.deliverTo(slot, keyOf(slot), emit);
    }
  }

  private append(k: number, subjectKey: number, kind: number): void {
    if (k === this.sortKeys.length) {
      this.sortKeys = copyFloat(this.sortKeys, k * 2);
      this.sortKinds = copyInto(this.sortKinds, new Int32Array(k * 2));
    }
    this.sortKeys[k] = subjectKey;
    this.sortKinds[k] = kind;
  }

  private emitSorted(k: number, key: number, emit: (kind: AoiEventKind, observer: number, subject: number) => void): void {
    if (k === 0) return;
    sortByKey(this.sortKeys, this.sortKinds, 0, k - 1);
    for (let i = 0; i < k; i++) emit(KINDS[this.sortKinds[i]!]!, key, this.sortKeys[i]!);
  }

  private deliverTo(slot: number, key: number, emit: (kind: AoiEventKind, observer: number, subject: number) => void): void {
    const first = this.perSlot[2 * slot + 1]!;
    if (this.recNext[first] === NONE) {
      // One notification (the common case when few moved): nothing to sort.
      emit(KINDS[this.recKind[first]!]!, key, this.recKey[first]!);
      return;
    }
    let k = 0;
    for (let r = this.perSlot[2 * slot + 1]!; r !== NONE; r = this.recNext[r]!) this.append(k++, this.recKey[r]!, this.recKind[r]!);
    this.emitSorted(k, key, emit);
  }

  private growRecords(): void {
    const n = this.recKey.length * 2;
    this.recKey = copyFloat(this.recKey, n);
    const kinds = new Uint8Array(n);
    kinds.set(this.recKind);
    this.recKind = kinds;
    this.recNext = grow32(this.recNext);
  }
}

/** In-place sort of keys[lo..hi] ascending, moving along[] with them; quicksort with insertion sort for short ranges. */
export function sortByKey(keys: Float64Array, along: Int32Array, lo: number, hi: number): void {
  while (hi - lo > 16) {
    const pivot = median3(keys[lo]!, keys[(lo + hi) >> 1]!, keys[hi]!);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (keys[i]! < pivot) i++;
      while (keys[j]! > pivot) j--;
      if (i <= j) {
        swap(keys, along, i++, j--);
      }
    }
    // Recurse into the smaller half, loop on the larger: stack depth stays O(log n).
    if (j - lo < hi - i) {
      sortByKey(keys, along, lo, j);
      lo = i;
    } else {
      sortByKey(keys, along, i, hi);
      hi = j;
    }
  }
  for (let k = lo + 1; k <= hi; k++) {
    const v = keys[k]!;
    const a = along[k]!;
    let m = k - 1;
    while (m >= lo && keys[m]! > v) {
      keys[m + 1] = keys[m]!;
      along[m + 1] = along[m]!;
      m--;
    }
    keys[m + 1] = v;
    along[m + 1] = a;
  }
}

function swap(keys: Float64Array, along: Int32Array, i: number, j: number): void {
  const k = keys[i]!;
  keys[i] = keys[j]!;
  keys[j] = k;
  const t = along[i]!;
  along[i] = along[j]!;
  along[j] = t;
}

function median3(a: number, b: number, c: number): number {
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}

function grow32(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function copyFloat(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}
