/**
 * Entities' lives in a World: spawning into a pool slot, being marked gone
 * (despawned or killed: out of the index and of every query at once) and
 * reaped (the slot freed at the next reap point, so no loop over the pool
 * sees an entity vanish under it), eviction by a full 'recycle-oldest'
 * pool, and the side tables growing with the pool.
 */

import { quoted } from '../../vm/bounded-text.js';
import { nameArgumentProblem } from '../../vm/name-argument.js';
import { EntityState } from '../entities/entity-state.js';
import type { HotFieldValues } from '../entities/entity-fields.js';
import type { EntityPool } from '../entities/entity-pool.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { WorldError } from '../errors.js';
import type { DespawnReason, EntityId } from '../events/events.js';
import { clamp, type WorldState } from './world-state.js';

/** A read-only view of one entity, for embedders and tests: its id, its breed's name and its hot fields (entity-fields.ts). */
export interface EntityView extends HotFieldValues {
  readonly id: EntityId;
  readonly breed: string;
}

export class WorldEntities {
  constructor(private readonly state: WorldState) {
    this.watchPool(state.pool);
  }

  /** Take over a pool (a restored one): fresh index, AOI and side tables over it. */
  adoptPool(pool: EntityPool): void {
    this.state.usePool(pool);
    this.watchPool(pool);
  }

  /**
   * Spawn an entity of a breed. Throws WorldError (unknown/abstract breed, bad position, full pool).
   * `id`: the entity keeps an id it was given elsewhere (an import, a mirror), refused if taken here;
   * `mirror`: a read-only copy of another world's entity, spawned without an event.
   */
  spawn(breedName: string, x: number, y: number, as: { readonly id?: EntityId; readonly mirror?: boolean } = {}): EntityRef {
    const s = this.state;
    const badName = nameArgumentProblem('breed name', breedName);
    if (badName !== null) throw new WorldError(badName);
    const breed = s.breeds.get(breedName);
    if (!breed) throw new WorldError(`Unknown breed ${quoted(breedName)}.`);
    if (breed.abstract) throw new WorldError(`Breed ${quoted(breedName)} is abstract and cannot be spawned.`);
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new WorldError('Spawn position must be finite numbers.');
    if (as.id !== undefined && (!Number.isSafeInteger(as.id) || as.id < 1)) throw new WorldError(`An entity id must be a whole number ≥ 1, got ${as.id}.`);
    if (as.id !== undefined && s.slotById.has(as.id)) throw new WorldError(`Entity #${as.id} is already in this world.`);
    this.reuseGoneSlotIfFull();
    const handle = s.pool.spawn();
    const pool = s.pool;
    const slot = pool.indexOf(handle);
    pool.x[slot] = clamp(x, 0, s.options.width);
    pool.y[slot] = clamp(y, 0, s.options.height);
    pool.health[slot] = breed.health;
    pool.maxHealth[slot] = breed.health;
    pool.speed[slot] = breed.speed;
    pool.radius[slot] = breed.radius;
    pool.interest[slot] = Math.min(breed.interest, s.options.maxInterest);
    pool.breed[slot] = breed.index;
    const id = as.id ?? this.freshId();
    s.ids[slot] = id;
    s.dying[slot] = 0;
    s.mirror[slot] = as.mirror === true ? 1 : 0;
    s.slotById.set(id, slot);
    s.states[slot] = new EntityState(breed.speed, breed.health, breed.interest);
    s.refs[slot] = null;
    s.index.insert(slot, pool.x[slot]!, pool.y[slot]!);
    if (as.mirror === true) return s.refAt(slot);
    s.push({ type: 'spawn', tick: s.steps, entity: id, breed: breed.name, x: pool.x[slot]!, y: pool.y[slot]! });
    return s.refAt(slot);
  }

  /** The next id of this world's own: ids taken by imported entities are skipped (a server gives each world its own range, so that is rare). */
  private freshId(): EntityId {
    const s = this.state;
    let id = s.nextId++;
    while (s.slotById.has(id)) id = s.nextId++;
    return id;
  }

  /** Gone for spells at once (out of the index, alive = false, its waiting casts cancelled); the slot is freed at the next reap. */
  markGone(slot: number, reason: DespawnReason): void {
    const s = this.state;
    if (s.dying[slot] === 1) return;
    s.dying[slot] = 1;
    s.index.remove(slot);
    s.reapQueue.push({ slot, reason });
    s.onEntityGone(s.ids[slot]!, reason);
  }

