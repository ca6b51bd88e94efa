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
 * the update. The engine is chosen by the index's kind:
 *   - 'grid' (GridSets, aoi-grid.ts): each observer keeps its set as sorted
 *     keys; a changed entity recomputes its own set from the cells under its
 *     range and is looked up in the sets of the observers near where it was
 *     and where it is; when most entities changed, every observer
 *     recomputes its set in one pass instead;
 *   - 'axis' (RangeTriggers, aoi-triggers.ts): KBEngine's range triggers —
 *     every observer has boundary nodes at x ± r and y ± r in sorted axis
 *     lists; a node that walks past another entity's boundary node makes the
 *     pair a candidate, confirmed on the other axis. The pairs are kept as a
 *     cross-linked matrix of edges (AoiPairs), and only the edges of changed
 *     entities are re-tested.
 * Notifications go through AoiOutbox, which delivers them in one canonical
 * order. Both engines are checked against brute force (runtime/aoi.test.ts).
 *
 * Sets hold identity keys, not slots, so a slot despawned and reused between
 * two updates reads as one entity leaving and another entering. Everything
 * lives in typed arrays reused from tick to tick: a steady world allocates
 * nothing here.
 */

import type { EntityPool } from '../entities/entity-pool.js';
import { GridSets, type GridFrame } from './aoi-grid.js';
import { AoiOutbox, ENTER, LEAVE, MOVE } from './aoi-outbox.js';
import { AoiPairs } from './aoi-pairs.js';
import { RangeTriggers } from './aoi-triggers.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';

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

export interface AoiOptions {
  /**
   * Report 'move' notifications (default true). Off, an update never looks
   * at the observers of a mover that stayed in range: the cheap path for a
   * game that reads positions itself.
   */
  readonly moveEvents?: boolean;
}

/** Saved sets, for world snapshots. */
export interface AoiState {
  readonly observers: readonly { readonly key: number; readonly seen: readonly number[] }[];
  readonly lastPositions: readonly (readonly [key: number, x: number, y: number])[];
}

/**
 * What the engines read: the positions and ranges of this update and the
 * last, and which slots changed in this update. Arrays are replaced when the
 * pool grows, so engines read them through this object each time.
 */
export interface AoiFrame {
  readonly pool: EntityPool;
  readonly shape: InterestShape;
  /** The number of the current update; `changedAt[slot] === epoch` marks a slot changed in it. */
  readonly epoch: number;
  readonly changedAt: Uint32Array;
  /** Spawned (or its slot reused) in this update: it had no pairs before. */
  readonly bornAt: Uint32Array;
  /** Position and range at the last update (for slots not changed in this one: their current ones). */
  readonly lastX: Float64Array;
  readonly lastY: Float64Array;
  readonly lastR: Float64Array;
  /** The interest range now, NaN and negatives read as 0 (observes nothing). */
  readonly range: Float64Array;
  /** True when the last update's pairs may not match the engine's structures (after a restore). */
  readonly rebuilding: boolean;
}

/**
 * The range-trigger engine (axis lists): keeps its structures in step with
 * the entities, says which pairs are kept (its band), and reports every
 * pair that may have come into the band in an update.
 */
export interface PairsEngine {
  grow(capacity: number): void;
  clear(): void;
  /** The entity in `slot` is gone (despawned, or the slot reused): drop its nodes. */
  remove(slot: number): void;
  /** Bring the structures of the changed slots to their current position and range. */
  place(changed: Int32Array, count: number): void;
  /** Whether the pair (o, s) is kept as an edge now (the band; never narrower than the interest shape). */
  keeps(o: number, s: number): boolean;
  /** True when keeps() is the interest test itself (no wider band): then inside() alone decides. */
  readonly bandIsShape: boolean;
  /** Call `consider(o, s)` for every pair that may have come into the kept set; run after place(). */
  collect(consider: (o: number, s: number) => void): void;
}

const NONE = -1;

export class AreaOfInterest implements GridFrame {
  readonly moveEvents: boolean;
  epoch = 0;
  changedAt: Uint32Array = new Uint32Array(0);
  bornAt: Uint32Array = new Uint32Array(0);
  lastX: Float64Array = new Float64Array(0);
  lastY: Float64Array = new Float64Array(0);
  lastR: Float64Array = new Float64Array(0);
  range: Float64Array = new Float64Array(0);
  rebuilding = false;

