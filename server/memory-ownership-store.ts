/**
 * The ownership store of a server in one process (no Redis): plain maps,
 * every change synchronous, so each one is atomic by construction.
 */

import type { EntityId } from '../runtime/events/events.js';
import type { OwnerRecord, OwnershipChange, OwnershipStore, ZoneMark } from './ownership-store.js';

export class MemoryOwnershipStore implements OwnershipStore {
  private readonly owners = new Map<EntityId, OwnerRecord>();
  private readonly saved = new Map<string, { mark: ZoneMark; entities: Map<EntityId, string> }>();

  async claim(id: EntityId, zone: string): Promise<OwnerRecord> {
    const now = this.owners.get(id);
    if (now !== undefined) return now;
    const record = { zone, epoch: 1 };
    this.owners.set(id, record);
    return record;
  }

  async transfer(id: EntityId, from: string, epoch: number, to: string, saved: string): Promise<OwnershipChange> {
    const now = this.owners.get(id) ?? null;
    if (now === null || now.zone !== from || now.epoch !== epoch) return { ok: false, record: now };
    const record = { zone: to, epoch: epoch + 1 };
    this.owners.set(id, record);
    this.zoneEntities(from).delete(id);
    this.zoneEntities(to).set(id, saved);
    return { ok: true, record };
  }

  async reclaim(id: EntityId, zone: string, epoch: number): Promise<OwnershipChange> {
    const now = this.owners.get(id) ?? null;
    if (now === null || now.zone !== zone || now.epoch !== epoch) return { ok: false, record: now };
    const record = { zone, epoch: epoch + 1 };
    this.owners.set(id, record);
    return { ok: true, record };
  }

  async owner(id: EntityId): Promise<OwnerRecord | null> {
    return this.owners.get(id) ?? null;
  }

  async forget(id: EntityId, zone: string): Promise<void> {
    if (this.owners.get(id)?.zone === zone) this.owners.delete(id);
    this.zoneEntities(zone).delete(id);
  }

  async saveZone(zone: string, mark: ZoneMark, entities: ReadonlyMap<EntityId, string>): Promise<void> {
    const saved = this.zoneEntities(zone);
    for (const [id, text] of entities) saved.set(id, text);
    this.saved.get(zone)!.mark = mark;
  }

  async loadZone(zone: string): Promise<ZoneMark & { entities: Map<EntityId, string> }> {
    const saved = this.saved.get(zone);
    return { ...(saved?.mark ?? { tick: 0, nextId: 0 }), entities: new Map(saved?.entities ?? []) };
  }

  async close(): Promise<void> {}

  private zoneEntities(zone: string): Map<EntityId, string> {
    let saved = this.saved.get(zone);
    if (saved === undefined) this.saved.set(zone, (saved = { mark: { tick: 0, nextId: 0 }, entities: new Map() }));
    return saved.entities;
  }
}
