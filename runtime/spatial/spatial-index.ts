/**
 * The Spatial Partition pattern: one interface, two implementations
 * (a uniform grid and sorted axis lists), both checked against brute force.
 *
 * Ids are small non-negative integers (entity pool slots). Every bound is
 * inclusive: a point exactly `r` away is within radius `r`; a point on a
 * rectangle's edge is inside it. The per-tick calls allocate nothing:
 * results are delivered to callbacks the caller creates once, or written
 * into an array the caller owns.
 */

export type SpatialVisitor = (id: number) => void;
export type PairVisitor = (a: number, b: number) => void;
export type SpatialFilter = (id: number) => boolean;

export type PartitionKind = 'grid' | 'axis';

export interface SpatialIndex {
  readonly kind: PartitionKind;
  /** Number of ids in the index. */
  readonly count: number;
  /** Make room for ids below `capacity` (the pool grew). */
  ensureCapacity(capacity: number): void;
  has(id: number): boolean;
  insert(id: number, x: number, y: number): void;
  remove(id: number): void;
  /** Change an id's position; cheap when the move is small. */
  move(id: number, x: number, y: number): void;
  clear(): void;
  xOf(id: number): number;
  yOf(id: number): number;
  /** Every id with (x-px)² + (y-py)² ≤ r². */
  forEachInRadius(px: number, py: number, r: number, visit: SpatialVisitor): void;
  /** Same set as forEachInRadius around id's own position (id itself included); may start the search at the id. */
  forEachNear(id: number, r: number, visit: SpatialVisitor): void;
  /** Every id with minX ≤ x ≤ maxX and minY ≤ y ≤ maxY. */
  forEachInRect(minX: number, minY: number, maxX: number, maxY: number, visit: SpatialVisitor): void;
  /**
   * The id closest to (px, py) within maxR that `accept` accepts (and is not `exclude`);
   * ties go to the lowest id. -1 when there is none.
   */
  nearest(px: number, py: number, maxR: number, accept?: SpatialFilter | null, exclude?: number): number;
  /** Every unordered pair {a, b} (a ≠ b) with distance ≤ maxDist, once each — the book's handleMelee. */
  forEachPair(maxDist: number, visit: PairVisitor): void;
  /** forEachInRadius into `out` (cleared first); returns the count. */
  queryRadius(px: number, py: number, r: number, out: number[]): number;
  /**
   * The work of the last forEachInRadius, forEachNear, forEachInRect, nearest or queryRadius:
   * cells (grid) or list nodes (axis lists) it stepped through plus entities it looked at.
   * Spell-facing queries charge this as fuel (docs/security.md: queries charge for what they visit).
   */
  readonly lastQueryVisits: number;
}

/**
 * A position an index cannot order: NaN or ±Infinity. Raised by insert and
 * move, so a bad value is caught where it enters instead of silently
 * becoming another place (NaN as 0, ∞ as a far border) that queries then return.
 */
export class SpatialIndexError extends RangeError {
  override readonly name = 'SpatialIndexError';
  constructor(
    message: string,
    /** The id the call was about. */
    readonly id: number,
  ) {
    super(message);
  }
}

/** Throws SpatialIndexError unless both coordinates are finite numbers. */
export function checkPosition(id: number, x: number, y: number): void {
  if (Number.isFinite(x) && Number.isFinite(y)) return;
  throw new SpatialIndexError(`Spatial index id ${id}: position (${String(x)}, ${String(y)}) must be finite numbers.`, id);
}

/**
 * Widening for candidate ranges. The exact test is dx² + dy² ≤ r², whose
 * rounding (and underflow, for tiny dx) can accept a point a hair beyond
 * px + r; searching a slightly wider range keeps the answer exact.
 */
export function slackFor(p: number, r: number): number {
  return (Math.abs(p) + r) * 1e-12 + 1e-150;
}

/** Shared storage of positions and the collector behind queryRadius. */
export abstract class PositionStore {
  protected xs: Float64Array;
  protected ys: Float64Array;
  protected present: Uint8Array;
  protected size = 0;
  /** See SpatialIndex.lastQueryVisits; each query sets it once, at its end. */
  protected visits = 0;
  private collectInto: number[] = [];
  private readonly collect = (id: number): void => {
    this.collectInto.push(id);
  };

  constructor(capacity: number) {
    this.xs = new Float64Array(capacity);
    this.ys = new Float64Array(capacity);
    this.present = new Uint8Array(capacity);
  }

  get count(): number {
    return this.size;
  }

  get lastQueryVisits(): number {
    return this.visits;
  }

  has(id: number): boolean {
    return id >= 0 && id < this.present.length && this.present[id] === 1;
  }

  xOf(id: number): number {
    return this.xs[id]!;
  }

  yOf(id: number): number {
    return this.ys[id]!;
  }

  abstract forEachInRadius(px: number, py: number, r: number, visit: SpatialVisitor): void;

  queryRadius(px: number, py: number, r: number, out: number[]): number {
    out.length = 0;
    this.collectInto = out;
    this.forEachInRadius(px, py, r, this.collect);
    return out.length;
  }

  protected growStore(capacity: number): void {
    if (capacity <= this.xs.length) return;
    this.xs = copyInto(this.xs, new Float64Array(capacity));
    this.ys = copyInto(this.ys, new Float64Array(capacity));
    this.present = copyInto(this.present, new Uint8Array(capacity));
  }

  protected checkId(id: number, wantPresent: boolean): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.present.length) {
      throw new SpatialIndexError(`Spatial index id ${id} is out of range.`, id);
    }
    if ((this.present[id] === 1) !== wantPresent) {
      throw new SpatialIndexError(`Spatial index id ${id} is ${wantPresent ? 'not' : 'already'} in the index.`, id);
    }
  }
}

export function copyInto<T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T {
  (to as Float64Array).set(from as Float64Array);
  return to;
}

/** Brute force over a list of ids: the reference both indexes are tested against. */
export function bruteForceInRadius(
  ids: readonly number[],
  xOf: (id: number) => number,
  yOf: (id: number) => number,
  px: number,
  py: number,
  r: number,
): number[] {
  return ids.filter((id) => {
    const dx = xOf(id) - px;
    const dy = yOf(id) - py;
    return dx * dx + dy * dy <= r * r;
  });
}
