/**
 * The cross-linked-list engine of the area of interest, after KBEngine's
 * range triggers (CoordinateNode / RangeTrigger): two sorted lists, one per
 * axis, hold a node per entity and, for each observer, two boundary nodes
 * at x − r and x + r (y − r and y + r on the other list). An observer's
 * band is the square between its boundary nodes, a hair wider than r so it
 * always contains the interest shape.
 *
 * The band relation is exactly the lists' order: s is in o's band on x iff
 * lower(o) ≤ node(s) ≤ upper(o), ties ordered lower < entity < upper. A
 * moved node walks to its new place, and the only pairs whose band status
 * can change are those where an entity node and a boundary node passed each
 * other. Each pass is a candidate, kept only when it is confirmed on the
 * other axis and was not in the band before; moving y first and x second
 * lets every filter read the other axis's final band.
 *
 * A new node enters from one side and walks in (an entity node from
 * 2·(widest band) to its left, an observer's boundary nodes outward from its
 * own entity node), so it passes every node it must meet; anchors every
 * `anchorSpacing` units let it start there without walking the whole list.
 */

import type { AoiFrame, PairsEngine } from './aoi.js';
import { AxisListIndex } from '../spatial/axis-list-index.js';
import { slackFor, type SpatialIndex } from '../spatial/spatial-index.js';

const NONE = -1;
const LOWER = 0;
const ENTITY = 1;
const UPPER = 2;

/** One sorted, doubly linked list: anchors, head, tail, then per slot an entity node, a lower and an upper node. */
class TriggerList {
  key: Float64Array;
  rank: Uint8Array;
  prev: Int32Array;
  next: Int32Array;
  readonly head: number;
  readonly tail: number;
  readonly base: number;
  /** Called for every entity node / boundary node pair a walk passes: (observer, subject). */
  onPass: (o: number, s: number) => void = () => {};

  constructor(
    readonly capacity: number,
    readonly anchors: number,
    readonly spacing: number,
  ) {
    this.head = anchors;
    this.tail = anchors + 1;
    this.base = anchors + 2;
    const nodes = this.base + 3 * capacity;
    this.key = new Float64Array(nodes);
    this.rank = new Uint8Array(nodes).fill(ENTITY);
    this.prev = new Int32Array(nodes).fill(NONE);
    this.next = new Int32Array(nodes).fill(NONE);
    this.key[this.head] = -Infinity;
    this.rank[this.head] = LOWER;
    this.key[this.tail] = Infinity;
    this.rank[this.tail] = UPPER;
    let last = this.head;
    for (let a = 0; a < anchors; a++) {
      this.key[a] = a * spacing;
      this.join(last, a);
      last = a;
    }
    this.join(last, this.tail);
    for (let i = 0; i < capacity; i++) {
      this.rank[this.lower(i)] = LOWER;
      this.rank[this.upper(i)] = UPPER;
    }
  }

  entity(slot: number): number {
    return this.base + slot;
  }

  lower(slot: number): number {
    return this.base + this.capacity + slot;
  }

  upper(slot: number): number {
    return this.base + 2 * this.capacity + slot;
  }

  /** Place a node at key v among the others (no passes reported). */
  insertAt(node: number, v: number): void {
    this.key[node] = v;
    let n = this.seek(v);
    const r = this.rank[node]!;
    while (this.key[n] === v && this.rank[n]! < r) n = this.next[n]!;
    this.linkBefore(node, n);
  }

  /** Put a node next to another (before or after it) with key v, then walk it to its place, reporting passes. */
  insertBeside(node: number, at: number, after: boolean, v: number): void {
    this.key[node] = v;
    this.linkBefore(node, after ? this.next[at]! : at);
    this.walk(node);
  }

  /** Put a node left of everything with a key ≥ from, then walk it to v, reporting passes. */
  insertFrom(node: number, from: number, v: number): void {
    this.key[node] = v;
    this.linkBefore(node, this.seek(from));
    this.walk(node);
  }

  moveTo(node: number, v: number): void {
    if (this.key[node] === v) return;
    this.key[node] = v;
    this.walk(node);
  }

  unlink(node: number): void {
    this.join(this.prev[node]!, this.next[node]!);
  }

  /** Walk a node whose key changed to its place in (key, rank) order, reporting each node it passes. */
  private walk(node: number): void {
    const { key, rank, prev, next } = this;
    const v = key[node]!;
    const r = rank[node]!;
    let p = prev[node]!;
    if (key[p]! > v || (key[p] === v && rank[p]! > r)) {
      const n = next[node]!;
      this.join(p, n);
      for (;;) {
        if (p >= this.base) this.passed(node, p);
        const pp = prev[p]!;
        if (!(key[pp]! > v || (key[pp] === v && rank[pp]! > r))) break;
        p = pp;
      }
      this.linkBefore(node, p);
      return;
    }
    let n = next[node]!;
    if (key[n]! < v || (key[n] === v && rank[n]! < r)) {
      this.join(p, n);
      for (;;) {
        if (n >= this.base) this.passed(node, n);
        const nn = next[n]!;
        if (!(key[nn]! < v || (key[nn] === v && rank[nn]! < r))) break;
        n = nn;
      }
      this.linkBefore(node, next[n]!);
    }
  }

