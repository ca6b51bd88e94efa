/**
 * The baseline for the AOI benchmark: the area of interest as it was before
 * it followed change (issue 8) — every update recomputes every observer's
 * set with a range query, sorts it and diffs it against the last one, moved
 * or not. Kept here, out of the library, so every run measures "today"
 * beside the new AreaOfInterest on the same worlds.
 */

import type { AoiIdentity, AoiListener, InterestShape } from '../../runtime/aoi/aoi.js';
import type { EntityPool } from '../../runtime/entities/entity-pool.js';
import type { SpatialIndex } from '../../runtime/spatial/spatial-index.js';

const EMPTY = new Float64Array(0);

export class RecomputeAoi {
  /** Per slot: the sorted handles it observed at the last update. */
  private sets: Float64Array[] = [];
  private setLength = new Int32Array(0);
  /** The handle the set at a slot belongs to; a new occupant starts empty. */
  private owner = new Float64Array(0);
  private lastX = new Float64Array(0);
  private lastY = new Float64Array(0);
  private scratch = new Float64Array(64);
  private scratchLength = 0;
  private currentObserver = -1;
  private readonly collect = (id: number): void => {
    if (id !== this.currentObserver) this.collectKey(this.identity.keyOf(id));
  };

  private collectKey(key: number): void {
    if (this.scratchLength === this.scratch.length) {
      const bigger = new Float64Array(this.scratch.length * 2);
      bigger.set(this.scratch);
      this.scratch = bigger;
    }
    this.scratch[this.scratchLength++] = key;
  }
  private readonly identity: AoiIdentity;

  constructor(
    private readonly pool: EntityPool,
    private index: SpatialIndex,
    readonly shape: InterestShape = 'square',
    identity?: AoiIdentity,
  ) {
    this.identity = identity ?? { keyOf: (slot) => pool.handleAt(slot), slotOf: (key) => pool.indexOf(key) };
  }

  /** Recompute every observer's set from the index and emit the differences. */
  update(emit: AoiListener): void {
    const pool = this.pool;
    this.fitCapacity(pool.capacity);
    for (let i = 0; i < pool.count; i++) {
      const slot = pool.activeAt(i);
      const key = this.identity.keyOf(slot);
      if (this.owner[slot] !== key) {
        this.owner[slot] = key;
        this.setLength[slot] = 0;
      }
      this.gather(slot);
      this.diff(slot, key, emit);
      this.keep(slot);
    }
    for (let i = 0; i < pool.count; i++) {
      const slot = pool.activeAt(i);
      this.lastX[slot] = pool.x[slot]!;
      this.lastY[slot] = pool.y[slot]!;
    }
  }

  /** The keys an observer saw at the last update (a copy, for tests and tools). */
  observedBy(key: number): number[] {
    const slot = this.identity.slotOf(key);
    if (slot < 0 || slot >= this.owner.length || this.owner[slot] !== key) return [];
    return Array.from(this.sets[slot]!.subarray(0, this.setLength[slot]!));
  }

  private gather(slot: number): void {
    this.scratchLength = 0;
    const r = this.pool.interest[slot]!;
    if (!(r > 0)) return;
    this.currentObserver = slot;
    const x = this.pool.x[slot]!;
    const y = this.pool.y[slot]!;
    if (this.shape === 'circle') this.index.forEachInRadius(x, y, r, this.collect);
    else this.index.forEachInRect(x - r, y - r, x + r, y + r, this.collect);
    sortRange(this.scratch, 0, this.scratchLength - 1);
  }

  /** Merge the sorted old and new sets, emitting enter / move / leave. */
  private diff(slot: number, observer: number, emit: AoiListener): void {
    const old = this.sets[slot]!;
    const oldLength = this.setLength[slot]!;
    const now = this.scratch;
    const nowLength = this.scratchLength;
    let i = 0;
    let j = 0;
    while (i < oldLength || j < nowLength) {
      const a = i < oldLength ? old[i]! : Infinity;
      const b = j < nowLength ? now[j]! : Infinity;
      if (a < b) {
        emit('leave', observer, a);
        i++;
      } else if (b < a) {
        emit('enter', observer, b);
        j++;
      } else {
        if (this.moved(b)) emit('move', observer, b);
        i++;
        j++;
      }
    }
  }

  private moved(subject: number): boolean {
    const slot = this.identity.slotOf(subject);
    return this.pool.x[slot] !== this.lastX[slot] || this.pool.y[slot] !== this.lastY[slot];
  }

  private keep(slot: number): void {
    let set = this.sets[slot]!;
    if (set.length < this.scratchLength) {
      set = new Float64Array(Math.max(8, this.scratchLength * 2));
      this.sets[slot] = set;
    }
    for (let k = 0; k < this.scratchLength; k++) set[k] = this.scratch[k]!;
    this.setLength[slot] = this.scratchLength;
  }

  private fitCapacity(capacity: number): void {
    if (this.owner.length >= capacity) return;
    const grow = <T extends Float64Array | Int32Array>(from: T, to: T): T => {
      (to as Float64Array).set(from as Float64Array);
      return to;
    };
    this.owner = grow(this.owner, new Float64Array(capacity));
    this.setLength = grow(this.setLength, new Int32Array(capacity));
    this.lastX = grow(this.lastX, new Float64Array(capacity));
    this.lastY = grow(this.lastY, new Float64Array(capacity));
    while (this.sets.length < capacity) this.sets.push(EMPTY);
  }
}

/** In-place quicksort of a[lo..hi] (insertion sort for short ranges); no allocation. */
export function sortRange(a: Float64Array, lo: number, hi: number): void {
  while (hi - lo > 16) {
    const pivot = median3(a[lo]!, a[(lo + hi) >> 1]!, a[hi]!);
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    // Recurse into the smaller half, loop on the larger: stack depth stays O(log n).
    if (j - lo < hi - i) {
      sortRange(a, lo, j);
      lo = i;
    } else {
      sortRange(a, i, hi);
      hi = j;
    }
  }
  for (let k = lo + 1; k <= hi; k++) {
    const v = a[k]!;
    let m = k - 1;
    while (m >= lo && a[m]! > v) {
      a[m + 1] = a[m]!;
      m--;
    }
    a[m + 1] = v;
  }
}

function median3(a: number, b: number, c: number): number {
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}
