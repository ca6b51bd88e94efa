/**
 * A uniform grid, as in the book's Spatial Partition chapter: the world is
 * cut into square cells, and each cell keeps a doubly linked list of the ids
 * inside it. The lists are index based (typed arrays `prev`/`next`), so
 * moving an id between cells is an O(1) unlink + link and allocates nothing.
 *
 * Positions outside the world are clamped into the border cells; queries
 * clamp the same way, and every candidate is checked against its exact
 * position, so answers are exact anywhere.
 */

import {
  PositionStore,
  copyInto,
  checkPosition,
  slackFor,
  type PairVisitor,
  type SpatialFilter,
  type SpatialIndex,
  type SpatialVisitor,
} from './spatial-index.js';

export interface GridOptions {
  width: number;
  height: number;
  cellSize: number;
  capacity: number;
}

const NONE = -1;

export class GridIndex extends PositionStore implements SpatialIndex {
  readonly kind = 'grid' as const;
  readonly cols: number;
  readonly rows: number;
  readonly cellSize: number;
  private readonly inverseCell: number;
  /** First id in each cell, or -1. */
  private readonly cellHead: Int32Array;
  private prev: Int32Array;
  private next: Int32Array;
  /** The cell an id is linked into. */
  private cellOf: Int32Array;
  /** Positions interleaved (x, y, x, y …): a query reads both from one cache line. */
  private xy: Float64Array;

  constructor(options: GridOptions) {
    super(options.capacity);
    if (!(options.cellSize > 0) || !(options.width > 0) || !(options.height > 0)) {
      throw new RangeError('Grid width, height and cell size must be positive.');
    }
    this.cellSize = options.cellSize;
    this.inverseCell = 1 / options.cellSize;
    this.cols = Math.max(1, Math.ceil(options.width / options.cellSize));
    this.rows = Math.max(1, Math.ceil(options.height / options.cellSize));
    if (this.cols * this.rows > 1 << 26) throw new RangeError('Grid has too many cells; use a larger cell size.');
    this.cellHead = new Int32Array(this.cols * this.rows).fill(NONE);
    this.prev = new Int32Array(options.capacity);
    this.next = new Int32Array(options.capacity);
    this.cellOf = new Int32Array(options.capacity).fill(NONE);
    this.xy = new Float64Array(options.capacity * 2);
  }

  ensureCapacity(capacity: number): void {
    if (capacity <= this.prev.length) return;
    this.growStore(capacity);
    this.prev = copyInto(this.prev, new Int32Array(capacity));
    this.next = copyInto(this.next, new Int32Array(capacity));
    const cellOf = new Int32Array(capacity).fill(NONE);
    cellOf.set(this.cellOf);
    this.cellOf = cellOf;
    this.xy = copyInto(this.xy, new Float64Array(capacity * 2));
  }

  /** Column of an x coordinate, clamped into the grid (NaN → 0). */
  cellX(x: number): number {
    const c = Math.floor(x * this.inverseCell);
    return c >= 0 ? (c < this.cols ? c : this.cols - 1) : 0;
  }

  cellY(y: number): number {
    const c = Math.floor(y * this.inverseCell);
    return c >= 0 ? (c < this.rows ? c : this.rows - 1) : 0;
  }

  insert(id: number, x: number, y: number): void {
    this.checkId(id, false);
    checkPosition(id, x, y);
    this.xs[id] = x;
    this.ys[id] = y;
    this.xy[2 * id] = x;
    this.xy[2 * id + 1] = y;
    this.present[id] = 1;
    this.size++;
    this.link(id, this.cellY(y) * this.cols + this.cellX(x));
  }

  remove(id: number): void {
    this.checkId(id, true);
    this.unlink(id);
    this.present[id] = 0;
    this.size--;
  }

  move(id: number, x: number, y: number): void {
    if (this.present[id] !== 1) this.checkId(id, true);
    checkPosition(id, x, y);
    this.xs[id] = x;
    this.ys[id] = y;
    this.xy[2 * id] = x;
    this.xy[2 * id + 1] = y;
    const cell = this.cellY(y) * this.cols + this.cellX(x);
    if (cell === this.cellOf[id]) return;
    this.unlink(id);
    this.link(id, cell);
  }

