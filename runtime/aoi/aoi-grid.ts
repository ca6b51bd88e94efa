/**
 * The grid engine of the area of interest. Each observer keeps its observed
 * set as sorted subject keys (ObserverSets); nothing else is stored per
 * pair. An update visits only what changed:
 *
 *   - a changed entity (moved, range changed, new) looks at the entities
 *     near where it was and where it is: as an observer, each of them may
 *     have entered, left or moved in its set; as a subject, it may have
 *     entered or left the set of each unchanged observer among them, or
 *     moved in it — only those can have;
 *   - a gone entity is taken out of the sets of the unchanged observers near
 *     where it was last;
 *   - a pair of two changed entities is settled from its observer's side,
 *     so every pair is looked at once.
 *
 * A set is exactly the subjects inside the observer's range at their
 * positions of the last update (the same test on the same numbers), so
 * whether an observer held a subject is a test on last positions, and the
 * observers that may hold a subject are found around that subject's last
 * position. A changed observer whose every member turned up in its look
 * has its news complete, pair by pair; otherwise (a member gone, or moved
 * out of the look, or ranges not alike) its set is recomputed and compared.
 *
 * The engine keeps the live entities in a grid of its own (BucketGrid,
 * cells of the world grid's size), each cell's entries side by side, so a
 * look reads a few short runs of memory. Observers are also kept in small
 * grids, one per range class (ranges up to cell·2^k go in a grid of cell
 * size cell·2^k), so whatever the mix of ranges a subject looks at no more
 * than 3 × 3 cells per class; when the ranges are alike (the common case)
 * one look around the mover serves both directions.
 *
 * When most entities changed, every observer recomputes its set in the
 * pool's active order and its news goes out at once, already in delivery
 * order (the recompute-and-diff pass, on typed arrays and without a call
 * per id).
 */

import type { AoiFrame, AoiListener } from './aoi.js';
import { sortByKey, type AoiOutbox, ENTER, LEAVE, MOVE } from './aoi-outbox.js';
import { BucketGrid } from './aoi-buckets.js';
import { ObserverSets } from './aoi-sets.js';
import { GridIndex } from '../spatial/grid-index.js';
import { copyInto, slackFor, type SpatialIndex } from '../spatial/spatial-index.js';

const NONE = -1;
/** Range classes: cell · 2^0 … cell · 2^(CLASSES-2), then one for anything larger (even infinite). */
const CLASSES = 32;
const KINDS = ['enter', 'move', 'leave'] as const;

/** What the grid engine reads of the area of interest, besides the frame. */
export interface GridFrame extends AoiFrame {
  /** The identity key of the live entity in each slot (0: none). */
  readonly owner: Float64Array;
  /** `movedAt[slot] === epoch`: a tracked entity found away from its last position in this update. */
  readonly movedAt: Uint32Array;
  readonly moveEvents: boolean;
  inside(o: number, s: number): boolean;
  /** inside(), for a subject at (sx, sy). */
  insideFrom(o: number, sx: number, sy: number): boolean;
}

export class GridSets {
  readonly sets = new ObserverSets();
  private readonly cell: number;
  private readonly width: number;
  private readonly height: number;
  /**
   * The observers by range class: each slot's class, how many are in each,
   * and a grid per class — kept only while some range is wide (over two
   * cells), the only time a look needs them (built afresh when one becomes
   * wide, dropped when none is).
   */
  private classOf: Int8Array = new Int8Array(0);
  private readonly classCount = new Int32Array(CLASSES);
  private readonly classes: (GridIndex | null)[] = new Array<GridIndex | null>(CLASSES).fill(null);
  private classGridsKept = false;
  private capacity = 0;
  /** Every live entity at its current position. */
  private readonly entities: BucketGrid;
  /** What the last look at `entities` found: runs of its slab, and the rectangle looked at. */
  private runs: Int32Array = new Int32Array(64);
  private minX = 0;
  private minY = 0;
  private maxX = 0;
  private maxY = 0;
  /** The changed slots in cell order. */
  private order: Int32Array = new Int32Array(64);
  /** Ids a look at an observer grid found. */
  private found: Int32Array = new Int32Array(64);
  /** An observer's set as recomputed: keys ascending, and each subject's slot. */
  private readonly fresh = new KeyedInts();
  private outbox: AoiOutbox | null = null;
  /** The widest non-empty range class in this update. */
  private widest = NONE;
  /** The news of one changed observer's own set, found pair by pair: subject keys and kinds. */
  private readonly news = new KeyedInts();
  private emit: AoiListener | null = null;

