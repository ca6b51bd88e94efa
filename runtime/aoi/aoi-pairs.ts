/**
 * The observer → subject pairs the area of interest keeps, as a sparse
 * matrix of edges (an orthogonal "cross-linked" list): every edge sits in its
 * observer's out-list and its subject's in-list, so a mover walks exactly
 * the pairs it takes part in, and a hash on (observer, subject) answers
 * "is this pair kept?" in O(1). All storage is typed arrays reused from tick
 * to tick; a steady world allocates nothing here.
 *
 * An edge may be kept without being seen: the range-trigger engine (axis
 * lists, the only one that keeps pairs this way) keeps every pair inside the
 * observer's square band (a superset), and `seen` marks the pairs inside the
 * interest shape itself — the observed set.
 */

import { copyInto } from '../spatial/spatial-index.js';

const NONE = -1;

/** Fields of an edge record, interleaved so a walk along a list touches one cache line per edge. */
const OBS = 0;
const SUB = 1;
const OUT_NEXT = 2;
const OUT_PREV = 3;
const IN_NEXT = 4;
const IN_PREV = 5;
const SEEN = 6;
const ENTERED = 7;
const STRIDE = 8;

export class AoiPairs {
  /** Per edge, STRIDE int32s: observer, subject, out-list links, in-list links, seen, the update it entered in. */
  private rec: Int32Array = new Int32Array(0);
  /** The subject's identity key when the edge was made (a leave names it even after its slot is reused). */
  subKey: Float64Array = new Float64Array(0);

  obsOf(e: number): number {
    return this.rec[e * STRIDE + OBS]!;
  }
  subOf(e: number): number {
    return this.rec[e * STRIDE + SUB]!;
  }
  outNextOf(e: number): number {
    return this.rec[e * STRIDE + OUT_NEXT]!;
  }
  inNextOf(e: number): number {
    return this.rec[e * STRIDE + IN_NEXT]!;
  }
  /** 1 when the subject is inside the observer's interest shape (it is in the observed set). */
  seenOf(e: number): number {
    return this.rec[e * STRIDE + SEEN]!;
  }
  setSeen(e: number, seen: number): void {
    this.rec[e * STRIDE + SEEN] = seen;
  }
  /** The update in which `seen` last became 1: a pair that entered this update reports no move. */
  enteredOf(e: number): number {
    return this.rec[e * STRIDE + ENTERED]! >>> 0;
  }
  setEntered(e: number, epoch: number): void {
    this.rec[e * STRIDE + ENTERED] = epoch | 0;
  }

  /** Per slot: first edge of its out-list (it observes) and in-list (it is observed). */
  outHead: Int32Array = new Int32Array(0);
  inHead: Int32Array = new Int32Array(0);

  private freeHead = NONE;
  private used = 0;
  private table: Int32Array = new Int32Array(64).fill(NONE);
  private tableUsed = 0;
  private edgesMade = 0;
  /** Scratch of compact(): the other buffer of records, and old edge → new edge. */
  private spare: Int32Array = new Int32Array(0);
  private spareKey: Float64Array = new Float64Array(0);
  private renumber: Int32Array = new Int32Array(0);
  private run: Int32Array = new Int32Array(64);
  /** Edges made since the last compact(): how far the layout has drifted from list order. */
  private madeSinceCompact = 0;

  /** True once enough edges were made since the last compact() that their scatter costs more than a compaction. */
  get scattered(): boolean {
    return this.madeSinceCompact * 8 > this.used;
  }

  get size(): number {
    return this.used;
  }

  ensureSlots(capacity: number): void {
    if (capacity <= this.outHead.length) return;
    const grow = (from: Int32Array): Int32Array => {
      const to = new Int32Array(capacity).fill(NONE);
      to.set(from);
      return to;
    };
    this.outHead = grow(this.outHead);
    this.inHead = grow(this.inHead);
  }

