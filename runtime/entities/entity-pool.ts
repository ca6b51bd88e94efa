/**
 * EntityPool — the Object Pool and Data Locality patterns.
 *
 * Every entity lives in a slot of a fixed set of parallel typed arrays
 * (struct of arrays), so update loops stream through contiguous memory. A
 * slot's `link` word is the book's `union { live; next }`: for a live slot it
 * is the entity's position in the packed `active` array (>= 0); for a free
 * slot it encodes the next free slot (< 0). Spawning pops the free list,
 * despawning pushes it, and neither allocates.
 *
 * Spells and hosts never hold slot indices, they hold handles: the slot index
 * plus the slot's generation, bumped on every despawn. A handle kept after
 * its entity died (and its slot was reused many times) no longer matches and
 * is reported as stale instead of reading another entity's data.
 */

import { WorldError } from '../errors.js';
import { POOL_FIELDS, POOL_FIELD_ARRAYS, type PoolFieldArrays } from './entity-fields.js';

/** A handle: `generation * INDEX_LIMIT + index`. Always a safe integer. */
export type EntityHandle = number;

/** What `spawn` does when every slot is taken. */
export type ExhaustionPolicy = 'error' | 'grow' | 'recycle-oldest';

export interface EntityPoolOptions {
  capacity: number;
  policy?: ExhaustionPolicy;
  /** Upper bound for the 'grow' policy. Default INDEX_LIMIT. */
  maxCapacity?: number;
}

/** Slots are addressed with 24 bits; generations take the bits above (28 of them keep handles < 2^53). */
export const INDEX_LIMIT = 1 << 24;
const GENERATION_LIMIT = 2 ** 28;
/** A handle value no live entity ever has (generation 0 is never issued). */
export const NO_ENTITY: EntityHandle = 0;

const NONE = -1;
/** A free slot's link holds -(next + 2), so `NONE` (-1) encodes itself and every free link is negative. */
const encodeFree = (next: number): number => -next - 2;
const decodeFree = (link: number): number => -link - 2;

const INVERSE_INDEX_LIMIT = 1 / INDEX_LIMIT;
// Multiplying by a power of two is exact, and much cheaper than `%` on doubles.
export const handleGeneration = (handle: EntityHandle): number => Math.floor(handle * INVERSE_INDEX_LIMIT);
export const handleIndex = (handle: EntityHandle): number => handle - handleGeneration(handle) * INDEX_LIMIT;

/** Everything a pool holds, as plain arrays (for world snapshots); restoring it gives back the same slots and handles. */
export interface EntityPoolState {
  readonly capacity: number;
  readonly count: number;
  readonly freeHead: number;
  readonly oldest: number;
  readonly newest: number;
  readonly arrays: Readonly<Record<PoolArrayName, readonly number[]>>;
}

/** The pool's own bookkeeping arrays, beside the entity fields (entity-fields.ts). */
const BOOKKEEPING_ARRAYS = ['generation', 'link', 'active', 'older', 'newer'] as const;

/** The pool's typed arrays, by name (a snapshot holds one JSON array of each): the declared entity fields, then the bookkeeping. */
export const POOL_ARRAYS = [...POOL_FIELDS, ...BOOKKEEPING_ARRAYS] as const;
type PoolArrayName = (typeof POOL_ARRAYS)[number];

/** A typed array of one pool field, of either kind. */
type Column = Float64Array | Int32Array;

/**
 * The declared pool fields (entity-fields.ts), one typed array each: `pool.x`, `pool.health`, `pool.breed`
 * (the breed registry's index) … Made first, in the base constructor, so they are the pool's first
 * properties (kept in the object itself: `pool.x[i]` is a direct field load, as with hand-written fields).
 */
abstract class PoolColumns {
  /** The same arrays in POOL_FIELDS order, for loops over every field. */
  declare protected columns: Column[];

  constructor() {
    const fields = this as unknown as Record<string, Column>;
    this.columns = POOL_FIELDS.map((name, c) => (fields[name] = new POOL_FIELD_ARRAYS[c]!(0)));
  }
}

/** The pool field arrays are replaced (not resized in place) when the pool grows: re-read them after spawn. */
export interface EntityPool extends PoolFieldArrays {}

export class EntityPool extends PoolColumns {
  private generation!: Uint32Array;
  /** union { live: position in `active`; free: encoded next free slot }. */
  private link!: Int32Array;
  /** Live slots packed at the front: iterate `active[0 .. count)`. */
  private active!: Int32Array;
  // Spawn order as a doubly linked list, oldest first, for the 'recycle-oldest' policy.
  private older!: Int32Array;
  private newer!: Int32Array;

  private freeHead = NONE;
  private oldest = NONE;
  private newest = NONE;
  private liveCount = 0;
  private cap = 0;

