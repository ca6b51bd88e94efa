/**
 * Area of interest: each entity with an interest range r > 0 observes the
 * other entities inside it. Once per tick `update` reports what changed
 * since the last update:
 *   - enter: in the observer's set now, not at the last update;
 *   - leave: in it at the last update, not now (it moved away, or despawned);
 *   - move:  in both, and its position changed since the last update.
 *
 * Shapes, both inclusive: 'square' is |dx| ≤ r and |dy| ≤ r (what the
 * cross-linked-list technique computes natively); 'circle' is dx² + dy² ≤ r².
 *
 * Cost follows change, not size. An update first finds what changed (one
 * pass of comparisons over the packed positions: spawned, despawned, moved,
 * range changed); an entity that did not change and whose neighbours did
 * not change costs nothing more, and a world where nobody observes skips
 * the update.
 *
 * This file is the facade: it finds what changed (spawned, despawned,
 * moved, range changed), keeps each slot's last position and range, and
 * drives one engine (aoi-engine.ts is the contract; aoi-engines.ts names
 * them: 'grid' and 'triggers'), which turns the changes into news. News
 * goes through AoiOutbox, which delivers it in one canonical order, so
 * every engine reports the same events; each is checked against brute
 * force (aoi.test.ts).
 *
 * Sets hold identity keys, not slots, so a slot despawned and reused between
 * two updates reads as one entity leaving and another entering. Everything
 * lives in typed arrays reused from tick to tick: a steady world allocates
 * nothing here.
 */

import type { EntityPool } from '../entities/entity-pool.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';
import type { AoiChanges, AoiEngine, AoiFrame, AoiListener, InterestShape, SavedObserver } from './aoi-engine.js';
import { AOI_ENGINES, defaultAoiEngine, type AoiEngineName } from './aoi-engines.js';
import { AoiOutbox } from './aoi-outbox.js';

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

export interface AoiOptions {
  /**
   * Report 'move' notifications (default true). Off, an update never looks
   * at the observers of a mover that stayed in range: the cheap path for a
   * game that reads positions itself.
   */
  readonly moveEvents?: boolean;
  /** The engine (aoi-engines.ts). Default: 'triggers' over an axis-list index, 'grid' over a grid. */
  readonly engine?: AoiEngineName;
}

/** Saved sets, for world snapshots. */
export interface AoiState {
  readonly observers: readonly { readonly key: number; readonly seen: readonly number[] }[];
  readonly lastPositions: readonly (readonly [key: number, x: number, y: number])[];
}

const NONE = -1;

export class AreaOfInterest implements AoiFrame, AoiChanges {
  readonly moveEvents: boolean;
  /** The engine's name (aoi-engines.ts). */
  readonly engineName: AoiEngineName;
  epoch = 0;
  changedAt: Uint32Array = new Uint32Array(0);
  bornAt: Uint32Array = new Uint32Array(0);
  lastX: Float64Array = new Float64Array(0);
  lastY: Float64Array = new Float64Array(0);
  lastR: Float64Array = new Float64Array(0);
  range: Float64Array = new Float64Array(0);
  rebuilding = false;
  /** The key of the entity a slot's state belongs to (0: none tracked). */
  owner: Float64Array = new Float64Array(0);
  /** The update in which a tracked entity (not a newborn) was last found away from its last position. */
  movedAt: Uint32Array = new Uint32Array(0);
  /** What changed in the current update (AoiChanges, as the engine reads it). */
  changed: Int32Array = new Int32Array(64);
  changedCount = 0;
  gone: Int32Array = new Int32Array(64);
  /** The keys the gone slots' entities had. */
  goneKeys: Float64Array = new Float64Array(64);
  goneCount = 0;

  private engine: AoiEngine;
  private readonly outbox = new AoiOutbox();
  private readonly identity: AoiIdentity;
  private tracked = 0;
  private readonly ownerKey = (slot: number): number => this.owner[slot]!;

  constructor(
    readonly pool: EntityPool,
    private index: SpatialIndex,
    readonly shape: InterestShape = 'square',
    identity?: AoiIdentity,
    options: AoiOptions = {},
  ) {
    this.identity = identity ?? { keyOf: (slot) => pool.handleAt(slot), slotOf: (key) => pool.indexOf(key) };
    this.moveEvents = options.moveEvents ?? true;
    this.engineName = options.engine ?? defaultAoiEngine(index.kind);
    this.engine = AOI_ENGINES[this.engineName](this, index);
    this.fitCapacity(pool.capacity);
  }