  /** The engine: observer sets on a grid, or range triggers and their pairs on axis lists. */
  private grid: GridSets | null = null;
  private triggers: PairsEngine | null = null;
  private pairs = new AoiPairs();
  private readonly outbox = new AoiOutbox();
  private readonly identity: AoiIdentity;
  /** The key of the entity a slot's state belongs to (0: none tracked). */
  owner: Float64Array = new Float64Array(0);
  /** The update in which a tracked entity (not a newborn) was last found away from its last position. */
  movedAt: Uint32Array = new Uint32Array(0);
  private tracked = 0;
  private changed: Int32Array = new Int32Array(64);
  private changedCount = 0;
  private gone: Int32Array = new Int32Array(64);
  /** The keys the gone slots' entities had. */
  private goneKeys: Float64Array = new Float64Array(64);
  private goneCount = 0;
  /**
   * Restored pairs whose subject no longer exists, flattened as observer key,
   * subject key, …: each becomes a leave at the next update, as it would have
   * without the restore.
   */
  private ghosts: number[] = [];
  private readonly consider = (o: number, s: number): void => this.considerPair(o, s);
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
    this.useEngineFor(index);
    this.fitCapacity(pool.capacity);
  }

  /** Use another index (e.g. after World.restore); keeps the observed sets. */
  setIndex(index: SpatialIndex): void {
    const state = this.exportState();
    this.index = index;
    this.useEngineFor(index);
    this.pairs.ensureSlots(this.owner.length);
    this.grid?.grow(this.owner.length);
    this.triggers?.grow(this.owner.length);
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
    const changed = this.changed;
    const count = this.changedCount;
    if (this.grid !== null) {
      // Most entities changed: every observer recomputes its set, cheaper than looking from both ends of each pair.
      const sweep = count * 3 > pool.count;
      this.grid.update(changed, count, this.gone, this.goneKeys, this.goneCount, sweep, this.outbox, emit);
    } else {
      const triggers = this.triggers!;
      this.dropGone(triggers);
      this.leaveGhosts();
      triggers.place(changed, count);
      for (let i = 0; i < count; i++) this.retest(changed[i]!);
      triggers.collect(this.consider);
      // Keep each observer's pairs contiguous, in the active order (gone slots' lists are dropped already).
      if (this.pairs.scattered) this.pairs.compact(pool.activeSlots, pool.count);
    }
    for (let i = 0; i < count; i++) {
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
    const slot = this.identity.slotOf(key);
    if (slot < 0 || slot >= this.owner.length || this.owner[slot] !== key) return [];
    if (this.grid !== null) return this.grid.observedBy(slot);
    const out: number[] = [];
    const p = this.pairs;
    for (let e = p.outHead[slot]!; e !== NONE; e = p.outNextOf(e)) if (p.seenOf(e) === 1) out.push(p.subKey[e]!);
    for (let i = 0; i < this.ghosts.length; i += 2) if (this.ghosts[i] === key) out.push(this.ghosts[i + 1]!);
    return out.sort((a, b) => a - b);
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
    // Build the engine's structures for the tracked entities, as one update in which they all appear.
    this.epoch++;
    this.changedCount = 0;
    for (let slot = 0; slot < this.owner.length; slot++) {
      if (this.owner[slot] === 0) continue;
      this.bornAt[slot] = this.epoch;
      this.changedAt[slot] = this.epoch;
      this.pushChanged(slot);
    }
    if (this.grid !== null) {
      this.grid.place(this.changed, this.changedCount);
      for (const { key, seen } of state.observers) {
        const o = this.identity.slotOf(key);
        if (o < 0 || o >= this.owner.length || this.owner[o] !== key) continue;
        // Subjects gone since are kept: the next update, a sweep, reports them leaving.
        this.grid.load(o, [...new Set(seen)].filter((k) => k !== key));
      }
      this.rebuilding = true;
      return;
    }
    const triggers = this.triggers!;
    triggers.place(this.changed, this.changedCount);
    const keep = (o: number, s: number): void => {
      if (o === s || this.owner[o] === 0 || this.owner[s] === 0) return;
      if (triggers.keeps(o, s) && this.pairs.find(o, s) === NONE) this.pairs.add(o, s, this.owner[s]!);
    };
    triggers.collect(keep);
    for (const { key, seen } of state.observers) {
      const o = this.identity.slotOf(key);
      if (o < 0 || o >= this.owner.length || this.owner[o] !== key) continue;
      for (const subjectKey of seen) {
        const s = this.identity.slotOf(subjectKey);
        if (s < 0 || s === o || this.owner[s] !== subjectKey) {
          if (subjectKey !== key) this.ghosts.push(key, subjectKey);
          continue;
        }
        let e = this.pairs.find(o, s);
        if (e === NONE) e = this.pairs.add(o, s, subjectKey);
        this.pairs.setSeen(e, 1);
      }
    }
    this.rebuilding = true;
  }

  /** Forget everything: the next update reports every pair as entering. */
  reset(): void {
    this.pairs.clear();
    this.grid?.clear();
    this.triggers?.clear();
    this.owner.fill(0);
    this.ghosts.length = 0;
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
    if (this.grid !== null ? this.grid.sets.total !== 0 : this.pairs.size !== 0 || this.ghosts.length !== 0) return false;
    const { interest, activeSlots } = this.pool;
    const n = this.pool.count;
    for (let i = 0; i < n; i++) if (interest[activeSlots[i]!]! > 0) return false;
    return true;
  }

  private useEngineFor(index: SpatialIndex): void {
    this.grid = index.kind === 'axis' ? null : new GridSets(this, index);
    this.triggers = index.kind === 'axis' ? new RangeTriggers(this, index) : null;
    this.pairs = new AoiPairs();
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

  /**
   * Drop the pairs of entities that are gone: what they observed goes
   * silently (a despawned observer is told nothing), and each observer that
   * saw them gets a leave.
   */
  private dropGone(triggers: PairsEngine): void {
    const p = this.pairs;
    // What the gone observed first, so that no leave below is addressed to a gone observer.
    for (let i = 0; i < this.goneCount; i++) {
      const slot = this.gone[i]!;
      for (let e = p.outHead[slot]!; e !== NONE; ) {
        const next = p.outNextOf(e);
        p.remove(e);
        e = next;
      }
    }
    for (let i = 0; i < this.goneCount; i++) {
      const slot = this.gone[i]!;
      for (let e = p.inHead[slot]!; e !== NONE; ) {
        const next = p.inNextOf(e);
        if (p.seenOf(e) === 1) this.outbox.push(p.obsOf(e), p.subKey[e]!, LEAVE);
        p.remove(e);
        e = next;
      }
      triggers.remove(slot);
    }
  }

  /** Leaves for restored pairs whose subject was already gone, to observers still there. */
  private leaveGhosts(): void {
    const ghosts = this.ghosts;
    for (let i = 0; i < ghosts.length; i += 2) {
      const o = this.identity.slotOf(ghosts[i]!);
      if (o >= 0 && o < this.owner.length && this.owner[o] === ghosts[i] && this.bornAt[o] !== this.epoch) {
        this.outbox.push(o, ghosts[i + 1]!, LEAVE);
      }
    }
    ghosts.length = 0;
  }

  /**
   * Re-test every pair a changed entity takes part in, as observer and as
   * subject; an observer that still sees it after it moved gets a move.
   */
  private retest(slot: number): void {
    const p = this.pairs;
    for (let e = p.outHead[slot]!; e !== NONE; ) {
      const next = p.outNextOf(e);
      this.retestEdge(e);
      e = next;
    }
    const moved = this.moveEvents && this.movedSinceLast(slot);
    for (let e = p.inHead[slot]!; e !== NONE; ) {
      const next = p.inNextOf(e);
      if (this.retestEdge(e) && moved) this.outbox.push(p.obsOf(e), p.subKey[e]!, MOVE);
      e = next;
    }
  }

  /** Re-test one kept pair; true when its subject stays seen since the last update (the pair a move is about). */
  private retestEdge(e: number): boolean {
    const p = this.pairs;
    const o = p.obsOf(e);
    const s = p.subOf(e);
    // The band is never narrower than the shape: inside() first answers both questions in the common case.
    const now = this.inside(o, s) ? 1 : 0;
    if (now === 0 && !this.triggers!.keeps(o, s)) {
      if (p.seenOf(e) === 1) this.outbox.push(o, p.subKey[e]!, LEAVE);
      p.remove(e);
      return false;
    }
    if (now !== p.seenOf(e)) {
      p.setSeen(e, now);
      if (now === 1) p.setEntered(e, this.epoch);
      this.outbox.push(o, p.subKey[e]!, now === 1 ? ENTER : LEAVE);
    }
    return now === 1 && p.enteredOf(e) !== this.epoch;
  }

  /** Not new in this update, and not where it was at the last one. */
  private movedSinceLast(slot: number): boolean {
    return this.movedAt[slot] === this.epoch;
  }

  /** A pair the engine found: keep it if it is in the band and not kept yet. */
  private considerPair(o: number, s: number): void {
    // An id in the index the pool does not hold live (owner 0) is no subject.
    if (o === s || this.owner[s] === 0 || !this.triggers!.keeps(o, s) || this.pairs.find(o, s) !== NONE) return;
    const e = this.pairs.add(o, s, this.owner[s]!);
    if (this.inside(o, s)) {
      this.pairs.setSeen(e, 1);
      this.pairs.setEntered(e, this.epoch);
      this.outbox.push(o, this.owner[s]!, ENTER);
    }
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
    this.pairs.ensureSlots(capacity);
    this.outbox.ensureSlots(capacity);
    this.grid?.grow(capacity);
    this.triggers?.grow(capacity);
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