  readonly policy: ExhaustionPolicy;
  readonly maxCapacity: number;

  /** Called when the pool grows, so indexes sized by capacity can follow. */
  onResize: ((capacity: number) => void) | null = null;
  /** Called before 'recycle-oldest' reuses a live entity's slot, so the world can clean up after it. */
  onEvict: ((handle: EntityHandle, index: number) => void) | null = null;

  constructor(options: EntityPoolOptions) {
    const capacity = Math.floor(options.capacity);
    super();
    this.maxCapacity = Math.min(options.maxCapacity ?? INDEX_LIMIT, INDEX_LIMIT);
    if (!(capacity >= 1 && capacity <= this.maxCapacity)) {
      throw new WorldError(`Pool capacity must be between 1 and ${this.maxCapacity}, got ${options.capacity}.`);
    }
    this.policy = options.policy ?? 'error';
    this.allocate(capacity);
  }

  get capacity(): number {
    return this.cap;
  }

  /** Number of live entities. */
  get count(): number {
    return this.liveCount;
  }

  /**
   * The packed live slots: entries 0 .. count-1 are valid. For hot loops; the
   * array is replaced when the pool grows and reordered on despawn.
   */
  get activeSlots(): Int32Array {
    return this.active;
  }

  /**
   * For each live slot, its index in activeSlots (entries of other slots
   * mean nothing). For hot loops; replaced when the pool grows.
   */
  get activePositions(): Int32Array {
    return this.link;
  }

  /** The slot of the i-th live entity, 0 <= i < count. Order changes when entities despawn. */
  activeAt(i: number): number {
    return this.active[i]!;
  }

  /** Take a free slot (zeroed hot fields) and return its handle. */
  spawn(): EntityHandle {
    if (this.freeHead === NONE) this.makeRoom();
    const index = this.freeHead;
    this.freeHead = decodeFree(this.link[index]!);
    this.link[index] = this.liveCount;
    this.active[this.liveCount++] = index;
    this.linkNewest(index);
    this.clearFields(index);
    return this.generation[index]! * INDEX_LIMIT + index;
  }

  /** Return an entity's slot to the free list. False (and no change) when the handle is stale. */
  despawn(handle: EntityHandle): boolean {
    const index = this.indexOf(handle);
    if (index === NONE) return false;
    this.release(index);
    return true;
  }

  /** The slot of a live entity, or -1 when the handle is stale or malformed. */
  indexOf(handle: EntityHandle): number {
    if (!(handle > 0 && handle <= Number.MAX_SAFE_INTEGER)) return NONE;
    const generation = Math.floor(handle * INVERSE_INDEX_LIMIT);
    const index = handle - generation * INDEX_LIMIT;
    // A fractional handle leaves a fractional index, which no slot matches.
    if (!(index < this.cap) || this.link[index]! < 0 || index !== Math.floor(index)) return NONE;
    return this.generation[index]! === generation ? index : NONE;
  }

  isAlive(handle: EntityHandle): boolean {
    return this.indexOf(handle) !== NONE;
  }

  /** True when the slot holds a live entity. */
  isLiveSlot(index: number): boolean {
    return index >= 0 && index < this.cap && this.link[index]! >= 0;
  }

  /** The current handle of a live slot. */
  handleAt(index: number): EntityHandle {
    return this.generation[index]! * INDEX_LIMIT + index;
  }

  /** The slot of the oldest live entity, or -1. */
  oldestIndex(): number {
    return this.oldest;
  }

  /** Despawn everything (generations still advance, so old handles stay stale). */
  clear(): void {
    while (this.liveCount > 0) this.release(this.active[this.liveCount - 1]!);
  }

  exportState(): EntityPoolState {
    const arrays = {} as Record<PoolArrayName, number[]>;
    for (const name of POOL_ARRAYS) arrays[name] = Array.from(this[name]);
    return {
      capacity: this.cap,
      count: this.liveCount,
      freeHead: this.freeHead,
      oldest: this.oldest,
      newest: this.newest,
      arrays,
    };
  }

  /** Rebuild a pool from exportState's data. Throws WorldError when the data is inconsistent. */
  static fromState(state: EntityPoolState, options: Omit<EntityPoolOptions, 'capacity'> = {}): EntityPool {
    const pool = new EntityPool({ ...options, capacity: state.capacity });
    for (const name of POOL_ARRAYS) {
      const values = state.arrays[name];
      if (!Array.isArray(values) || values.length !== state.capacity) {
        throw new WorldError(`Snapshot pool array '${name}' does not match the capacity.`);
      }
      // A typed array would turn "x" into NaN and 1e400 into Infinity, and a later step would carry them into the index.
      if (!values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        throw new WorldError(`Snapshot pool array '${name}' holds a value that is not a finite number.`);
      }
      pool[name].set(values);
    }
    pool.liveCount = state.count;
    pool.freeHead = state.freeHead;
    pool.oldest = state.oldest;
    pool.newest = state.newest;
    pool.checkLinks();
    return pool;
  }

