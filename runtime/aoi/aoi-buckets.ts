/**
 * A uniform grid whose cells keep their entries side by side: each cell owns
 * a block of one slab, holding its entities' positions and slots
 * contiguously, so a range query reads a few short runs of memory in order
 * (the world's GridIndex links its cells' ids in lists, which a query must
 * chase id by id). Moving within a cell rewrites the entry; moving to
 * another cell swaps the last entry of the old cell into the hole and
 * appends to the new one, growing its block at the slab's end when full.
 * A cell keeps its block when it empties, so the slab can only hold what
 * the cells once held at their fullest (a crowd crossing the world would
 * leave a big block in every cell it passed): once the slab holds more than
 * twice the live entries (plus `packAfter`), it is packed, each block cut
 * to what its cell holds now. Steady state, nothing is allocated.
 *
 * Positions outside the world are clamped into the border cells; queries
 * clamp the same way, and callers test every entry they get exactly.
 */

import { copyInto } from '../spatial/spatial-index.js';

const NONE = -1;
const MIN_BLOCK = 4;

export class BucketGrid {
  readonly cols: number;
  readonly rows: number;
  private readonly inverseCell: number;
  /** Per cell: where its block starts in the slab, how many entries it holds, and its room. */
  private readonly start: Int32Array;
  private readonly count: Int32Array;
  private readonly room: Int32Array;
  /** The slab: per entry x, y interleaved, and the slot. */
  xy: Float64Array = new Float64Array(2 * 256);
  slot: Int32Array = new Int32Array(256);
  private top = 0;
  /** Live entries. */
  private live = 0;
  /** Per slot: its cell (−1: not here) and its entry's offset within the cell. */
  private cellOf: Int32Array = new Int32Array(0);
  private offset: Int32Array = new Int32Array(0);
  private spareXy: Float64Array = new Float64Array(0);
  private spareSlot: Int32Array = new Int32Array(0);
  private readonly tally: Int32Array;

  /** `packAfter`: how many entries of slack, beyond the live entries, the slab may hold before it is packed. */
  constructor(
    width: number,
    height: number,
    cellSize: number,
    private readonly packAfter = 1024,
  ) {
    this.inverseCell = 1 / cellSize;
    this.cols = Math.max(1, Math.ceil(width / cellSize));
    this.rows = Math.max(1, Math.ceil(height / cellSize));
    const cells = this.cols * this.rows;
    this.start = new Int32Array(cells);
    this.count = new Int32Array(cells);
    this.room = new Int32Array(cells);
    this.tally = new Int32Array(cells + 1);
  }

  ensureSlots(capacity: number): void {
    if (capacity <= this.cellOf.length) return;
    const cellOf = new Int32Array(capacity).fill(NONE);
    cellOf.set(this.cellOf);
    this.cellOf = cellOf;
    this.offset = copyInto(this.offset, new Int32Array(capacity));
  }

  clear(): void {
    this.count.fill(0);
    this.room.fill(0);
    this.cellOf.fill(NONE);
    this.top = 0;
    this.live = 0;
  }

