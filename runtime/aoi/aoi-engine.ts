/**
 * The contract between the area of interest (aoi.ts, the facade) and its
 * engines. The facade finds what changed since the last update — which
 * slots spawned, moved, changed range or went — and keeps each slot's last
 * position and range; an engine turns those changes into enter / move /
 * leave news. An engine is one file that implements AoiEngine, registered
 * under its name in aoi-engines.ts (the `aoi` world option names it).
 */

import type { EntityPool } from '../entities/entity-pool.js';
import type { AoiEventKind } from '../events/events.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';
import type { AoiOutbox } from './aoi-outbox.js';

export type InterestShape = 'square' | 'circle';

/** Receives each notification (as identity keys); called synchronously inside `update`. */
export type AoiListener = (kind: AoiEventKind, observer: number, subject: number) => void;

/**
 * What the engines read of the area of interest: the positions and ranges
 * of this update and the last, and which slots changed in this update.
 * Arrays are replaced when the pool grows, so engines read them through
 * this object each time.
 */
export interface AoiFrame {
  readonly pool: EntityPool;
  readonly shape: InterestShape;
  /** The number of the current update; `changedAt[slot] === epoch` marks a slot changed in it. */
  readonly epoch: number;
  readonly changedAt: Uint32Array;
  /** Spawned (or its slot reused) in this update: it had no pairs before. */
  readonly bornAt: Uint32Array;
  /** `movedAt[slot] === epoch`: a tracked entity found away from its last position in this update. */
  readonly movedAt: Uint32Array;
  /** Position and range at the last update (for slots not changed in this one: their current ones). */
  readonly lastX: Float64Array;
  readonly lastY: Float64Array;
  readonly lastR: Float64Array;
  /** The interest range now, NaN and negatives read as 0 (observes nothing). */
  readonly range: Float64Array;
  /** The identity key of the live entity in each slot (0: none). */
  readonly owner: Float64Array;
  /** True when the last update's pairs may not match the engine's structures (after a restore). */
  readonly rebuilding: boolean;
  /** Report 'move' news (off: an engine never looks at the observers of a mover that stayed in range). */
  readonly moveEvents: boolean;
  /** The slot of the tracked entity whose key this is, or -1 (not live, or not tracked yet). */
  slotOfKey(key: number): number;
  /** The interest test itself (observer slot o, subject slot s), computed exactly as brute force does. */
  inside(o: number, s: number): boolean;
  /** inside(), for a subject at (sx, sy). */
  insideFrom(o: number, sx: number, sy: number): boolean;
}

/** What changed in one update, as the facade found it. */
export interface AoiChanges {
  /** The slots spawned, moved or whose range changed (`changedCount` of them). */
  readonly changed: Int32Array;
  readonly changedCount: number;
  /** The slots whose entity is gone (`goneCount` of them), with the keys those entities had; lastX / lastY still hold where they were. */
  readonly gone: Int32Array;
  readonly goneKeys: Float64Array;
  readonly goneCount: number;
}

/** An observer's set as a snapshot saved it (aoi.ts resolved its slot; subjects may be gone since). */
export interface SavedObserver {
  readonly slot: number;
  readonly key: number;
  readonly seen: readonly number[];
}

export interface AoiEngine {
  /** Make room for slots below `capacity`. */
  grow(capacity: number): void;
  /** Forget every set and structure. */
  clear(): void;
  /** True when no observer holds anything (and no news is pending): with no interest ranges either, an update is skipped. */
  readonly holdsNothing: boolean;
  /**
   * One update: bring the structures to the frame's current positions and
   * ranges, and put the news in `outbox` (or, when it is already in delivery
   * order, straight to `emit`).
   */
  update(changes: AoiChanges, outbox: AoiOutbox, emit: AoiListener): void;
  /** The keys `slot` observed at the last update, ascending (a copy). */
  observedBy(slot: number): number[];
  /**
   * Build the structures for the slots in `placed` (every tracked entity,
   * at its current position) and load the saved sets; the next update
   * re-tests them (`rebuilding`) and reports what changed.
   */
  restore(placed: AoiChanges, observers: readonly SavedObserver[]): void;
}

/** Builds an engine over a frame; `index` is the world's spatial index (an engine may take its cell size). */
export type AoiEngineFactory = (frame: AoiFrame, index: SpatialIndex) => AoiEngine;