  /** `index`: the world's index, whose grid (if it is one) sets the cell size and the extent. */
  constructor(
    private readonly frame: GridFrame,
    index: SpatialIndex,
  ) {
    // The observer grids cover the world's grid when there is one; anything outside lands in border cells (still exact).
    const grid = index instanceof GridIndex ? index : null;
    this.cell = grid?.cellSize ?? 8;
    this.width = grid ? grid.cols * grid.cellSize : 1024;
    this.height = grid ? grid.rows * grid.cellSize : 1024;
    this.entities = new BucketGrid(this.width, this.height, this.cell);
  }

  grow(capacity: number): void {
    if (capacity <= this.capacity) return;
    const classOf = new Int8Array(capacity).fill(NONE);
    classOf.set(this.classOf);
    this.classOf = classOf;
    this.capacity = capacity;
    this.sets.ensureSlots(capacity);
    this.entities.ensureSlots(capacity);
    for (const g of this.classes) g?.ensureCapacity(capacity);
  }

  clear(): void {
    for (const g of this.classes) g?.clear();
    this.classGridsKept = false;
    this.classCount.fill(0);
    this.classOf.fill(NONE);
    this.sets.clear();
    this.entities.clear();
  }

  /**
   * Bring the grids to the changed slots' current positions and ranges
   * (`all`: most entities changed; the entity grid is laid out afresh).
   */
  place(changed: Int32Array, count: number, all = false): void {
    const { x, y } = this.frame.pool;
    const range = this.frame.range;
    if (all) this.entities.rebuild(this.frame.pool.activeSlots, this.frame.pool.count, x, y);
    for (let i = 0; i < count; i++) {
      const slot = changed[i]!;
      if (!all) this.entities.set(slot, x[slot]!, y[slot]!);
      const r = range[slot]!;
      this.setClass(slot, r > 0 ? this.classFor(r) : NONE, x[slot]!, y[slot]!);
    }
  }

  /** File `slot` (at x, y) under range class k (NONE: it observes nothing). */
  private setClass(slot: number, k: number, x: number, y: number): void {
    const was = this.classOf[slot]!;
    const kept = this.classGridsKept;
    if (was === k) {
      if (kept && k !== NONE) this.classes[k]!.move(slot, x, y);
      return;
    }
    if (was !== NONE) {
      this.classCount[was]!--;
      if (kept) this.classes[was]!.remove(slot);
    }
    if (k !== NONE) {
      this.classCount[k]!++;
      if (kept) this.grid(k).insert(slot, x, y);
    }
    this.classOf[slot] = k;
  }

  /** Keep the class grids while some range is wide (over two cells), and only then. */
  private fitClassGrids(): void {
    const wide = this.widest !== NONE && this.reachOf(this.widest) > 2 * this.cell;
    if (wide === this.classGridsKept) return;
    for (const g of this.classes) g?.clear();
    this.classGridsKept = wide;
    if (!wide) return;
    const { x, y, activeSlots, count } = this.frame.pool;
    for (let i = 0; i < count; i++) {
      const s = activeSlots[i]!;
      const k = this.classOf[s]!;
      if (k !== NONE) this.grid(k).insert(s, x[s]!, y[s]!);
    }
  }

