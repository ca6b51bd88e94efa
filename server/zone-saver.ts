/**
 * A zone's saves to the ownership store (what a survivor takes the zone over
 * from), off the step's critical path. A save is a *round*: the entities the
 * zone owns when it starts are exported a slice at a time, a few
 * milliseconds' worth after each step, so a zone of 10,000 scripted
 * entities keeps its 20 Hz instead of stopping for the whole export (~0.7 s).
 * Only what changed since it was last written goes to the store (the Dirty
 * Flag pattern: a cheap hash of each entity's saved text is kept), and the
 * round ends with one write of the changes and the zone's mark. Every round
 * visits every entity, so each is written at least once per round in which
 * it changed; a stop (drain) writes everything at once.
 */

import type { EntityId } from '../runtime/events/events.js';
import type { OwnershipStore, ZoneMark } from './ownership-store.js';

export interface ZoneSaverHost {
  readonly zone: string;
  readonly store: OwnershipStore;
  /** The entities the zone owns now. */
  owned(): Iterable<EntityId>;
  owns(id: EntityId): boolean;
  /** The entity's saved text (its export and what travels beside it). */
  pack(id: EntityId): string;
  mark(): ZoneMark;
}

interface Round {
  readonly ids: EntityId[];
  next: number;
  readonly changed: Map<EntityId, string>;
  readonly hashes: Map<EntityId, number>;
  readonly tick: number;
}

/** Entities exported between two looks at the clock. */
const CLOCK_EVERY = 16;

export class ZoneSaver {
  /** A cheap hash of each entity's text as last written. */
  private readonly written = new Map<EntityId, number>();
  private round: Round | null = null;
  private writing: Promise<void> | null = null;
  /** Entities written and visited in the last round (for the bench and the status). */
  lastRound = { visited: 0, written: 0 };
  /** Entities a round could not export (their last save stands). */
  unexportable = 0;

  constructor(
    private readonly host: ZoneSaverHost,
    /** Milliseconds of export a step may spend on a round (Infinity: the whole round at once). */
    private readonly sliceMs: number,
  ) {}

  get busy(): boolean {
    return this.round !== null || this.writing !== null;
  }

  /** Start a round (unless one is under way). */
  start(tick: number): void {
    if (this.busy) return;
    this.round = { ids: [...this.host.owned()], next: 0, changed: new Map(), hashes: new Map(), tick };
  }

  /** After a step: export the next slice of the round; the round's end writes what changed. */
  continue(onError: (error: unknown) => void): void {
    const round = this.round;
    if (round === null) return;
    const until = performance.now() + this.sliceMs;
    while (round.next < round.ids.length) {
      for (let n = 0; n < CLOCK_EVERY && round.next < round.ids.length; n++) this.visit(round, round.ids[round.next++]!);
      if (performance.now() >= until) break;
    }
    if (round.next < round.ids.length) return;
    this.round = null;
    this.writing = this.write(round, { ...this.host.mark(), tick: round.tick })
      .catch(onError)
      .finally(() => (this.writing = null));
  }

  /** Save everything now (stopping, a zone's first save): after the write in flight; the round under way is replaced. */
  async saveAll(tick: number): Promise<void> {
    while (this.writing !== null) await this.writing.catch(() => {});
    this.round = null;
    const round: Round = { ids: [...this.host.owned()], next: 0, changed: new Map(), hashes: new Map(), tick };
    for (const id of round.ids) this.visit(round, id, true);
    await this.write(round, { ...this.host.mark(), tick });
  }

  /** The entity left the zone (handed over, gone): its saved text is the new owner's, or gone. */
  forget(id: EntityId): void {
    this.written.delete(id);
  }

  private visit(round: Round, id: EntityId, always = false): void {
    if (!this.host.owns(id)) return;
    let text: string;
    try {
      text = this.host.pack(id);
    } catch {
      // It cannot be exported now (a cast on a module a reload replaced): its last save stands until it can.
      this.unexportable++;
      return;
    }
    const hash = textHash(text);
    if (!always && this.written.get(id) === hash) return;
    round.changed.set(id, text);
    round.hashes.set(id, hash);
  }

  private async write(round: Round, mark: ZoneMark): Promise<void> {
    await this.host.store.saveZone(this.host.zone, mark, round.changed);
    for (const [id, hash] of round.hashes) if (this.host.owns(id)) this.written.set(id, hash);
    this.lastRound = { visited: round.ids.length, written: round.changed.size };
  }
}

/** FNV-1a over the text's UTF-16 units: equal texts, equal hashes; a change shows but for a 1 in 2³² chance (then the entity is written next time it changes). */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