  /** Use another index (e.g. after World.restore); keeps the observed sets. */
  setIndex(index: SpatialIndex): void {
    const state = this.exportState();
    this.index = index;
    this.engine = AOI_ENGINES[this.engineName](this, index);
    this.engine.grow(this.owner.length);
    this.importState(state);
  }

  /** Find what changed since the last update and emit the differences. */
  update(emit: AoiListener): void {
    const pool = this.pool;
    if (this.idle()) return;
    this.fitCapacity(pool.capacity);
    this.epoch++;
    this.outbox.begin(this.epoch);
    this.scan();
    this.engine.update(this, this.outbox, emit);
    const changed = this.changed;
    for (let i = 0; i < this.changedCount; i++) {
      const slot = changed[i]!;
      this.lastX[slot] = pool.x[slot]!;
      this.lastY[slot] = pool.y[slot]!;
      this.lastR[slot] = this.range[slot]!;
    }
    this.rebuilding = false;
    this.outbox.deliver(pool.activeSlots, pool.count, pool.activePositions, this.ownerKey, emit);
  }

  /** The keys an observer saw at the last update, ascending (a copy, for tests and tools). */
  observedBy(key: number): number[] {
    const slot = this.slotOfKey(key);
    return slot < 0 ? [] : this.engine.observedBy(slot);
  }

  /** The slot of the tracked entity whose key this is, or -1. */
  slotOfKey(key: number): number {
    const slot = this.identity.slotOf(key);
    return slot < 0 || slot >= this.owner.length || this.owner[slot] !== key ? -1 : slot;
  }

  /** The observed sets and last positions of the entities tracked at the last update, as plain data. */
  exportState(): AoiState {
    const observers: { key: number; seen: number[] }[] = [];
    const lastPositions: [number, number, number][] = [];
    for (let i = 0; i < this.pool.count; i++) {
      const slot = this.pool.activeAt(i);
      const key = this.identity.keyOf(slot);
      if (slot >= this.owner.length || this.owner[slot] !== key) continue;
      const seen = this.observedBy(key);
      if (seen.length > 0) observers.push({ key, seen });
      lastPositions.push([key, this.lastX[slot]!, this.lastY[slot]!]);
    }
    return { observers, lastPositions };
  }

  /**
   * Load sets saved by exportState (the pool already restored). The
   * structures are rebuilt at the current positions, and the next update
   * re-tests every entity once against the saved sets.
   */
  importState(state: AoiState): void {
    this.reset();
    this.fitCapacity(this.pool.capacity);
    const pool = this.pool;
    for (const [key, x, y] of state.lastPositions) {
      const slot = this.identity.slotOf(key);
      if (slot < 0 || slot >= this.owner.length || this.owner[slot] !== 0) continue;
      this.owner[slot] = key;
      this.tracked++;
      this.lastX[slot] = x;
      this.lastY[slot] = y;
      this.lastR[slot] = this.range[slot] = rangeOf(pool.interest[slot]!);
    }
    // The engine builds its structures for the tracked entities as if they all appeared in one update.
    this.epoch++;
    this.changedCount = 0;
    this.goneCount = 0;
    for (let slot = 0; slot < this.owner.length; slot++) {
      if (this.owner[slot] === 0) continue;
      this.bornAt[slot] = this.epoch;
      this.changedAt[slot] = this.epoch;
      this.pushChanged(slot);
    }
    const observers: SavedObserver[] = [];
    for (const { key, seen } of state.observers) {
      const slot = this.slotOfKey(key);
      if (slot >= 0) observers.push({ slot, key, seen });
    }
    this.engine.restore(this, observers);
    this.rebuilding = true;
  }

  /** Forget everything: the next update reports every pair as entering. */
  reset(): void {
    this.engine.clear();
    this.owner.fill(0);
    this.tracked = 0;
    this.rebuilding = false;
  }