  /** An entity node and a boundary node of different slots passed each other: tell the engine. */
  private passed(a: number, b: number): void {
    const ra = this.rank[a]!;
    const rb = this.rank[b]!;
    if ((ra === ENTITY) === (rb === ENTITY)) return;
    const entity = ra === ENTITY ? a : b;
    const bound = ra === ENTITY ? b : a;
    const s = entity - this.base;
    let o = bound - this.base - this.capacity;
    if (o >= this.capacity) o -= this.capacity;
    if (o !== s) this.onPass(o, s);
  }

  /** The first node whose key is ≥ v (the tail when none is), found from the anchor below v. */
  private seek(v: number): number {
    const a = Math.floor(v / this.spacing);
    let n = a >= 0 ? (a < this.anchors ? a : this.anchors - 1) : 0;
    if (this.key[n]! >= v) {
      while (n !== this.head && this.key[this.prev[n]!]! >= v) n = this.prev[n]!;
      return n === this.head ? this.next[n]! : n;
    }
    while (this.key[n]! < v) n = this.next[n]!;
    return n;
  }

  private linkBefore(node: number, n: number): void {
    const p = this.prev[n]!;
    this.join(p, node);
    this.join(node, n);
  }

  private join(a: number, b: number): void {
    this.next[a] = b;
    this.prev[b] = a;
  }
}

export class RangeTriggers implements PairsEngine {
  readonly bandIsShape = false;
  private xs: TriggerList;
  private ys: TriggerList;
  private readonly anchors: number;
  private readonly spacing: number;
  /** Per slot: its entity nodes are linked; its boundary nodes are linked. */
  private listed: Uint8Array = new Uint8Array(0);
  private bounded: Uint8Array = new Uint8Array(0);
  /** Per slot: the band now (valid when range > 0) and at the last update (valid when lastR > 0). */
  private loX: Float64Array = new Float64Array(0);
  private hiX: Float64Array = new Float64Array(0);
  private loY: Float64Array = new Float64Array(0);
  private hiY: Float64Array = new Float64Array(0);
  private wasLoX: Float64Array = new Float64Array(0);
  private wasHiX: Float64Array = new Float64Array(0);
  private wasLoY: Float64Array = new Float64Array(0);
  private wasHiY: Float64Array = new Float64Array(0);
  /** The widest band half-width so far: how far left a new entity node must start its walk (× 2). */
  private widest = 0;
  private found: Int32Array = new Int32Array(256);
  private candidateCount = 0;
  private readonly passY = (o: number, s: number): void => {
    const x = this.frame.pool.x[s]!;
    if (this.frame.range[o]! > 0 && x >= this.loX[o]! && x <= this.hiX[o]! && !this.keptBefore(o, s)) this.record(o, s);
  };
  private readonly passX = (o: number, s: number): void => {
    const y = this.frame.pool.y[s]!;
    if (this.frame.range[o]! > 0 && y >= this.loY[o]! && y <= this.hiY[o]! && !this.keptBefore(o, s)) this.record(o, s);
  };

  constructor(
    private readonly frame: AoiFrame,
    index: SpatialIndex,
  ) {
    const axis = index instanceof AxisListIndex ? index : null;
    this.spacing = axis?.anchorSpacing ?? 8;
    this.anchors = axis?.anchorCount ?? 129;
    this.xs = new TriggerList(0, this.anchors, this.spacing);
    this.ys = new TriggerList(0, this.anchors, this.spacing);
  }

  /** New lists numbered for the larger capacity, holding the same nodes at the same keys. */
  grow(capacity: number): void {
    if (capacity <= this.listed.length) return;
    const old = this.listed.length;
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    for (const name of ['loX', 'hiX', 'loY', 'hiY', 'wasLoX', 'wasHiX', 'wasLoY', 'wasHiY'] as const) this[name] = f64(this[name]);
    const listed = new Uint8Array(capacity);
    listed.set(this.listed);
    const bounded = new Uint8Array(capacity);
    bounded.set(this.bounded);
    const [oldX, oldY] = [this.xs, this.ys];
    this.xs = new TriggerList(capacity, this.anchors, this.spacing);
    this.ys = new TriggerList(capacity, this.anchors, this.spacing);
    for (let slot = 0; slot < old; slot++) {
      for (const [from, to] of [
        [oldX, this.xs],
        [oldY, this.ys],
      ] as const) {
        if (listed[slot] === 1) to.insertAt(to.entity(slot), from.key[from.entity(slot)]!);
        if (bounded[slot] === 1) {
          to.insertAt(to.lower(slot), from.key[from.lower(slot)]!);
          to.insertAt(to.upper(slot), from.key[from.upper(slot)]!);
        }
      }
    }
    this.listed = listed;
    this.bounded = bounded;
  }

  clear(): void {
    const capacity = this.listed.length;
    this.xs = new TriggerList(capacity, this.anchors, this.spacing);
    this.ys = new TriggerList(capacity, this.anchors, this.spacing);
    this.listed.fill(0);
    this.bounded.fill(0);
    this.widest = 0;
  }

