/**
 * The grid engine of the area of interest: the pairs it keeps are exactly
 * the observed ones, and a changed entity finds its new pairs by looking at
 * cells near it only —
 *   - as an observer: the cells of the world's grid under its range;
 *   - as a subject: the observers whose ranges reach it. Observers are kept
 *     in small grids of their own, one per range class (ranges up to
 *     cell·2^k go in a grid of cell size cell·2^k), so whatever the mix of
 *     ranges, a subject looks at no more than 3 × 3 cells per class.
 * Entities that did not change are never looked at.
 */

import type { AoiFrame, InterestEngine } from './aoi.js';

type MoverEngine = InterestEngine & { readonly candidates: 'mover' };
import { GridIndex } from './grid-index.js';
import { slackFor, type SpatialIndex, type SpatialVisitor } from './spatial-index.js';

const NONE = -1;
/** Range classes: cell · 2^0 … cell · 2^(CLASSES-2), then one for anything larger (even infinite). */
const CLASSES = 32;

export class GridInterest implements MoverEngine {
  readonly candidates = 'mover' as const;
  readonly bandIsShape = true;
  private readonly cell: number;
  private readonly width: number;
  private readonly height: number;
  private readonly classes: (GridIndex | null)[] = new Array<GridIndex | null>(CLASSES).fill(null);
  private classOf: Int8Array = new Int8Array(0);
  private capacity = 0;
  /** What subjectsOf() found. */
  found: Int32Array = new Int32Array(64);
  // The pair being looked for, read by the visitors (created once).
  private current = 0;
  private consider: (o: number, s: number) => void = () => {};
  private readonly visitSubject: SpatialVisitor = (s) => {
    if (s !== this.current) this.consider(this.current, s);
  };
  private readonly visitObserver: SpatialVisitor = (o) => {
    if (o !== this.current) this.consider(o, this.current);
  };
  private readonly visitBoth: SpatialVisitor = (e) => {
    const c = this.current;
    if (e === c) return;
    const range = this.frame.range;
    if (range[c]! > 0) this.consider(c, e);
    if (range[e]! > 0) this.consider(e, c);
  };

