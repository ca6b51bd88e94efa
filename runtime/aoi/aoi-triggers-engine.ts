/**
 * The range-trigger engine of the area of interest ('triggers'): KBEngine's
 * range triggers (RangeTriggers, aoi-triggers.ts) find the pairs that may
 * have come into an observer's band, and the pairs are kept as a
 * cross-linked matrix of edges (AoiPairs, aoi-pairs.ts). An update re-tests
 * only the edges of changed entities: a pair kept in the band but outside
 * the interest shape is held unseen, so a subject crossing the shape's edge
 * is an enter or a leave without another search.
 */

import type { AoiChanges, AoiEngine, AoiFrame, AoiListener, SavedObserver } from './aoi-engine.js';
import type { AoiOutbox } from './aoi-outbox.js';
import { ENTER, LEAVE, MOVE } from './aoi-outbox.js';
import { AoiPairs } from './aoi-pairs.js';
import { RangeTriggers } from './aoi-triggers.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';

const NONE = -1;

export class TriggersEngine implements AoiEngine {
  private readonly triggers: RangeTriggers;
  private readonly pairs = new AoiPairs();
  private outbox: AoiOutbox | null = null;
  /**
   * Restored pairs whose subject no longer exists, flattened as observer
   * slot, observer key, subject key, …: each becomes a leave at the next
   * update, as it would have without the restore.
   */
  private readonly ghosts: number[] = [];
  private readonly consider = (o: number, s: number): void => this.considerPair(o, s);

  constructor(
    private readonly frame: AoiFrame,
    index: SpatialIndex,
  ) {
    this.triggers = new RangeTriggers(frame, index);
  }

  grow(capacity: number): void {
    this.pairs.ensureSlots(capacity);
    this.triggers.grow(capacity);
  }

  clear(): void {
    this.pairs.clear();
    this.triggers.clear();
    this.ghosts.length = 0;
  }

  get holdsNothing(): boolean {
    return this.pairs.size === 0 && this.ghosts.length === 0;
  }

  update(changes: AoiChanges, outbox: AoiOutbox, _emit: AoiListener): void {
    this.outbox = outbox;
    const { changed, changedCount: count } = changes;
    this.dropGone(changes);
    this.leaveGhosts();
    this.triggers.place(changed, count);
    for (let i = 0; i < count; i++) this.retest(changed[i]!);
    this.triggers.collect(this.consider);
    // Keep each observer's pairs contiguous, in the active order (gone slots' lists are dropped already).
    const pool = this.frame.pool;
    if (this.pairs.scattered) this.pairs.compact(pool.activeSlots, pool.count);
    this.outbox = null;
  }

  observedBy(slot: number): number[] {
    const out: number[] = [];
    const p = this.pairs;
    for (let e = p.outHead[slot]!; e !== NONE; e = p.outNextOf(e)) if (p.seenOf(e) === 1) out.push(p.subKey[e]!);
    const ghosts = this.ghosts;
    const key = this.frame.owner[slot];
    for (let i = 0; i < ghosts.length; i += 3) if (ghosts[i] === slot && ghosts[i + 1] === key) out.push(ghosts[i + 2]!);
    return out.sort((a, b) => a - b);
  }

  restore(placed: AoiChanges, observers: readonly SavedObserver[]): void {
    const { owner } = this.frame;
    const triggers = this.triggers;
    triggers.placeAfresh(placed.changed, placed.changedCount);
    triggers.collect((o, s) => {
      if (o === s || owner[o] === 0 || owner[s] === 0) return;
      if (triggers.keeps(o, s) && this.pairs.find(o, s) === NONE) this.pairs.add(o, s, owner[s]!);
    });
    for (const { slot: o, key, seen } of observers) {
      for (const subjectKey of seen) {
        const s = this.frame.slotOfKey(subjectKey);
        if (s < 0 || s === o) {
          if (subjectKey !== key) this.ghosts.push(o, key, subjectKey);
          continue;
        }
        let e = this.pairs.find(o, s);
        if (e === NONE) e = this.pairs.add(o, s, subjectKey);
        this.pairs.setSeen(e, 1);
      }
    }
  }