  /**
   * A restored pool must be self-consistent — live list and links inverse, the free list and the
   * spawn-order list each visiting their slots once — or a later spawn or step corrupts the world
   * (tampered snapshots did; found by tests/fuzz/world-fuzz).
   */
  private checkLinks(): void {
    const bad = (what: string): never => {
      throw new WorldError(`Snapshot pool is inconsistent (${what}).`);
    };
    const isSlot = (slot: number): boolean => Number.isInteger(slot) && slot >= 0 && slot < this.cap;
    const count = this.liveCount;
    if (!(Number.isInteger(count) && count >= 0 && count <= this.cap)) bad('count');
    for (let slot = 0; slot < this.cap; slot++) {
      const generation = this.generation[slot]!;
      if (!(generation >= 1 && generation < GENERATION_LIMIT)) bad('generations');
    }
    for (let i = 0; i < count; i++) {
      const slot = this.active[i]!;
      if (!isSlot(slot) || this.link[slot] !== i) bad('live slots');
    }
    let free = 0;
    for (let slot = this.freeHead; slot !== NONE; slot = decodeFree(this.link[slot]!)) {
      if (!isSlot(slot) || this.link[slot]! >= 0 || ++free > this.cap - count) bad('free list');
    }
    if (free !== this.cap - count) bad('free list');
    let aged = 0;
    let previous = NONE;
    for (let slot = this.oldest; slot !== NONE; slot = this.newer[slot]!) {
      if (!isSlot(slot) || this.link[slot]! < 0 || this.older[slot] !== previous || ++aged > count) bad('spawn order');
      previous = slot;
    }
    if (aged !== count || previous !== this.newest) bad('spawn order');
  }

  private release(index: number): void {
    const pos = this.link[index]!;
    const last = this.active[--this.liveCount]!;
    this.active[pos] = last;
    this.link[last] = pos;
    this.unlinkAge(index);
    const next = this.generation[index]! + 1;
    this.generation[index] = next >= GENERATION_LIMIT ? 1 : next;
    this.link[index] = encodeFree(this.freeHead);
    this.freeHead = index;
  }

  private makeRoom(): void {
    if (this.policy === 'grow' && this.cap < this.maxCapacity) {
      this.allocate(Math.min(this.cap * 2, this.maxCapacity));
      this.onResize?.(this.cap);
      return;
    }
    if (this.policy === 'recycle-oldest' && this.oldest !== NONE) {
      const victim = this.oldest;
      this.onEvict?.(this.handleAt(victim), victim);
      // The evict hook may itself have despawned the victim; only release it if it is still live.
      if (this.link[victim]! >= 0) this.release(victim);
      return;
    }
    throw new WorldError(`Entity pool is full (capacity ${this.cap}).`);
  }

  private linkNewest(index: number): void {
    this.older[index] = this.newest;
    this.newer[index] = NONE;
    if (this.newest !== NONE) this.newer[this.newest] = index;
    else this.oldest = index;
    this.newest = index;
  }

  private unlinkAge(index: number): void {
    const o = this.older[index]!;
    const n = this.newer[index]!;
    if (o !== NONE) this.newer[o] = n;
    else this.oldest = n;
    if (n !== NONE) this.older[n] = o;
    else this.newest = o;
  }

  private clearFields(i: number): void {
    const columns = this.columns;
    for (let c = 0; c < columns.length; c++) columns[c]![i] = 0;
  }

  /** (Re)allocate every array at `capacity`, keeping existing contents; new slots join the free list in order. */
  private allocate(capacity: number): void {
    const old = this.cap;
    const fields = this as unknown as Record<string, Column>;
    this.columns = POOL_FIELDS.map((name, c) => (fields[name] = grow(fields[name]!, new POOL_FIELD_ARRAYS[c]!(capacity))));
    this.generation = grow(this.generation, new Uint32Array(capacity));
    this.link = grow(this.link, new Int32Array(capacity));
    this.active = grow(this.active, new Int32Array(capacity));
    this.older = grow(this.older, new Int32Array(capacity));
    this.newer = grow(this.newer, new Int32Array(capacity));
    // Thread the new slots onto the free list, lowest index first.
    for (let i = capacity - 1; i >= old; i--) {
      this.generation[i] = 1;
      this.link[i] = encodeFree(this.freeHead);
      this.freeHead = i;
    }
    this.cap = capacity;
  }
}

function grow<T extends Float64Array | Int32Array | Uint32Array>(from: T | undefined, to: T): T {
  if (from) (to as Float64Array).set(from as Float64Array);
  return to;
}