  /**
   * Put exactly the entities `slots[0 .. n)` in, at (x[slot], y[slot]),
   * each cell's block sized to what it holds and the blocks in cell order:
   * a row of cells is then one run of the slab. For when most entities
   * moved (a counting sort costs less than that many moves).
   */
  rebuild(slots: Int32Array, n: number, x: Float64Array, y: Float64Array): void {
    if (this.slot.length < n) {
      let size = this.slot.length;
      while (size < n) size *= 2;
      this.xy = new Float64Array(2 * size);
      this.slot = new Int32Array(size);
    }
    const { start, count, room, cellOf, offset } = this;
    cellOf.fill(NONE);
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const s = slots[i]!;
      const cell = this.cellY(y[s]!) * this.cols + this.cellX(x[s]!);
      cellOf[s] = cell;
      count[cell]!++;
    }
    let top = 0;
    for (let c = 0; c < start.length; c++) {
      start[c] = top;
      room[c] = count[c]!;
      top += count[c]!;
      count[c] = 0;
    }
    for (let i = 0; i < n; i++) {
      const s = slots[i]!;
      const cell = cellOf[s]!;
      const k = count[cell]!;
      const at = start[cell]! + k;
      this.xy[2 * at] = x[s]!;
      this.xy[2 * at + 1] = y[s]!;
      this.slot[at] = s;
      offset[s] = k;
      count[cell] = k + 1;
    }
    this.top = top;
    this.live = n;
  }

  /**
   * Write slots[0 .. n) to `out` ordered by cell (a counting sort; every
   * slot must be here): neighbours then come one after another, and the
   * memory one look reads is warm for the next.
   */
  orderByCell(slots: Int32Array, n: number, out: Int32Array): void {
    const tally = this.tally;
    tally.fill(0);
    const cellOf = this.cellOf;
    for (let i = 0; i < n; i++) tally[cellOf[slots[i]!]! + 1]!++;
    for (let c = 1; c < tally.length; c++) tally[c]! += tally[c - 1]!;
    for (let i = 0; i < n; i++) {
      const s = slots[i]!;
      out[tally[cellOf[s]!]!++] = s;
    }
  }

  /** Put `slot` at (x, y), whether it is here already or not. */
  set(slot: number, x: number, y: number): void {
    const cell = this.cellY(y) * this.cols + this.cellX(x);
    const was = this.cellOf[slot]!;
    if (was === cell) {
      const at = this.start[cell]! + this.offset[slot]!;
      this.xy[2 * at] = x;
      this.xy[2 * at + 1] = y;
      return;
    }
    if (was !== NONE) this.unlink(slot, was);
    else this.live++;
    this.append(slot, cell, x, y);
  }

  remove(slot: number): void {
    const was = this.cellOf[slot]!;
    if (was === NONE) return;
    this.unlink(slot, was);
    this.cellOf[slot] = NONE;
    this.live--;
  }

  /**
   * The entries of the cells under a rectangle, as runs of the slab: for
   * each row of cells, [from, to) written to `runs` (pairs). Returns how
   * many pairs; the runs hold every entry in the rectangle, and others near
   * it (callers test exactly). Cells whose blocks lie end to end (as
   * rebuild() lays them) make one run.
   */
  runsInRect(minX: number, minY: number, maxX: number, maxY: number, runs: Int32Array): number {
    if (!(minX <= maxX && minY <= maxY)) return 0;
    const x0 = this.cellX(minX);
    const x1 = this.cellX(maxX);
    const y0 = this.cellY(minY);
    const y1 = this.cellY(maxY);
    if (2 * (x1 - x0 + 1) * (y1 - y0 + 1) > runs.length) return -1;
    const { start, count, cols } = this;
    let k = 0;
    for (let cy = y0; cy <= y1; cy++) {
      for (let c = cy * cols + x0, end = cy * cols + x1; c <= end; c++) {
        const n = count[c]!;
        if (n === 0) continue;
        const from = start[c]!;
        if (k > 0 && runs[k - 1] === from) runs[k - 1] = from + n;
        else {
          runs[k++] = from;
          runs[k++] = from + n;
        }
      }
    }
    return k;
  }

  private append(slot: number, cell: number, x: number, y: number): void {
    let n = this.count[cell]!;
    if (n === this.room[cell]!) this.relocate(cell, n + 1);
    const at = this.start[cell]! + n;
    this.xy[2 * at] = x;
    this.xy[2 * at + 1] = y;
    this.slot[at] = slot;
    this.cellOf[slot] = cell;
    this.offset[slot] = n;
    this.count[cell] = ++n;
  }

  /** Take `slot` out of `cell`: the cell's last entry fills its place. */
  private unlink(slot: number, cell: number): void {
    const base = this.start[cell]!;
    const last = this.count[cell]! - 1;
    const hole = this.offset[slot]!;
    if (hole !== last) {
      const from = base + last;
      const to = base + hole;
      const moved = this.slot[from]!;
      this.xy[2 * to] = this.xy[2 * from]!;
      this.xy[2 * to + 1] = this.xy[2 * from + 1]!;
      this.slot[to] = moved;
      this.offset[moved] = hole;
    }
    this.count[cell] = last;
  }

  /** Give `cell` a block with room for `need` entries at the slab's end, its entries moved along. */
  private relocate(cell: number, need: number): void {
    const room = blockFor(need);
    if (this.top > 2 * this.live + this.packAfter) this.pack();
    if (this.top + room > this.slot.length) {
      let size = this.slot.length * 2;
      while (size < this.top + room) size *= 2;
      this.xy = copyInto(this.xy, new Float64Array(2 * size));
      this.slot = copyInto(this.slot, new Int32Array(size));
    }
    const from = this.start[cell]!;
    const n = this.count[cell]!;
    this.xy.copyWithin(2 * this.top, 2 * from, 2 * (from + n));
    this.slot.copyWithin(this.top, from, from + n);
    this.start[cell] = this.top;
    this.room[cell] = room;
    this.top += room;
  }

  /** Move every cell's block to the front of the other buffers, in cell order, cut to what the cell holds (empty cells give theirs up). */
  private pack(): void {
    if (this.spareSlot.length < this.slot.length) {
      this.spareSlot = new Int32Array(this.slot.length);
      this.spareXy = new Float64Array(this.xy.length);
    }
    const toXy = this.spareXy;
    const toSlot = this.spareSlot;
    let top = 0;
    for (let c = 0; c < this.start.length; c++) {
      const n = this.count[c]!;
      this.room[c] = n === 0 ? 0 : blockFor(n);
      if (n === 0) continue;
      const from = this.start[c]!;
      toXy.set(this.xy.subarray(2 * from, 2 * (from + n)), 2 * top);
      toSlot.set(this.slot.subarray(from, from + n), top);
      this.start[c] = top;
      top += this.room[c]!;
    }
    this.spareXy = this.xy;
    this.spareSlot = this.slot;
    this.xy = toXy;
    this.slot = toSlot;
    this.top = top;
  }

  private cellX(x: number): number {
    const c = Math.floor(x * this.inverseCell);
    return c >= 0 ? (c < this.cols ? c : this.cols - 1) : 0;
  }

  private cellY(y: number): number {
    const c = Math.floor(y * this.inverseCell);
    return c >= 0 ? (c < this.rows ? c : this.rows - 1) : 0;
  }
}

/** The block size for `n` entries: a power of two, at least MIN_BLOCK. */
export function blockFor(n: number): number {
  let room = MIN_BLOCK;
  while (room < n) room *= 2;
  return room;
}