  constructor(
    private readonly frame: AoiFrame & { inside(o: number, s: number): boolean },
    private readonly index: SpatialIndex,
  ) {
    // The observer grids cover the world's grid when there is one; anything outside lands in border cells (still exact).
    const grid = index instanceof GridIndex ? index : null;
    this.cell = grid?.cellSize ?? 8;
    this.width = grid ? grid.cols * grid.cellSize : 1024;
    this.height = grid ? grid.rows * grid.cellSize : 1024;
  }

  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    const classOf = new Int8Array(capacity).fill(NONE);
    classOf.set(this.classOf);
    this.classOf = classOf;
    this.capacity = capacity;
    for (const g of this.classes) g?.ensureCapacity(capacity);
  }

  clear(): void {
    for (const g of this.classes) g?.clear();
    this.classOf.fill(NONE);
  }

  remove(slot: number): void {
    const k = this.classOf[slot]!;
    if (k === NONE) return;
    this.classes[k]!.remove(slot);
    this.classOf[slot] = NONE;
  }

  place(changed: Int32Array, count: number): void {
    const { x, y } = this.frame.pool;
    const range = this.frame.range;
    for (let i = 0; i < count; i++) {
      const slot = changed[i]!;
      const r = range[slot]!;
      const k = r > 0 ? this.classFor(r) : NONE;
      const was = this.classOf[slot]!;
      if (was === k) {
        if (k !== NONE) this.classes[k]!.move(slot, x[slot]!, y[slot]!);
        continue;
      }
      if (was !== NONE) this.classes[was]!.remove(slot);
      if (k !== NONE) this.grid(k).insert(slot, x[slot]!, y[slot]!);
      this.classOf[slot] = k;
    }
  }

  collectFor(slot: number, consider: (o: number, s: number) => void, observerOnly: boolean): void {
    this.consider = consider;
    this.current = slot;
    const px = this.frame.pool.x[slot]!;
    const py = this.frame.pool.y[slot]!;
    const r = this.frame.range[slot]!;
    if (observerOnly) {
      if (r > 0) this.look(this.index, px, py, r, this.visitSubject);
      return;
    }
    const widest = this.widestClass();
    if (widest !== NONE && this.reachOf(widest) <= 2 * Math.max(r, this.cell)) {
      // Ranges alike (the common case): one look at the cells around the mover serves both directions.
      this.look(this.index, px, py, Math.max(r, this.reachOf(widest)), this.visitBoth);
      return;
    }
    if (r > 0) this.look(this.index, px, py, r, this.visitSubject);
    for (let k = 0; k <= widest; k++) {
      const g = this.classes[k];
      if (g && g.count > 0) this.look(g, px, py, this.reachOf(k), this.visitObserver);
    }
  }

  /**
   * The ids within `slot`'s range (a hair wider on both axes), written into
   * `found`: the same candidates collectFor(slot, …, true) visits, without a
   * call per id. Returns how many, or -1 when the index cannot list them
   * this way (then use collectFor).
   */
  subjectsOf(slot: number): number {
    const grid = this.index instanceof GridIndex ? this.index : null;
    const r = this.frame.range[slot]!;
    if (grid === null || !(r > 0)) return -1;
    return this.idsAround(grid, slot, r);
  }

  /**
   * For a changed entity when ranges are alike (collectFor's one-look case):
   * the ids around it that may pair with it either way, written into
   * `found`. Returns how many, or -1 when collectFor must be used instead.
   */
  neighboursOf(slot: number): number {
    const grid = this.index instanceof GridIndex ? this.index : null;
    if (grid === null) return -1;
    const r = this.frame.range[slot]!;
    const widest = this.widestClass();
    if (widest === NONE || !(this.reachOf(widest) <= 2 * Math.max(r, this.cell))) return -1;
    return this.idsAround(grid, slot, Math.max(r, this.reachOf(widest)));
  }

  private idsAround(grid: GridIndex, slot: number, reach: number): number {
    const px = this.frame.pool.x[slot]!;
    const py = this.frame.pool.y[slot]!;
    const sx = reach + slackFor(px, reach);
    const sy = reach + slackFor(py, reach);
    let count = grid.idsInRect(px - sx, py - sy, px + sx, py + sy, this.found);
    while (count < 0) {
      this.found = new Int32Array(this.found.length * 2);
      count = grid.idsInRect(px - sx, py - sy, px + sx, py + sy, this.found);
    }
    return count;
  }

  /** Every id within `reach` of (px, py) on both axes (a hair wider, so rounding never loses one). */
  private look(index: SpatialIndex, px: number, py: number, reach: number, visit: SpatialVisitor): void {
    const sx = reach + slackFor(px, reach);
    const sy = reach + slackFor(py, reach);
    index.forEachInRect(px - sx, py - sy, px + sx, py + sy, visit);
  }

  /** The widest non-empty range class, or -1 when nobody observes. */
  private widestClass(): number {
    for (let k = CLASSES - 1; k >= 0; k--) {
      const g = this.classes[k];
      if (g && g.count > 0) return k;
    }
    return NONE;
  }

  keeps(o: number, s: number): boolean {
    return this.frame.inside(o, s);
  }

  /** The smallest class whose reach covers r. */
  private classFor(r: number): number {
    let k = 0;
    while (k < CLASSES - 1 && this.reachOf(k) < r) k++;
    return k;
  }

  private reachOf(k: number): number {
    return k === CLASSES - 1 ? Infinity : this.cell * 2 ** k;
  }

  private grid(k: number): GridIndex {
    let g = this.classes[k];
    if (!g) {
      const cellSize = Math.min(this.reachOf(k), Math.max(this.width, this.height));
      g = new GridIndex({ width: this.width, height: this.height, cellSize, capacity: Math.max(1, this.capacity) });
      this.classes[k] = g;
    }
    return g;
  }
}
