/**
 * Sorted axis lists — the "cross-linked list" technique MMO servers use for
 * area of interest. Every id sits in two doubly linked lists, one sorted on
 * x and one on y. A move walks from the id's own node to its new place,
 * which for the small per-tick moves of a game is a step or two.
 *
 * A plain sorted list would make insertion walk the whole list, so each list
 * also holds fixed anchor nodes every `anchorSpacing` units: an insert or a
 * query jumps to the anchor below its key and walks from there.
 *
 * Node numbering: anchors 0 .. A-1, the head and tail sentinels (keys -∞ and
 * +∞), then the ids, offset by A + 2.
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

export interface AxisListOptions {
  width: number;
  height: number;
  /** Distance between anchors on each axis. */
  anchorSpacing: number;
  capacity: number;
}

const NONE = -1;

/** One sorted, doubly linked list over the shared node numbering. */
class AxisList {
  key: Float64Array;
  prev: Int32Array;
  next: Int32Array;

  constructor(
    nodes: number,
    readonly head: number,
    readonly tail: number,
    readonly anchors: number,
    readonly spacing: number,
  ) {
    this.key = new Float64Array(nodes);
    this.prev = new Int32Array(nodes);
    this.next = new Int32Array(nodes);
    // head, anchor 0 … anchor A-1, tail: already sorted.
    this.key[head] = -Infinity;
    this.key[tail] = Infinity;
    let last = head;
    for (let a = 0; a < anchors; a++) {
      this.key[a] = a * spacing;
      this.join(last, a);
      last = a;
    }
    this.join(last, tail);
    this.prev[head] = NONE;
    this.next[tail] = NONE;
  }

  grow(nodes: number): void {
    this.key = copyInto(this.key, new Float64Array(nodes));
    this.prev = copyInto(this.prev, new Int32Array(nodes));
    this.next = copyInto(this.next, new Int32Array(nodes));
  }

  /** The anchor at or below `v` (clamped to the anchors that exist). */
  anchorFor(v: number): number {
    const a = Math.floor(v / this.spacing);
    return a >= 0 ? (a < this.anchors ? a : this.anchors - 1) : 0;
  }

  /** Nodes the last seek stepped over (queries report them as work: SpatialIndex.lastQueryVisits). */
  seekSteps = 0;

  /** The first node whose key is ≥ v (the tail when none is). */
  seek(v: number): number {
    let n = this.anchorFor(v);
    let steps = 0;
    if (this.key[n]! >= v) {
      while (n !== this.head && this.key[this.prev[n]!]! >= v) {
        n = this.prev[n]!;
        steps++;
      }
      this.seekSteps = steps;
      return n === this.head ? this.next[n]! : n;
    }
    while (this.key[n]! < v) {
      n = this.next[n]!;
      steps++;
    }
    this.seekSteps = steps;
    return n;
  }

  insert(node: number, v: number): void {
    this.key[node] = v;
    const after = this.seek(v);
    this.linkBefore(node, after);
  }

  unlink(node: number): void {
    this.join(this.prev[node]!, this.next[node]!);
  }