  /**
   * Drop the pairs of entities that are gone: what they observed goes
   * silently (a despawned observer is told nothing), and each observer that
   * saw them gets a leave.
   */
  private dropGone({ gone, goneCount }: AoiChanges): void {
    const p = this.pairs;
    const outbox = this.outbox!;
    // What the gone observed first, so that no leave below is addressed to a gone observer.
    for (let i = 0; i < goneCount; i++) {
      const slot = gone[i]!;
      for (let e = p.outHead[slot]!; e !== NONE; ) {
        const next = p.outNextOf(e);
        p.remove(e);
        e = next;
      }
    }
    for (let i = 0; i < goneCount; i++) {
      const slot = gone[i]!;
      for (let e = p.inHead[slot]!; e !== NONE; ) {
        const next = p.inNextOf(e);
        if (p.seenOf(e) === 1) outbox.push(p.obsOf(e), p.subKey[e]!, LEAVE);
        p.remove(e);
        e = next;
      }
      this.triggers.remove(slot);
    }
  }

  /** Leaves for restored pairs whose subject was already gone, to observers still there. */
  private leaveGhosts(): void {
    const ghosts = this.ghosts;
    const { owner, bornAt, epoch } = this.frame;
    for (let i = 0; i < ghosts.length; i += 3) {
      const o = ghosts[i]!;
      if (owner[o] === ghosts[i + 1] && bornAt[o] !== epoch) this.outbox!.push(o, ghosts[i + 2]!, LEAVE);
    }
    ghosts.length = 0;
  }

  /**
   * Re-test every pair a changed entity takes part in, as observer and as
   * subject; an observer that still sees it after it moved gets a move.
   */
  private retest(slot: number): void {
    const p = this.pairs;
    for (let e = p.outHead[slot]!; e !== NONE; ) {
      const next = p.outNextOf(e);
      this.retestEdge(e);
      e = next;
    }
    const moved = this.frame.moveEvents && this.frame.movedAt[slot] === this.frame.epoch;
    for (let e = p.inHead[slot]!; e !== NONE; ) {
      const next = p.inNextOf(e);
      if (this.retestEdge(e) && moved) this.outbox!.push(p.obsOf(e), p.subKey[e]!, MOVE);
      e = next;
    }
  }

  /** Re-test one kept pair; true when its subject stays seen since the last update (the pair a move is about). */
  private retestEdge(e: number): boolean {
    const p = this.pairs;
    const o = p.obsOf(e);
    const s = p.subOf(e);
    // The band is never narrower than the shape: inside() first answers both questions in the common case.
    const now = this.frame.inside(o, s) ? 1 : 0;
    if (now === 0 && !this.triggers.keeps(o, s)) {
      if (p.seenOf(e) === 1) this.outbox!.push(o, p.subKey[e]!, LEAVE);
      p.remove(e);
      return false;
    }
    if (now !== p.seenOf(e)) {
      p.setSeen(e, now);
      if (now === 1) p.setEntered(e, this.frame.epoch);
      this.outbox!.push(o, p.subKey[e]!, now === 1 ? ENTER : LEAVE);
    }
    return now === 1 && p.enteredOf(e) !== this.frame.epoch;
  }

  /** A pair the triggers found: keep it if it is in the band and not kept yet. */
  private considerPair(o: number, s: number): void {
    const owner = this.frame.owner;
    // An id in the index the pool does not hold live (owner 0) is no subject.
    if (o === s || owner[s] === 0 || !this.triggers.keeps(o, s) || this.pairs.find(o, s) !== NONE) return;
    const e = this.pairs.add(o, s, owner[s]!);
    if (this.frame.inside(o, s)) {
      this.pairs.setSeen(e, 1);
      this.pairs.setEntered(e, this.frame.epoch);
      this.outbox!.push(o, owner[s]!, ENTER);
    }
  }
}
