/**
 * Spatial queries on a world's living entities, over the same spatial index
 * the spells' `nearby`, `within` and `nearest` read — one answer for the
 * game's code and its spells: radius results nearest first (ties by id),
 * `nearest` ties to the index's lowest slot, breed-or-tag filters as
 * `e.is(…)` means them. The host API charges its callers fuel for the
 * visits these report; the embedder's own calls are not charged.
 */

import type { EntityId } from '../events/events.js';
import type { WorldState } from './world-state.js';

/** Sort slots nearest to (x, y) first, ties by entity id: the order `nearby` and `within` return. */
export function sortNearestFirst(s: WorldState, x: number, y: number, slots: number[]): void {
  const d2 = (slot: number): number => (s.pool.x[slot]! - x) ** 2 + (s.pool.y[slot]! - y) ** 2;
  slots.sort((a, b) => d2(a) - d2(b) || s.ids[a]! - s.ids[b]!);
}

/** A filter for the index's nearest(): the slots whose breed is, or descends from, `breedOrTag`, or carries it as a tag. */
export function breedOrTagFilter(s: WorldState, breedOrTag: string, counted?: { visited: number }): (slot: number) => boolean {
  return (slot) => {
    if (counted) counted.visited++;
    const breed = s.breedAt(slot);
    return s.breeds.isA(breed.index, breedOrTag) || breed.tags.includes(breedOrTag);
  };
}

export class WorldQueries {
  constructor(private readonly state: WorldState) {}

  /** Ids of the living entities within r of (x, y), nearest first. */
  nearby(x: number, y: number, r: number): EntityId[] {
    const slots: number[] = [];
    this.state.index.queryRadius(x, y, r, slots);
    sortNearestFirst(this.state, x, y, slots);
    return slots.map((slot) => this.state.ids[slot]!);
  }

  /** Ids of the living entities in [minX, maxX] × [minY, maxY] (edges included), in id order. */
  inRect(minX: number, minY: number, maxX: number, maxY: number): EntityId[] {
    const ids: EntityId[] = [];
    this.state.index.forEachInRect(minX, minY, maxX, maxY, (slot) => ids.push(this.state.ids[slot]!));
    return ids.sort((a, b) => a - b);
  }

  /** The living entity closest to (x, y) within maxR, optionally of a breed or tag and other than `exclude`; null when none. */
  nearest(x: number, y: number, maxR: number, breedOrTag: string | null, excludeSlot: number): EntityId | null {
    const s = this.state;
    const accept = breedOrTag === null ? null : breedOrTagFilter(s, breedOrTag);
    const found = s.index.nearest(x, y, maxR, accept, excludeSlot);
    return found < 0 ? null : s.ids[found]!;
  }
}