  clear(): void {
    this.outHead.fill(NONE);
    this.inHead.fill(NONE);
    this.freeHead = NONE;
    this.used = 0;
    this.edgesMade = 0;
    this.madeSinceCompact = 0;
    this.table.fill(NONE);
    this.tableUsed = 0;
  }

  /** The edge (observer o, subject s), or -1. */
  find(o: number, s: number): number {
    const table = this.table;
    const mask = table.length - 1;
    for (let h = hash(o, s) & mask; ; h = (h + 1) & mask) {
      const e = table[h]!;
      if (e === NONE) return NONE;
      if (this.obsOf(e) === o && this.subOf(e) === s) return e;
    }
  }

  /** Make the edge (o, s), which must not exist. */
  add(o: number, s: number, key: number): number {
    const e = this.allocate();
    const r = this.rec;
    const b = e * STRIDE;
    r[b + OBS] = o;
    r[b + SUB] = s;
    r[b + SEEN] = 0;
    r[b + ENTERED] = 0;
    this.subKey[e] = key;
    const oh = this.outHead[o]!;
    r[b + OUT_PREV] = NONE;
    r[b + OUT_NEXT] = oh;
    if (oh !== NONE) r[oh * STRIDE + OUT_PREV] = e;
    this.outHead[o] = e;
    const ih = this.inHead[s]!;
    r[b + IN_PREV] = NONE;
    r[b + IN_NEXT] = ih;
    if (ih !== NONE) r[ih * STRIDE + IN_PREV] = e;
    this.inHead[s] = e;
    this.hashInsert(e);
    return e;
  }

  remove(e: number): void {
    const r = this.rec;
    const b = e * STRIDE;
    const op = r[b + OUT_PREV]!;
    const on = r[b + OUT_NEXT]!;
    if (op !== NONE) r[op * STRIDE + OUT_NEXT] = on;
    else this.outHead[r[b + OBS]!] = on;
    if (on !== NONE) r[on * STRIDE + OUT_PREV] = op;
    const ip = r[b + IN_PREV]!;
    const inn = r[b + IN_NEXT]!;
    if (ip !== NONE) r[ip * STRIDE + IN_NEXT] = inn;
    else this.inHead[r[b + SUB]!] = inn;
    if (inn !== NONE) r[inn * STRIDE + IN_PREV] = ip;
    this.hashDelete(e);
    r[b + OBS] = NONE;
    r[b + OUT_NEXT] = this.freeHead;
    this.freeHead = e;
    this.used--;
  }