  clear(): void {
    this.cellHead.fill(NONE);
    this.cellOf.fill(NONE);
    this.present.fill(0);
    this.size = 0;
  }

  forEachInRadius(px: number, py: number, r: number, visit: SpatialVisitor): void {
    this.visits = 0;
    if (!(r >= 0)) return;
    const r2 = r * r;
    const sx = slackFor(px, r);
    const sy = slackFor(py, r);
    const x0 = this.cellX(px - r - sx);
    const x1 = this.cellX(px + r + sx);
    const y0 = this.cellY(py - r - sy);
    const y1 = this.cellY(py + r + sy);
    // Locals, not this.field, in the hot loop: V8 cannot always prove the fields unchanged across visit().
    const { xy, next, cellHead, cols } = this;
    let visited = (y1 - y0 + 1) * (x1 - x0 + 1);
    for (let cy = y0; cy <= y1; cy++) {
      const row = cy * cols;
      for (let cx = x0; cx <= x1; cx++) {
        for (let id = cellHead[row + cx]!; id !== NONE; id = next[id]!) {
          visited++;
          const dx = xy[2 * id]! - px;
          const dy = xy[2 * id + 1]! - py;
          if (dx * dx + dy * dy <= r2) visit(id);
        }
      }
    }
    this.visits = visited;
  }

  forEachNear(id: number, r: number, visit: SpatialVisitor): void {
    this.forEachInRadius(this.xs[id]!, this.ys[id]!, r, visit);
  }

  /**
   * forEachInRect without the callback: writes the ids into `out` and returns
   * how many, or -1 when `out` is too short to hold them all (then its
   * contents are meaningless). For hot loops that would otherwise pay a call
   * per id.
   */
  idsInRect(minX: number, minY: number, maxX: number, maxY: number, out: Int32Array): number {
    if (!(minX <= maxX && minY <= maxY)) return 0;
    const x0 = this.cellX(minX);
    const x1 = this.cellX(maxX);
    const y0 = this.cellY(minY);
    const y1 = this.cellY(maxY);
    const { xy, next, cellHead, cols } = this;
    const room = out.length;
    let count = 0;
    for (let cy = y0; cy <= y1; cy++) {
      const row = cy * cols;
      for (let cx = x0; cx <= x1; cx++) {
        for (let id = cellHead[row + cx]!; id !== NONE; id = next[id]!) {
          const x = xy[2 * id]!;
          const y = xy[2 * id + 1]!;
          if (x >= minX && x <= maxX && y >= minY && y <= maxY) {
            if (count === room) return -1;
            out[count++] = id;
          }
        }
      }
    }
    return count;
  }

  forEachInRect(minX: number, minY: number, maxX: number, maxY: number, visit: SpatialVisitor): void {
    this.visits = 0;
    if (!(minX <= maxX && minY <= maxY)) return;
    const x0 = this.cellX(minX);
    const x1 = this.cellX(maxX);
    const y0 = this.cellY(minY);
    const y1 = this.cellY(maxY);
    const { xy, next, cellHead, cols } = this;
    let visited = (y1 - y0 + 1) * (x1 - x0 + 1);
    for (let cy = y0; cy <= y1; cy++) {
      const row = cy * cols;
      for (let cx = x0; cx <= x1; cx++) {
        for (let id = cellHead[row + cx]!; id !== NONE; id = next[id]!) {
          visited++;
          const x = xy[2 * id]!;
          const y = xy[2 * id + 1]!;
          if (x >= minX && x <= maxX && y >= minY && y <= maxY) visit(id);
        }
      }
    }
    this.visits = visited;
  }

