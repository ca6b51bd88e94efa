/**
 * Mirrors (ghosts): read-only copies of entities another world owns — a
 * neighbouring zone's entities near the border — so that `nearby`,
 * `nearest` and the AOI see across it. A mirror is in the pool, the spatial
 * index and the AOI like any entity, but it runs no tick spell and no AOI
 * handler, does not move by its velocity, watches nothing (interest 0), comes
 * and goes without spawn / despawn events, cannot cast or be despawned by a
 * spell, and does not die here. What a spell does to it — damage, healing,
 * a buff, a property set, speech — is kept for the owner's world
 * (World.takeMirrorEffects → World.applyMirrorEffect), which does it and
 * sends back the health and position that result with the next update;
 * moving it is refused (its own world moves it).
 */

import { WorldError } from '../errors.js';
import type { EntityId } from '../events/events.js';
import type { WorldEntities } from './world-entities.js';
import { NONE, clamp, type MirrorEffect, type WorldState } from './world-state.js';

/** What a mirror shows of the entity it copies. */
export interface MirrorView {
  readonly id: EntityId;
  readonly breed: string;
  readonly x: number;
  readonly y: number;
  readonly health: number;
}

export class WorldMirrors {
  constructor(
    private readonly state: WorldState,
    private readonly entities: WorldEntities,
  ) {}

  spawn(m: MirrorView): void {
    const s = this.state;
    this.entities.spawn(m.breed, m.x, m.y, { id: m.id, mirror: true });
    const slot = s.liveSlotOf(m.id);
    s.pool.interest[slot] = 0;
    s.pool.health[slot] = m.health;
  }

  update(id: EntityId, x: number, y: number, health: number): void {
    const slot = this.slotOf(id, 'updateMirror');
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(health)) throw new WorldError(`updateMirror() needs finite numbers, got (${x}, ${y}, ${health}).`);
    const s = this.state;
    s.pool.x[slot] = clamp(x, 0, s.options.width);
    s.pool.y[slot] = clamp(y, 0, s.options.height);
    s.pool.health[slot] = health;
    // The index follows at the next step, as it does for entities that move by velocity.
  }

  remove(id: EntityId): void {
    this.entities.markGone(this.slotOf(id, 'removeMirror'), 'despawned');
    this.entities.reapOutsideStep();
  }

  isMirror(id: EntityId): boolean {
    const slot = this.state.liveSlotOf(id);
    return slot !== NONE && this.state.mirror[slot] === 1;
  }

  /** What spells did to mirrors since the last call, in the order they did it. */
  takeEffects(): MirrorEffect[] {
    const taken = this.state.mirrorEffects;
    this.state.mirrorEffects = [];
    return taken;
  }

  private slotOf(id: EntityId, call: string): number {
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE || this.state.mirror[slot] !== 1) throw new WorldError(`${call}(): #${id} is not a mirror in this world.`);
    return slot;
  }
}