  /** Free the slots of everything marked gone. */
  reap(): void {
    const s = this.state;
    if (s.reapQueue.length === 0) return;
    const queue = s.reapQueue;
    s.reapQueue = [];
    for (const { slot, reason } of queue) this.release(slot, reason);
  }

  /** Reap now unless a step is running (it reaps at its own points). */
  reapOutsideStep(): void {
    if (!this.state.inStep) this.reap();
  }

  /** A snapshot of the living entity in a slot. */
  viewOf(slot: number): EntityView {
    const s = this.state;
    const p = s.pool;
    const state = s.states[slot]!;
    return {
      id: s.ids[slot]!,
      breed: s.breedAt(slot).name,
      x: p.x[slot]!,
      y: p.y[slot]!,
      vx: p.vx[slot]!,
      vy: p.vy[slot]!,
      health: p.health[slot]!,
      maxHealth: state.baseMaxHealth + state.bonus('maxHealth'),
      speed: state.baseSpeed + state.bonus('speed'),
      radius: p.radius[slot]!,
      interest: p.interest[slot]!,
    };
  }

  /** Every living entity, in pool order. */
  views(): EntityView[] {
    const s = this.state;
    const out: EntityView[] = [];
    for (let i = 0; i < s.pool.count; i++) {
      const slot = s.pool.activeAt(i);
      if (s.dying[slot] === 0) out.push(this.viewOf(slot));
    }
    return out;
  }

  private watchPool(pool: EntityPool): void {
    pool.onResize = (capacity) => this.growTo(capacity);
    pool.onEvict = (_handle, slot) => this.evict(slot);
  }

  private release(slot: number, reason: DespawnReason): void {
    const s = this.state;
    const id = s.ids[slot]!;
    const breed = s.breedAt(slot).name;
    // A mirror comes and goes without events: the entity lives on in the world that owns it.
    if (s.mirror[slot] === 0) s.push({ type: 'despawn', tick: s.steps, entity: id, breed, reason });
    s.mirror[slot] = 0;
    s.slotById.delete(id);
    s.memory.releaseEntity(s.states[slot] ?? null);
    s.states[slot] = null;
    s.refs[slot] = null;
    s.dying[slot] = 0;
    // Its buffs stay in the timer heap and are skipped when due: ids are never reused.
    s.pool.despawn(s.pool.handleAt(slot));
  }

  /**
   * A spawn into a full pool takes the slot of an entity already gone (killed
   * or despawned, waiting for its reap) before the pool grows, evicts a
   * living entity or reports it full: the dead go first, with their own reason.
   */
  private reuseGoneSlotIfFull(): void {
    const s = this.state;
    if (s.pool.count < s.pool.capacity || s.reapQueue.length === 0) return;
    const { slot, reason } = s.reapQueue.shift()!;
    this.release(slot, reason);
  }

  /** The pool is about to reuse the oldest entity's slot ('recycle-oldest'); never a gone one (see reuseGoneSlotIfFull). */
  private evict(slot: number): void {
    const s = this.state;
    const id = s.ids[slot]!;
    const queued = s.reapQueue.find((r) => r.slot === slot);
    if (queued === undefined) {
      s.index.remove(slot);
      s.onEntityGone(id, 'evicted');
    } else {
      s.reapQueue = s.reapQueue.filter((r) => r !== queued);
    }
    if (s.mirror[slot] === 0) s.push({ type: 'despawn', tick: s.steps, entity: id, breed: s.breedAt(slot).name, reason: queued?.reason ?? 'evicted' });
    s.mirror[slot] = 0;
    s.slotById.delete(id);
    s.memory.releaseEntity(s.states[slot] ?? null);
    s.states[slot] = null;
    s.refs[slot] = null;
    s.dying[slot] = 0;
  }

  private growTo(capacity: number): void {
    const s = this.state;
    s.index.ensureCapacity(capacity);
    const ids = new Float64Array(capacity);
    ids.set(s.ids);
    s.ids = ids;
    const dying = new Uint8Array(capacity);
    dying.set(s.dying);
    s.dying = dying;
    const mirror = new Uint8Array(capacity);
    mirror.set(s.mirror);
    s.mirror = mirror;
    while (s.states.length < capacity) s.states.push(null);
    while (s.refs.length < capacity) s.refs.push(null);
  }
}