  /**
   * One update. `gone` lists the slots whose entity is gone
   * (`goneKeys` their keys; `lastX`/`lastY` still hold where they were).
   * `sweep`: most entities changed, so every observer recomputes its set and
   * its news is emitted at once; otherwise news goes to the outbox.
   */
  update(
    changed: Int32Array,
    count: number,
    gone: Int32Array,
    goneKeys: Float64Array,
    goneCount: number,
    sweep: boolean,
    outbox: AoiOutbox,
    emit: AoiListener,
  ): void {
    this.outbox = outbox;
    this.emit = emit;
    // The gone first: a reused slot's new entity is then placed afresh.
    for (let i = 0; i < goneCount; i++) this.forget(gone[i]!);
    this.place(changed, count, sweep);
    this.widest = this.widestClass();
    this.fitClassGrids();
    // A sweep recomputes every set anyway; otherwise the unchanged observers that held a gone entity are told.
    if (!sweep) for (let i = 0; i < goneCount; i++) this.tellGone(gone[i]!, goneKeys[i]!);
    if (sweep) this.sweep();
    else if (count > 0) {
      // In cell order: a look's memory is then mostly warm from the look before.
      if (this.order.length < count) this.order = new Int32Array(changed.length);
      this.entities.orderByCell(changed, count, this.order);
      for (let i = 0; i < count; i++) this.settle(this.order[i]!);
    }
    this.emit = null;
  }

  /** The keys `slot` observed at the last update, ascending. */
  observedBy(slot: number): number[] {
    const { keys, start, length } = this.sets;
    return Array.from(keys.subarray(start[slot]!, start[slot]! + length[slot]!));
  }

  /** Load a saved set (for importState): `keys` any order, no duplicates. */
  load(slot: number, keys: readonly number[]): void {
    const sorted = Float64Array.from(keys).sort();
    this.sets.write(slot, sorted, sorted.length);
  }

  /** A gone entity: its own set goes silently; a slot left empty leaves the grids (a reused one is placed afresh). */
  private forget(g: number): void {
    this.sets.empty(g);
    if (this.frame.owner[g] !== 0) return;
    this.entities.remove(g);
    this.setClass(g, NONE, 0, 0);
  }

  /** The unchanged observers that held the gone entity `key` (last at g's last position) get a leave. */
  private tellGone(g: number, key: number): void {
    if (this.sets.total === 0 || this.widest === NONE) return;
    const f = this.frame;
    const { range, changedAt, epoch } = f;
    const gx = f.lastX[g]!;
    const gy = f.lastY[g]!;
    // An unchanged observer held it exactly when its last position was in range (see settleSubject).
    if (!this.classGridsKept) {
      const runCount = this.look(gx, gy, gx, gy, this.reachOf(this.widest));
      const slot = this.entities.slot;
      for (let q = 0; q < runCount; q += 2) {
        for (let j = this.runs[q]!, end = this.runs[q + 1]!; j < end; j++) {
          const o = slot[j]!;
          if (range[o]! > 0 && changedAt[o] !== epoch && f.insideFrom(o, gx, gy)) this.leave(o, key);
        }
      }
      return;
    }
    for (let c = 0; c <= this.widest; c++) {
      const grid = this.classes[c];
      if (!grid || grid.count === 0) continue;
      const n = this.observersAround(grid, gx, gy, gx, gy, this.reachOf(c));
      for (let i = 0; i < n; i++) {
        const o = this.found[i]!;
        if (changedAt[o] !== epoch && f.insideFrom(o, gx, gy)) this.leave(o, key);
      }
    }
  }

  /** o held `key` (if it still does, after a slot reuse): it leaves. */
  private leave(o: number, key: number): void {
    const at = this.sets.find(o, key);
    if (at >= 0) {
      this.sets.removeAt(o, at);
      this.outbox!.push(o, key, LEAVE);
    }
  }