  /**
   * Renumber the edges so that each observer's out-list is one contiguous
   * run in ascending subject key, observers in the order given
   * (`order[0..count)`, which must hold every slot that has an out-list): a
   * later walk of an observer's pairs then reads memory in order instead of
   * hopping over records scattered by frees and reuses, and meets subjects in
   * delivery order. In-lists keep their order; the hash (if any) is rebuilt.
   */
  compact(order: Int32Array, count: number): void {
    const n = this.used;
    if (n === 0) return;
    if (this.spare.length < this.rec.length) {
      this.spare = new Int32Array(this.rec.length);
      this.spareKey = new Float64Array(this.subKey.length);
    }
    if (this.renumber.length < this.edgesMade) this.renumber = new Int32Array(this.subKey.length);
    const from = this.rec;
    const to = this.spare;
    const fromKey = this.subKey;
    const toKey = this.spareKey;
    const renumber = this.renumber;
    let next = 0;
    for (let i = 0; i < count; i++) {
      const o = order[i]!;
      let e = this.outHead[o]!;
      if (e === NONE) continue;
      // The run in ascending subject key: a walk then meets the subjects in the order notifications are delivered.
      let runLength = 0;
      for (; e !== NONE; e = from[e * STRIDE + OUT_NEXT]!) {
        if (runLength === this.run.length) this.run = copyInto(this.run, new Int32Array(runLength * 2));
        const key = fromKey[e]!;
        let m = runLength++;
        while (m > 0 && fromKey[this.run[m - 1]!]! > key) {
          this.run[m] = this.run[m - 1]!;
          m--;
        }
        this.run[m] = e;
      }
      this.outHead[o] = next;
      for (let j = 0; j < runLength; j++) {
        const a = this.run[j]! * STRIDE;
        const b = next * STRIDE;
        renumber[this.run[j]!] = next;
        to[b + OBS] = from[a + OBS]!;
        to[b + SUB] = from[a + SUB]!;
        to[b + OUT_PREV] = j === 0 ? NONE : next - 1;
        to[b + OUT_NEXT] = j === runLength - 1 ? NONE : next + 1;
        to[b + IN_NEXT] = from[a + IN_NEXT]!;
        to[b + IN_PREV] = from[a + IN_PREV]!;
        to[b + SEEN] = from[a + SEEN]!;
        to[b + ENTERED] = from[a + ENTERED]!;
        toKey[next] = fromKey[this.run[j]!]!;
        next++;
      }
    }
    for (let f = 0; f < n; f++) {
      const b = f * STRIDE;
      const inn = to[b + IN_NEXT]!;
      if (inn !== NONE) to[b + IN_NEXT] = renumber[inn]!;
      const ip = to[b + IN_PREV]!;
      if (ip !== NONE) to[b + IN_PREV] = renumber[ip]!;
      else this.inHead[to[b + SUB]!] = f;
    }
    this.spare = from;
    this.spareKey = fromKey;
    this.rec = to;
    this.subKey = toKey;
    this.freeHead = NONE;
    this.edgesMade = n;
    this.madeSinceCompact = 0;
    this.table.fill(NONE);
    this.tableUsed = 0;
    for (let e = 0; e < n; e++) this.hashInsert(e);
  }

  private allocate(): number {
    this.used++;
    this.madeSinceCompact++;
    if (this.freeHead !== NONE) {
      const e = this.freeHead;
      this.freeHead = this.outNextOf(e);
      return e;
    }
    if (this.edgesMade === this.subKey.length) this.growEdges(Math.max(64, this.subKey.length * 2));
    return this.edgesMade++;
  }

  private growEdges(n: number): void {
    this.rec = copyInto(this.rec, new Int32Array(n * STRIDE));
    this.subKey = copyInto(this.subKey, new Float64Array(n));
  }

  private hashInsert(e: number): void {
    if ((this.tableUsed + 1) * 2 > this.table.length) this.rehash(this.table.length * 2);
    const table = this.table;
    const mask = table.length - 1;
    let h = hash(this.obsOf(e), this.subOf(e)) & mask;
    while (table[h] !== NONE) h = (h + 1) & mask;
    table[h] = e;
    this.tableUsed++;
  }

  /**
   * Linear probing with backward-shift deletion: later entries of the run
   * move up into the hole, so no tombstones pile up and probes stay short
   * however many pairs come and go.
   */
  private hashDelete(e: number): void {
    const table = this.table;
    const mask = table.length - 1;
    let hole = hash(this.obsOf(e), this.subOf(e)) & mask;
    while (table[hole] !== e) hole = (hole + 1) & mask;
    for (let j = (hole + 1) & mask; table[j] !== NONE; j = (j + 1) & mask) {
      const f = table[j]!;
      const home = hash(this.obsOf(f), this.subOf(f)) & mask;
      // f may move into the hole unless its home lies cyclically in (hole, j].
      const stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (stays) continue;
      table[hole] = f;
      hole = j;
    }
    table[hole] = NONE;
    this.tableUsed--;
  }

  private rehash(size: number): void {
    const old = this.table;
    const table = new Int32Array(size).fill(NONE);
    const mask = size - 1;
    for (let i = 0; i < old.length; i++) {
      const e = old[i]!;
      if (e === NONE) continue;
      let h = hash(this.obsOf(e), this.subOf(e)) & mask;
      while (table[h] !== NONE) h = (h + 1) & mask;
      table[h] = e;
    }
    this.table = table;
  }
}

function hash(o: number, s: number): number {
  let h = Math.imul(o, 0x9e3779b1) ^ Math.imul(s + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}