  /** Re-sort one node after its key changed, walking from where it is. */
  update(node: number, v: number): void {
    this.key[node] = v;
    let p = this.prev[node]!;
    let n = this.next[node]!;
    if (this.key[p]! > v) {
      this.join(p, n);
      while (this.key[this.prev[p]!]! > v) p = this.prev[p]!;
      this.linkBefore(node, p);
    } else if (this.key[n]! < v) {
      this.join(p, n);
      while (this.key[this.next[n]!]! < v) n = this.next[n]!;
      this.linkBefore(node, this.next[n]!);
    }
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

export class AxisListIndex extends PositionStore implements SpatialIndex {
  readonly kind = 'axis' as const;
  /** Distance between anchors, and how many there are (they cover 0 … max(width, height)). */
  readonly anchorSpacing: number;
  readonly anchorCount: number;
  private readonly offset: number;
  private readonly xList: AxisList;
  private readonly yList: AxisList;

  constructor(options: AxisListOptions) {
    super(options.capacity);
    if (!(options.anchorSpacing > 0) || !(options.width > 0) || !(options.height > 0)) {
      throw new RangeError('Axis list width, height and anchor spacing must be positive.');
    }
    const anchors = Math.ceil(Math.max(options.width, options.height) / options.anchorSpacing) + 1;
    if (anchors > 1 << 24) throw new RangeError('Too many anchors; use a larger anchor spacing.');
    this.anchorSpacing = options.anchorSpacing;
    this.anchorCount = anchors;
    const head = anchors;
    const tail = anchors + 1;
    this.offset = anchors + 2;
    const nodes = this.offset + options.capacity;
    this.xList = new AxisList(nodes, head, tail, anchors, options.anchorSpacing);
    this.yList = new AxisList(nodes, head, tail, anchors, options.anchorSpacing);
  }

  ensureCapacity(capacity: number): void {
    if (capacity <= this.xs.length) return;
    this.growStore(capacity);
    this.xList.grow(this.offset + capacity);
    this.yList.grow(this.offset + capacity);
  }

  insert(id: number, x: number, y: number): void {
    this.checkId(id, false);
    checkPosition(id, x, y);
    this.xs[id] = x;
    this.ys[id] = y;
    this.present[id] = 1;
    this.size++;
    this.xList.insert(id + this.offset, x);
    this.yList.insert(id + this.offset, y);
  }

  remove(id: number): void {
    this.checkId(id, true);
    this.xList.unlink(id + this.offset);
    this.yList.unlink(id + this.offset);
    this.present[id] = 0;
    this.size--;
  }

  move(id: number, x: number, y: number): void {
    if (this.present[id] !== 1) this.checkId(id, true);
    checkPosition(id, x, y);
    this.xs[id] = x;
    this.ys[id] = y;
    this.xList.update(id + this.offset, x);
    this.yList.update(id + this.offset, y);
  }

  clear(): void {
    for (let id = 0; id < this.present.length; id++) if (this.present[id] === 1) this.remove(id);
  }

  forEachInRadius(px: number, py: number, r: number, visit: SpatialVisitor): void {
    this.visits = 0;
    if (!(r >= 0)) return;
    const r2 = r * r;
    const list = this.xList;
    const slack = slackFor(px, r);
    const hi = px + r + slack;
    let visited = 0;
    for (let n = list.seek(px - r - slack); list.key[n]! <= hi; n = list.next[n]!) {
      visited++;
      if (n < this.offset) continue;
      const id = n - this.offset;
      const dx = this.xs[id]! - px;
      const dy = this.ys[id]! - py;
      if (dx * dx + dy * dy <= r2) visit(id);
    }
    this.visits = visited + list.seekSteps;
  }

  /** Walks outward from the id's own node in the x list instead of seeking. */
  forEachNear(id: number, r: number, visit: SpatialVisitor): void {
    this.visits = 0;
    if (!(r >= 0)) return;
    const list = this.xList;
    const px = this.xs[id]!;
    const py = this.ys[id]!;
    const r2 = r * r;
    const self = id + this.offset;
    const lo = px - r - slackFor(px, r);
    const hi = px + r + slackFor(px, r);
    let visited = 0;
    for (let n = self; list.key[n]! >= lo; n = list.prev[n]!) {
      visited++;
      this.visitIfNear(n, px, py, r2, visit);
    }
    for (let n = list.next[self]!; list.key[n]! <= hi; n = list.next[n]!) {
      visited++;
      this.visitIfNear(n, px, py, r2, visit);
    }
    this.visits = visited;
  }

  /** Walks the list of the axis on which the rectangle is narrower. */
  forEachInRect(minX: number, minY: number, maxX: number, maxY: number, visit: SpatialVisitor): void {
    this.visits = 0;
    if (!(minX <= maxX && minY <= maxY)) return;
    const useY = maxY - minY < maxX - minX;
    const list = useY ? this.yList : this.xList;
    const hi = useY ? maxY : maxX;
    let visited = 0;
    for (let n = list.seek(useY ? minY : minX); list.key[n]! <= hi; n = list.next[n]!) {
      visited++;
      if (n < this.offset) continue;
      const id = n - this.offset;
      const x = this.xs[id]!;
      const y = this.ys[id]!;
      if (x >= minX && x <= maxX && y >= minY && y <= maxY) visit(id);
    }
    this.visits = visited + list.seekSteps;
  }

  /** Walks right then left along x from the point, stopping once |dx| exceeds the best distance so far. */
  nearest(px: number, py: number, maxR: number, accept: SpatialFilter | null = null, exclude = NONE): number {
    this.visits = 0;
    if (!(maxR >= 0)) return NONE;
    const list = this.xList;
    const start = list.seek(px);
    let best = NONE;
    let bestD2 = maxR * maxR;
    let visited = list.seekSteps;
    for (let pass = 0; pass < 2; pass++) {
      const right = pass === 0;
      for (let n = right ? start : list.prev[start]!; n !== NONE; n = right ? list.next[n]! : list.prev[n]!) {
        visited++;
        const dx = list.key[n]! - px;
        // Compared squared, exactly as the distance test is, so the pruning agrees with it to the last bit.
        if (dx * dx > bestD2) break;
        if (n < this.offset) continue;
        const id = n - this.offset;
        if (id === exclude) continue;
        const dy = this.ys[id]! - py;
        const d2 = dx * dx + dy * dy;
        if (d2 > bestD2 || (d2 === bestD2 && best !== NONE && id > best)) continue;
        if (accept !== null && !accept(id)) continue;
        best = id;
        bestD2 = d2;
      }
    }
    this.visits = visited;
    return best;
  }

  /** Sweep along x: each id pairs with the ids after it until the x gap exceeds maxDist. */
  forEachPair(maxDist: number, visit: PairVisitor): void {
    if (!(maxDist >= 0)) return;
    const list = this.xList;
    const d2 = maxDist * maxDist;
    for (let a = list.next[list.head]!; a !== list.tail; a = list.next[a]!) {
      if (a < this.offset) continue;
      const ida = a - this.offset;
      const ax = this.xs[ida]!;
      const ay = this.ys[ida]!;
      const reach = maxDist + slackFor(ax, maxDist);
      for (let b = list.next[a]!; list.key[b]! - ax <= reach; b = list.next[b]!) {
        if (b < this.offset) continue;
        const idb = b - this.offset;
        const dx = this.xs[idb]! - ax;
        const dy = this.ys[idb]! - ay;
        if (dx * dx + dy * dy <= d2) visit(ida, idb);
      }
    }
  }

  private visitIfNear(n: number, px: number, py: number, r2: number, visit: SpatialVisitor): void {
    if (n < this.offset) return;
    const id = n - this.offset;
    const dx = this.xs[id]! - px;
    const dy = this.ys[id]! - py;
    if (dx * dx + dy * dy <= r2) visit(id);
  }
}