  /** A changed entity, when few changed: its own set, and its place in the sets of the unchanged observers near it. */
  private settle(c: number): void {
    const f = this.frame;
    const { x, y } = f.pool;
    const { range, owner, changedAt, epoch } = f;
    const key = owner[c]!;
    const r = range[c]!;
    const cx = x[c]!;
    const cy = y[c]!;
    // Where it was, if it was tracked: observers near there may hold it.
    const tracked = f.bornAt[c] !== epoch;
    const lx = tracked ? f.lastX[c]! : cx;
    const ly = tracked ? f.lastY[c]! : cy;
    // What c's own set gains and loses, found pair by pair (news), and how many of its members were met.
    let news = 0;
    let met = 0;
    const widest = this.widest;
    const alike = widest !== NONE && this.reachOf(widest) <= 2 * Math.max(r, this.cell);
    if (alike) {
      // Ranges alike: one look at the live entities around both places serves both directions.
      const reach = Math.max(r, this.reachOf(widest));
      const runCount = this.look(cx, cy, lx, ly, reach);
      const { runs, minX, minY, maxX, maxY } = this;
      const { xy, slot } = this.entities;
      const circle = f.shape === 'circle';
      const moves = f.moveEvents;
      const { movedAt, lastX, lastY, bornAt } = f;
      const moved = moves && movedAt[c] === epoch;
      // c's range at the last update: it held e exactly when e's last position was inside it then.
      const lr = tracked ? f.lastR[c]! : 0;
      // The interest tests below are inside() written out, on the same numbers (a − b is exactly −(b − a)).
      for (let q = 0; q < runCount; q += 2) {
        for (let j = runs[q]!, end = runs[q + 1]!; j < end; j++) {
          const ex = xy[2 * j]!;
          const ey = xy[2 * j + 1]!;
          if (ex < minX || ex > maxX || ey < minY || ey > maxY) continue;
          const e = slot[j]!;
          if (e === c) continue;
          // e changed in this update too: its last position is elsewhere (an unchanged e's is where it is).
          const changedToo = changedAt[e] === epoch;
          const dx = ex - cx;
          const dy = ey - cy;
          const d2 = dx * dx + dy * dy;
          const ax = Math.abs(dx);
          const ay = Math.abs(dy);
          const sees = r > 0 && (circle ? d2 <= r * r : ax <= r && ay <= r);
          let saw = false;
          if (lr > 0 && (!changedToo || bornAt[e] !== epoch)) {
            const hx = (changedToo ? lastX[e]! : ex) - lx;
            const hy = (changedToo ? lastY[e]! : ey) - ly;
            saw = circle ? hx * hx + hy * hy <= lr * lr : Math.abs(hx) <= lr && Math.abs(hy) <= lr;
            if (saw) met++;
          }
          if (saw !== sees) news = this.news.put(news, owner[e]!, sees ? ENTER : LEAVE);
          else if (sees && moves && changedToo && movedAt[e] === epoch) news = this.news.put(news, owner[e]!, MOVE);
          const re = range[e]!;
          if (!(re > 0) || changedToo) continue;
          // e is unchanged: it held c exactly when c's last position was in its range (see settleSubject).
          const now = circle ? d2 <= re * re : ax <= re && ay <= re;
          let held = false;
          if (tracked) {
            const hx = lx - ex;
            const hy = ly - ey;
            held = circle ? hx * hx + hy * hy <= re * re : Math.abs(hx) <= re && Math.abs(hy) <= re;
          }
          if (held !== now) this.changeMembership(e, key, now);
          else if (now && moved) this.outbox!.push(e, key, MOVE);
        }
      }
    } else {
      for (let k = 0; k <= widest; k++) {
        const grid = this.classes[k];
        if (!grid || grid.count === 0) continue;
        const n = this.observersAround(grid, cx, cy, lx, ly, this.reachOf(k));
        for (let i = 0; i < n; i++) {
          const o = this.found[i]!;
          if (o !== c && changedAt[o] !== epoch && owner[o] !== 0) this.settleSubject(o, c, key, tracked);
        }
      }
    }
    if (!(r > 0) && this.sets.length[c] === 0) return;
    if (alike && met === this.sets.length[c]) {
      // Every member of c's set was met (none lies out of the look, none is gone): the news is complete.
      for (let i = 0; i < news; i++) {
        const subject = this.news.keys[i]!;
        const kind = this.news.ints[i]!;
        if (kind !== MOVE) this.changeOwnMembership(c, subject, kind === ENTER);
        this.outbox!.push(c, subject, kind);
      }
      return;
    }
    // Some member was not met (gone, or out of the look), or the ranges differ: recompute c's set and compare.
    const fresh = r > 0 ? this.gather(c, r) : 0;
    if (fresh > 1) sortByKey(this.fresh.keys, this.fresh.ints, 0, fresh - 1);
    this.diff(c, fresh, false);
  }