  remove(slot: number): void {
    for (const list of [this.xs, this.ys]) {
      if (this.listed[slot] === 1) list.unlink(list.entity(slot));
      if (this.bounded[slot] === 1) {
        list.unlink(list.lower(slot));
        list.unlink(list.upper(slot));
      }
    }
    this.listed[slot] = 0;
    this.bounded[slot] = 0;
  }

  place(changed: Int32Array, count: number): void {
    const { x, y } = this.frame.pool;
    const range = this.frame.range;
    this.candidateCount = 0;
    // The final bands first: every pass filter reads them.
    for (let i = 0; i < count; i++) {
      const slot = changed[i]!;
      this.wasLoX[slot] = this.loX[slot]!;
      this.wasHiX[slot] = this.hiX[slot]!;
      this.wasLoY[slot] = this.loY[slot]!;
      this.wasHiY[slot] = this.hiY[slot]!;
      const r = range[slot]!;
      if (!(r > 0)) continue;
      const px = x[slot]!;
      const py = y[slot]!;
      const rx = r + slackFor(px, r);
      const ry = r + slackFor(py, r);
      this.loX[slot] = px - rx;
      this.hiX[slot] = px + rx;
      this.loY[slot] = py - ry;
      this.hiY[slot] = py + ry;
      if (rx > this.widest) this.widest = rx;
      if (ry > this.widest) this.widest = ry;
    }
    // y: a pass counts when the pair is in the final band on x.
    const ys = this.ys;
    ys.onPass = this.passY;
    for (let i = 0; i < count; i++) {
      const slot = changed[i]!;
      const observes = range[slot]! > 0;
      if (this.listed[slot] === 1) ys.moveTo(ys.entity(slot), y[slot]!);
      else ys.insertAt(ys.entity(slot), y[slot]!);
      if (observes && this.bounded[slot] === 1) {
        ys.moveTo(ys.lower(slot), this.loY[slot]!);
        ys.moveTo(ys.upper(slot), this.hiY[slot]!);
      } else if (observes) {
        ys.insertAt(ys.lower(slot), this.loY[slot]!);
        ys.insertAt(ys.upper(slot), this.hiY[slot]!);
      } else if (this.bounded[slot] === 1) {
        ys.unlink(ys.lower(slot));
        ys.unlink(ys.upper(slot));
      }
    }
    // x: a pass counts when the pair is in the final band on y. New nodes walk in from outside here.
    const xs = this.xs;
    xs.onPass = this.passX;
    for (let i = 0; i < count; i++) {
      const slot = changed[i]!;
      const observes = range[slot]! > 0;
      const px = x[slot]!;
      const e = xs.entity(slot);
      if (this.listed[slot] === 1) xs.moveTo(e, px);
      else xs.insertFrom(e, px - 2 * this.widest, px);
      if (observes && this.bounded[slot] === 1) {
        xs.moveTo(xs.lower(slot), this.loX[slot]!);
        xs.moveTo(xs.upper(slot), this.hiX[slot]!);
      } else if (observes) {
        xs.insertBeside(xs.lower(slot), e, false, this.loX[slot]!);
        xs.insertBeside(xs.upper(slot), e, true, this.hiX[slot]!);
      } else if (this.bounded[slot] === 1) {
        xs.unlink(xs.lower(slot));
        xs.unlink(xs.upper(slot));
      }
      this.listed[slot] = 1;
      this.bounded[slot] = observes ? 1 : 0;
    }
  }

  collect(consider: (o: number, s: number) => void): void {
    const c = this.found;
    for (let i = 0; i < this.candidateCount; i += 2) consider(c[i]!, c[i + 1]!);
    this.candidateCount = 0;
  }

  keeps(o: number, s: number): boolean {
    if (this.bounded[o] !== 1) return false;
    const { x, y } = this.frame.pool;
    const sx = x[s]!;
    const sy = y[s]!;
    return sx >= this.loX[o]! && sx <= this.hiX[o]! && sy >= this.loY[o]! && sy <= this.hiY[o]!;
  }

  /** Whether the pair was kept at the last update (then the core has re-tested it already). */
  private keptBefore(o: number, s: number): boolean {
    const f = this.frame;
    if (f.rebuilding || f.bornAt[o] === f.epoch || f.bornAt[s] === f.epoch || !(f.lastR[o]! > 0)) return false;
    const sx = f.lastX[s]!;
    const sy = f.lastY[s]!;
    if (f.changedAt[o] === f.epoch) {
      return sx >= this.wasLoX[o]! && sx <= this.wasHiX[o]! && sy >= this.wasLoY[o]! && sy <= this.wasHiY[o]!;
    }
    return sx >= this.loX[o]! && sx <= this.hiX[o]! && sy >= this.loY[o]! && sy <= this.hiY[o]!;
  }

  private record(o: number, s: number): void {
    if (this.candidateCount + 2 > this.found.length) {
      const bigger = new Int32Array(this.found.length * 2);
      bigger.set(this.found);
      this.found = bigger;
    }
    this.found[this.candidateCount++] = o;
    this.found[this.candidateCount++] = s;
  }
}
