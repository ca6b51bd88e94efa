/**
 * The observer → subject pairs the area of interest keeps, as a sparse
 * matrix of edges (an orthogonal "cross-linked" list): every edge sits in its
 * observer's out-list and its subject's in-list, so a mover walks exactly
 * the pairs it takes part in, and a hash on (observer, subject) answers
 * "is this pair kept?" in O(1). All storage is typed arrays reused from tick
 * to tick; a steady world allocates nothing here.
 *
 * An edge may be kept without being seen: the cross-linked-list engine keeps
 * every pair inside the observer's square band (a superset), and `seen`
 * marks the pairs inside the interest shape itself — the observed set.
 */

import { copyInto } from './spatial-index.js';

const NONE = -1;
const DELETED = -2;

export class AoiPairs {
  /** Per edge. */
  obs: Int32Array = new Int32Array(0);
  sub: Int32Array = new Int32Array(0);
  /** The subject's identity key when the edge was made (a leave names it even after its slot is reused). */
  subKey: Float64Array = new Float64Array(0);
  /** 1 when the subject is inside the observer's interest shape (it is in the observed set). */
  seen: Uint8Array = new Uint8Array(0);
  /** The update in which `seen` last became 1: a pair that entered this update reports no move. */
  enteredAt: Uint32Array = new Uint32Array(0);
  outNext: Int32Array = new Int32Array(0);
  outPrev: Int32Array = new Int32Array(0);
  inNext: Int32Array = new Int32Array(0);
  inPrev: Int32Array = new Int32Array(0);
  /** Per slot: first edge of its out-list (it observes) and in-list (it is observed). */
  outHead: Int32Array = new Int32Array(0);
  inHead: Int32Array = new Int32Array(0);

  private freeHead = NONE;
  private used = 0;
  private table: Int32Array = new Int32Array(64).fill(NONE);
  private tableUsed = 0;
  private tableDeleted = 0;

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
    this.table.fill(NONE);
    this.tableUsed = 0;
    this.tableDeleted = 0;
  }

  /** The edge (observer o, subject s), or -1. */
  find(o: number, s: number): number {
    const table = this.table;
    const mask = table.length - 1;
    for (let h = hash(o, s) & mask; ; h = (h + 1) & mask) {
      const e = table[h]!;
      if (e === NONE) return NONE;
      if (e >= 0 && this.obs[e] === o && this.sub[e] === s) return e;
    }
  }

  /** Make the edge (o, s), which must not exist. */
  add(o: number, s: number, key: number): number {
    const e = this.allocate();
    this.obs[e] = o;
    this.sub[e] = s;
    this.subKey[e] = key;
    this.seen[e] = 0;
    this.enteredAt[e] = 0;
    const oh = this.outHead[o]!;
    this.outPrev[e] = NONE;
    this.outNext[e] = oh;
    if (oh !== NONE) this.outPrev[oh] = e;
    this.outHead[o] = e;
    const ih = this.inHead[s]!;
    this.inPrev[e] = NONE;
    this.inNext[e] = ih;
    if (ih !== NONE) this.inPrev[ih] = e;
    this.inHead[s] = e;
    this.hashInsert(e);
    return e;
  }

  remove(e: number): void {
    const op = this.outPrev[e]!;
    const on = this.outNext[e]!;
    if (op !== NONE) this.outNext[op] = on;
    else this.outHead[this.obs[e]!] = on;
    if (on !== NONE) this.outPrev[on] = op;
    const ip = this.inPrev[e]!;
    const inn = this.inNext[e]!;
    if (ip !== NONE) this.inNext[ip] = inn;
    else this.inHead[this.sub[e]!] = inn;
    if (inn !== NONE) this.inPrev[inn] = ip;
    this.hashDelete(e);
    this.obs[e] = NONE;
    this.outNext[e] = this.freeHead;
    this.freeHead = e;
    this.used--;
  }

  private edgesMade = 0;

  private allocate(): number {
    this.used++;
    if (this.freeHead !== NONE) {
      const e = this.freeHead;
      this.freeHead = this.outNext[e]!;
      return e;
    }
    if (this.edgesMade === this.obs.length) this.growEdges(Math.max(64, this.obs.length * 2));
    return this.edgesMade++;
  }

  private growEdges(n: number): void {
    this.obs = copyInto(this.obs, new Int32Array(n));
    this.sub = copyInto(this.sub, new Int32Array(n));
    this.subKey = copyInto(this.subKey, new Float64Array(n));
    this.seen = copyInto(this.seen, new Uint8Array(n));
    const entered = new Uint32Array(n);
    entered.set(this.enteredAt);
    this.enteredAt = entered;
    this.outNext = copyInto(this.outNext, new Int32Array(n));
    this.outPrev = copyInto(this.outPrev, new Int32Array(n));
    this.inNext = copyInto(this.inNext, new Int32Array(n));
    this.inPrev = copyInto(this.inPrev, new Int32Array(n));
  }

  private hashInsert(e: number): void {
    if ((this.tableUsed + this.tableDeleted + 1) * 2 > this.table.length) this.rehash();
    const table = this.table;
    const mask = table.length - 1;
    let h = hash(this.obs[e]!, this.sub[e]!) & mask;
    while (table[h]! >= 0) h = (h + 1) & mask;
    if (table[h] === DELETED) this.tableDeleted--;
    table[h] = e;
    this.tableUsed++;
  }

  private hashDelete(e: number): void {
    const table = this.table;
    const mask = table.length - 1;
    let h = hash(this.obs[e]!, this.sub[e]!) & mask;
    while (table[h] !== e) h = (h + 1) & mask;
    table[h] = DELETED;
    this.tableUsed--;
    this.tableDeleted++;
  }

  /** Rebuild the table, doubling it when live entries fill more than a quarter. */
  private rehash(): void {
    let size = this.table.length;
    while ((this.tableUsed + 1) * 4 > size) size *= 2;
    const table = new Int32Array(size).fill(NONE);
    const mask = size - 1;
    for (const e of this.table) {
      if (e < 0) continue;
      let h = hash(this.obs[e]!, this.sub[e]!) & mask;
      while (table[h] !== NONE) h = (h + 1) & mask;
      table[h] = e;
    }
    this.table = table;
    this.tableDeleted = 0;
  }
}

function hash(o: number, s: number): number {
  let h = Math.imul(o, 0x9e3779b1) ^ Math.imul(s + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}