  private changeOwnMembership(o: number, key: number, now: boolean): void {
    const at = this.sets.find(o, key);
    if (now) this.sets.insertAt(o, -at - 1, key);
    else this.sets.removeAt(o, at);
  }

  /**
   * An unchanged observer o and a changed subject s (`tracked`: s was there
   * at the last update): enter, leave or move, and o's set kept in step.
   * Whether o held s needs no look at the set: o has not changed since its
   * set was computed, so it held s exactly when s's last position was
   * inside its range (the same test, on the same numbers).
   */
  private settleSubject(o: number, s: number, key: number, tracked: boolean): void {
    const f = this.frame;
    const held = tracked && f.insideFrom(o, f.lastX[s]!, f.lastY[s]!);
    const now = f.inside(o, s);
    if (held !== now) this.changeMembership(o, key, now);
    else if (now && f.moveEvents && f.movedAt[s] === f.epoch) this.outbox!.push(o, key, MOVE);
  }

  /** The subject `key` came into o's range (`now`) or left it: o's set and news follow. */
  private changeMembership(o: number, key: number, now: boolean): void {
    this.changeOwnMembership(o, key, now);
    this.outbox!.push(o, key, now ? ENTER : LEAVE);
  }

  /** Every observer, in the pool's active order, recomputes its set; news is emitted as it goes. */
  private sweep(): void {
    const { activeSlots: active, count: n } = this.frame.pool;
    const range = this.frame.range;
    const length = this.sets.length;
    for (let i = 0; i < n; i++) {
      const o = active[i]!;
      const r = range[o]!;
      if (!(r > 0) && length[o] === 0) continue;
      const fresh = r > 0 ? this.gather(o, r) : 0;
      if (fresh > 1) sortByKey(this.fresh.keys, this.fresh.ints, 0, fresh - 1);
      this.diff(o, fresh, true);
    }
  }

  /** The subjects inside o's range now, into `fresh` (keys and slots, unsorted); returns how many. */
  private gather(o: number, r: number): number {
    const f = this.frame;
    const ox = f.pool.x[o]!;
    const oy = f.pool.y[o]!;
    const runCount = this.look(ox, oy, ox, oy, r);
    const runs = this.runs;
    const { xy, slot } = this.entities;
    const owner = f.owner;
    const circle = f.shape === 'circle';
    const r2 = r * r;
    let fresh = 0;
    // inside(o, s) written out, on the same numbers.
    for (let q = 0; q < runCount; q += 2) {
      for (let j = runs[q]!, end = runs[q + 1]!; j < end; j++) {
        const dx = xy[2 * j]! - ox;
        const dy = xy[2 * j + 1]! - oy;
        if (!(circle ? dx * dx + dy * dy <= r2 : Math.abs(dx) <= r && Math.abs(dy) <= r)) continue;
        const s = slot[j]!;
        if (s !== o) fresh = this.fresh.put(fresh, owner[s]!, s);
      }
    }
    return fresh;
  }

