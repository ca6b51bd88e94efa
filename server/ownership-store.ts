/**
 * Who owns each entity: exactly one zone at any moment, with an epoch that
 * goes up at every change (SpatialOS's single write authority; KBEngine's
 * real entity). Every change is a compare-and-set on (zone, epoch), so a
 * message from a stale owner — an old epoch — is refused, never applied twice.
 *
 * The store also keeps each zone's saved entities (what a zone restarts from
 * after its process dies), changed in the same atomic step as the owner: an
 * entity handed over moves from the source's saved entities to the target's
 * as its owner changes, so a crash at any moment finds it in exactly one.
 */

import type { EntityId } from '../runtime/events/events.js';

/** Where a zone was at its last save: its tick, and the next id it would give an entity. */
export interface ZoneMark {
  readonly tick: number;
  readonly nextId: number;
}

export interface OwnerRecord {
  readonly zone: string;
  readonly epoch: number;
}

/** What a compare-and-set answers: whether it changed the record, and the record as it is now (null: no record). */
export interface OwnershipChange {
  readonly ok: boolean;
  readonly record: OwnerRecord | null;
}

export interface OwnershipStore {
  /** Record a new entity as `zone`'s (epoch 1) unless it has an owner; answers the record as it is now. */
  claim(id: EntityId, zone: string): Promise<OwnerRecord>;
  /**
   * Hand an entity from `from` at `epoch` to `to` (epoch + 1), moving its saved
   * state (`saved`: the exported entity as JSON) from `from`'s saved entities to `to`'s.
   * Refused (ok false) unless the record is exactly (from, epoch).
   */
  transfer(id: EntityId, from: string, epoch: number, to: string, saved: string): Promise<OwnershipChange>;
  /** Keep an entity at `zone`, bumping the epoch (so offers made at `epoch` are refused): a timed-out hand-over taken back, a zone restarting. */
  reclaim(id: EntityId, zone: string, epoch: number): Promise<OwnershipChange>;
  /** The owner record, or null. */
  owner(id: EntityId): Promise<OwnerRecord | null>;
  /** The entity is gone for good (killed, despawned) at its owner `zone`: its record and saved state go. */
  forget(id: EntityId, zone: string): Promise<void>;
  /** Save a zone's entities (id → exported entity JSON), replacing each one's saved state, with the zone's tick and next entity id. */
  saveZone(zone: string, mark: ZoneMark, entities: ReadonlyMap<EntityId, string>): Promise<void>;
  /** A zone's saved entities and the mark of its last save (entities handed in since are there too). */
  loadZone(zone: string): Promise<ZoneMark & { entities: Map<EntityId, string> }>;
  close(): Promise<void>;
}