  /**
   * Rings of cells outward from the point's cell. Anything in ring k ≥ 1 is
   * at least (k - 1) cells away on some axis (and ring 1 may be right across
   * a cell line: no bound at all), so once that bound exceeds the best
   * distance found (or maxR) no farther ring can do better.
   */
  nearest(px: number, py: number, maxR: number, accept: SpatialFilter | null = null, exclude = NONE): number {
    this.visits = 0;
    if (!(maxR >= 0)) return NONE;
    const cx = this.cellX(px);
    const cy = this.cellY(py);
    const maxRing = Math.max(this.cols, this.rows);
    const maxR2 = maxR * maxR;
    let best = NONE;
    let bestD2 = Infinity;
    let visited = 0;
    for (let k = 0; k <= maxRing; k++) {
      // Slightly under the true gap, so rounding in the cell assignment never prunes a real candidate;
      // never below 0 (a negative gap squared would prune ring 1, the cells just across the line).
      const gap = k > 1 ? Math.max(0, (k - 1) * this.cellSize - slackFor(Math.abs(px) + Math.abs(py), k * this.cellSize)) : 0;
      if (gap > maxR || gap * gap > bestD2) break;
      // Rows and columns clamped to the grid: a ring mostly outside a long, thin grid costs only its cells inside.
      const jHi = Math.min(cy + k, this.rows - 1);
      for (let j = Math.max(cy - k, 0); j <= jHi; j++) {
        const edgeRow = j === cy - k || j === cy + k;
        const step = edgeRow || k === 0 ? 1 : 2 * k;
        const iHi = Math.min(cx + k, this.cols - 1);
        for (let i = edgeRow ? Math.max(cx - k, 0) : cx - k; i <= iHi; i += step) {
          if (i < 0) continue;
          visited++;
          for (let id = this.cellHead[j * this.cols + i]!; id !== NONE; id = this.next[id]!) {
            visited++;
            if (id === exclude) continue;
            const dx = this.xs[id]! - px;
            const dy = this.ys[id]! - py;
            const d2 = dx * dx + dy * dy;
            if (d2 > maxR2 || d2 > bestD2 || (d2 === bestD2 && id > best)) continue;
            if (accept !== null && !accept(id)) continue;
            best = id;
            bestD2 = d2;
          }
        }
      }
    }
    this.visits = visited;
    return best;
  }

  /**
   * Each cell pairs its own ids, then looks at only half of its neighbour
   * cells (those after it in row-major order), so every pair is seen once.
   */
  forEachPair(maxDist: number, visit: PairVisitor): void {
    if (!(maxDist >= 0)) return;
    const d2 = maxDist * maxDist;
    const span = Math.min(Math.floor(maxDist * this.inverseCell) + 1, Math.max(this.cols, this.rows));
    for (let cy = 0; cy < this.rows; cy++) {
      for (let cx = 0; cx < this.cols; cx++) {
        const head = this.cellHead[cy * this.cols + cx]!;
        if (head === NONE) continue;
        for (let a = head; a !== NONE; a = this.next[a]!) {
          this.pairWithList(a, this.next[a]!, d2, visit);
          for (let oy = 0; oy <= span; oy++) {
            const ny = cy + oy;
            if (ny >= this.rows) break;
            for (let ox = oy === 0 ? 1 : -span; ox <= span; ox++) {
              const nx = cx + ox;
              if (nx < 0 || nx >= this.cols) continue;
              this.pairWithList(a, this.cellHead[ny * this.cols + nx]!, d2, visit);
            }
          }
        }
      }
    }
  }

  private pairWithList(a: number, from: number, d2: number, visit: PairVisitor): void {
    const ax = this.xs[a]!;
    const ay = this.ys[a]!;
    for (let b = from; b !== NONE; b = this.next[b]!) {
      const dx = this.xs[b]! - ax;
      const dy = this.ys[b]! - ay;
      if (dx * dx + dy * dy <= d2) visit(a, b);
    }
  }

  private link(id: number, cell: number): void {
    const head = this.cellHead[cell]!;
    this.prev[id] = NONE;
    this.next[id] = head;
    if (head !== NONE) this.prev[head] = id;
    this.cellHead[cell] = id;
    this.cellOf[id] = cell;
  }

  private unlink(id: number): void {
    const p = this.prev[id]!;
    const n = this.next[id]!;
    if (p !== NONE) this.next[p] = n;
    else this.cellHead[this.cellOf[id]!] = n;
    if (n !== NONE) this.prev[n] = p;
    this.cellOf[id] = NONE;
  }
}