  /**
   * Merge o's recomputed set (`fresh`, ascending) with its stored one:
   * enter, leave, and move for a kept subject that moved. `direct`: emit in
   * key order now (the sweep); otherwise queue in the outbox.
   */
  private diff(o: number, fresh: number, direct: boolean): void {
    const sets = this.sets;
    const keys = sets.keys;
    const base = sets.start[o]!;
    const old = sets.length[o]!;
    const newKeys = this.fresh.keys;
    const moves = this.frame.moveEvents;
    const movedAt = this.frame.movedAt;
    const epoch = this.frame.epoch;
    const observerKey = this.frame.owner[o]!;
    let same = old === fresh;
    let i = 0;
    let j = 0;
    while (i < old || j < fresh) {
      const a = i < old ? keys[base + i]! : Infinity;
      const b = j < fresh ? newKeys[j]! : Infinity;
      let kind: number;
      let subject: number;
      if (a < b) {
        kind = LEAVE;
        subject = a;
        i++;
        same = false;
      } else if (b < a) {
        kind = ENTER;
        subject = b;
        j++;
        same = false;
      } else {
        const moved = moves && movedAt[this.fresh.ints[j]!] === epoch;
        i++;
        j++;
        if (!moved) continue;
        kind = MOVE;
        subject = b;
      }
      if (direct) this.emit!(KINDS[kind]!, observerKey, subject);
      else this.outbox!.push(o, subject, kind);
    }
    if (!same) sets.write(o, newKeys, fresh);
  }

  /**
   * Look at the live entities within `reach` of (x1, y1) or of (x2, y2) on
   * both axes (a hair wider, so rounding never loses one): the rectangle
   * goes to minX … maxY, the runs of the bucket grid to `runs`. Returns how
   * many run bounds.
   */
  private look(x1: number, y1: number, x2: number, y2: number, reach: number): number {
    this.rectAround(x1, y1, x2, y2, reach);
    for (;;) {
      const k = this.entities.runsInRect(this.minX, this.minY, this.maxX, this.maxY, this.runs);
      if (k >= 0) return k;
      this.runs = new Int32Array(this.runs.length * 2);
    }
  }

  /** The observers in an observer grid within `reach` of (x1, y1) or of (x2, y2), into `found`. */
  private observersAround(grid: GridIndex, x1: number, y1: number, x2: number, y2: number, reach: number): number {
    this.rectAround(x1, y1, x2, y2, reach);
    for (;;) {
      const n = grid.idsInRect(this.minX, this.minY, this.maxX, this.maxY, this.found);
      if (n >= 0) return n;
      this.found = new Int32Array(this.found.length * 2);
    }
  }

  private rectAround(x1: number, y1: number, x2: number, y2: number, reach: number): void {
    const lowX = Math.min(x1, x2);
    const highX = Math.max(x1, x2);
    const lowY = Math.min(y1, y2);
    const highY = Math.max(y1, y2);
    const sx = reach + slackFor(Math.max(Math.abs(lowX), Math.abs(highX)), reach);
    const sy = reach + slackFor(Math.max(Math.abs(lowY), Math.abs(highY)), reach);
    this.minX = lowX - sx;
    this.minY = lowY - sy;
    this.maxX = highX + sx;
    this.maxY = highY + sy;
  }

  /** The widest non-empty range class, or -1 when nobody observes. */
  private widestClass(): number {
    for (let k = CLASSES - 1; k >= 0; k--) if (this.classCount[k]! > 0) return k;
    return NONE;
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

/** Keys with an int each (a subject's key and its slot, or its key and a notification kind), grown as needed. */
class KeyedInts {
  keys: Float64Array = new Float64Array(64);
  ints: Int32Array = new Int32Array(64);

  /** Write entry `at`; returns at + 1. */
  put(at: number, key: number, value: number): number {
    if (at === this.keys.length) {
      this.keys = copyInto(this.keys, new Float64Array(at * 2));
      this.ints = copyInto(this.ints, new Int32Array(at * 2));
    }
    this.keys[at] = key;
    this.ints[at] = value;
    return at + 1;
  }
}