  /**
   * Nobody observes anything and nobody is set to: the update could only
   * report nothing, so it is skipped (a world without interest ranges pays
   * one read per entity). The structures stay as the last real update left
   * them; the next one finds everything that changed since, as it would
   * after any tick (no pair exists whose move or leave could be lost).
   */
  private idle(): boolean {
    if (!this.engine.holdsNothing) return false;
    const { interest, activeSlots } = this.pool;
    const n = this.pool.count;
    for (let i = 0; i < n; i++) if (interest[activeSlots[i]!]! > 0) return false;
    return true;
  }

  /**
   * One pass over the live slots: what spawned (its slot's owner differs),
   * moved or changed range. Entities tracked but not met are gone.
   */
  private scan(): void {
    const pool = this.pool;
    const { x, y, interest } = pool;
    const active = pool.activeSlots;
    const n = pool.count;
    const epoch = this.epoch;
    const all = this.rebuilding;
    this.changedCount = 0;
    this.goneCount = 0;
    let met = 0;
    for (let i = 0; i < n; i++) {
      const slot = active[i]!;
      const key = this.identity.keyOf(slot);
      const r = rangeOf(interest[slot]!);
      this.range[slot] = r;
      if (this.owner[slot] === key) {
        met++;
        const moved = x[slot] !== this.lastX[slot] || y[slot] !== this.lastY[slot];
        if (moved) this.movedAt[slot] = epoch;
        if (all || moved || r !== this.lastR[slot]) {
          this.changedAt[slot] = epoch;
          this.pushChanged(slot);
        }
        continue;
      }
      if (this.owner[slot] !== 0) this.pushGone(slot, this.owner[slot]!);
      this.owner[slot] = key;
      this.bornAt[slot] = epoch;
      this.changedAt[slot] = epoch;
      this.pushChanged(slot);
    }
    if (met + this.goneCount < this.tracked) {
      for (let slot = 0; slot < this.owner.length; slot++) {
        // Tracked, and not live: every live slot was met above.
        if (this.owner[slot] !== 0 && !pool.isLiveSlot(slot)) {
          this.pushGone(slot, this.owner[slot]!);
          this.owner[slot] = 0;
        }
      }
    }
    // Every live slot is tracked from here on.
    this.tracked = n;
  }

  /** The interest test itself, computed exactly as brute force does. */
  inside(o: number, s: number): boolean {
    return this.insideFrom(o, this.pool.x[s]!, this.pool.y[s]!);
  }

  /** The interest test for a subject at (sx, sy). */
  insideFrom(o: number, sx: number, sy: number): boolean {
    const r = this.range[o]!;
    if (!(r > 0)) return false;
    const dx = sx - this.pool.x[o]!;
    const dy = sy - this.pool.y[o]!;
    return this.shape === 'circle' ? dx * dx + dy * dy <= r * r : Math.abs(dx) <= r && Math.abs(dy) <= r;
  }

  private pushChanged(slot: number): void {
    if (this.changedCount === this.changed.length) this.changed = grow32(this.changed);
    this.changed[this.changedCount++] = slot;
  }

  private pushGone(slot: number, key: number): void {
    if (this.goneCount === this.gone.length) {
      this.gone = grow32(this.gone);
      const keys = new Float64Array(this.gone.length);
      keys.set(this.goneKeys);
      this.goneKeys = keys;
    }
    this.goneKeys[this.goneCount] = key;
    this.gone[this.goneCount++] = slot;
  }

  private fitCapacity(capacity: number): void {
    if (this.owner.length >= capacity) return;
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    const u32 = (a: Uint32Array): Uint32Array => {
      const b = new Uint32Array(capacity);
      b.set(a);
      return b;
    };
    this.owner = f64(this.owner);
    this.lastX = f64(this.lastX);
    this.lastY = f64(this.lastY);
    this.lastR = f64(this.lastR);
    this.range = f64(this.range);
    this.changedAt = u32(this.changedAt);
    this.bornAt = u32(this.bornAt);
    this.movedAt = u32(this.movedAt);
    this.outbox.ensureSlots(capacity);
    this.engine.grow(capacity);
  }
}

/** An interest value as a range: NaN, negatives and 0 observe nothing. */
function rangeOf(v: number): number {
  return v > 0 ? v : 0;
}

function grow32(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
