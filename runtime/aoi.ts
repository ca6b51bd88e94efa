/**
 * Area of interest: each entity with an interest range r > 0 observes the
 * other entities inside it. Once per tick `update` recomputes every
 * observer's set and reports the difference from last tick:
 *   - enter: in the new set, not the old one;
 *   - leave: in the old set, not the new one (it moved away, or despawned);
 *   - move:  in both, and its position changed since the last update.
 *
 * Shapes, both inclusive: 'square' is |dx| ≤ r and |dy| ≤ r (what the
 * cross-linked-list technique computes natively); 'circle' is dx² + dy² ≤ r².
 *
 * Sets hold handles, not slots, so a slot despawned and reused between two
 * updates reads as one entity leaving and another entering. Sets are sorted
 * Float64Arrays kept per slot and reused tick to tick, so a steady world
 * allocates nothing here.
 */

import type { EntityPool } from './entity-pool.js';
import type { SpatialIndex } from './spatial-index.js';

export type InterestShape = 'square' | 'circle';
export type AoiEventKind = 'enter' | 'move' | 'leave';
/** Receives each notification (as identity keys); called synchronously inside `update`. */
export type AoiListener = (kind: AoiEventKind, observer: number, subject: number) => void;

/**
 * How entities are named in the sets: by default their pool handles. The
 * world uses its never-reused serial ids instead, so a notification about an
 * entity whose slot was already reused still names the right one.
 */
export interface AoiIdentity {
  /** The key of the live entity in `slot`. Keys must be positive and unique over the world's life. */
  keyOf(slot: number): number;
  /** The slot of a live entity's key. */
  slotOf(key: number): number;
}

/** Saved sets, for world snapshots. */
export interface AoiState {
  readonly observers: readonly { readonly key: number; readonly seen: readonly number[] }[];
  readonly lastPositions: readonly (readonly [key: number, x: number, y: number])[];
}

const EMPTY = new Float64Array(0);

export class AreaOfInterest {
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

  /** Use another index (e.g. after World.restore); keeps the observed sets. */
  setIndex(index: SpatialIndex): void {
    this.index = index;
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

  /** The observed sets and last positions of live entities, as plain data. */
  exportState(): AoiState {
    const observers: { key: number; seen: number[] }[] = [];
    const lastPositions: [number, number, number][] = [];
    for (let i = 0; i < this.pool.count; i++) {
      const slot = this.pool.activeAt(i);
      const key = this.identity.keyOf(slot);
      if (slot < this.owner.length) {
        if (this.owner[slot] === key && this.setLength[slot]! > 0) observers.push({ key, seen: this.observedBy(key) });
        lastPositions.push([key, this.lastX[slot]!, this.lastY[slot]!]);
      }
    }
    return { observers, lastPositions };
  }

  /** Load sets saved by exportState (the pool already restored). */
  importState(state: AoiState): void {
    this.reset();
    this.fitCapacity(this.pool.capacity);
    for (const { key, seen } of state.observers) {
      const slot = this.identity.slotOf(key);
      if (slot < 0) continue;
      this.owner[slot] = key;
      this.scratchLength = 0;
      for (const k of seen) this.collectKey(k);
      sortRange(this.scratch, 0, this.scratchLength - 1);
      this.keep(slot);
    }
    for (const [key, x, y] of state.lastPositions) {
      const slot = this.identity.slotOf(key);
      if (slot < 0) continue;
      this.lastX[slot] = x;
      this.lastY[slot] = y;
    }
  }

  /** Forget everything (after a restore): the next update reports every pair as entering. */
  reset(): void {
    this.owner.fill(0);
    this.setLength.fill(0);
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
