/**
 * What the host API's functions (runtime/host/host-api.ts) do to a World: damage
 * and healing, spawning and despawning, movement, spatial queries, effects
 * for observers (sound, particles, speech), buffs and the seeded random
 * source. Each cast holds its world's WorldGameHost as `cast.host`;
 * arguments arrive already checked by host-api.ts. It is one of the world's
 * parts (it reads and changes the WorldState), so it lives here: host/ holds
 * the table and the GameHost contract, and imports nothing of world/'s code.
 */

import { HostError } from '../../vm/errors.js';
import type { HostContext } from '../../vm/host.js';
import type { Value } from '../../vm/value.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { WorldError } from '../errors.js';
import { eventText, type CastContext, type GameHost } from '../host/host-api.js';
import type { WorldBuffs } from './world-buffs.js';
import type { WorldEntities } from './world-entities.js';
import type { WorldProperties } from './world-properties.js';
import { breedOrTagFilter, sortNearestFirst } from './world-queries.js';
import { NONE, type WorldState } from './world-state.js';

/** Most particles one particles() call reports. */
const MAX_PARTICLES = 10_000;

export class WorldGameHost implements GameHost {
  constructor(
    private readonly state: WorldState,
    private readonly entities: WorldEntities,
    private readonly properties: WorldProperties,
    private readonly buffs: WorldBuffs,
  ) {}

  owns(entity: EntityRef): boolean {
    return entity.world === this.state.access;
  }

  get time(): number {
    return this.state.time;
  }

  damage(target: EntityRef, amount: number, cast: CastContext): number {
    const s = this.state;
    const slot = s.slotOfRef(target);
    const before = s.pool.health[slot]!;
    const dealt = Math.min(before, amount);
    s.pool.health[slot] = before - dealt;
    s.push({ type: 'damage', tick: s.steps, entity: target.id, breed: target.breedName, amount: dealt, health: before - dealt, by: cast.caster });
    // A mirror does not die here: the damage goes to the world that owns the entity, which decides.
    if (s.mirror[slot] === 1) s.mirrorEffects.push({ kind: 'damage', entity: target.id, amount: dealt, by: cast.caster });
    else if (before - dealt <= 0) this.entities.markGone(slot, 'killed');
    return dealt;
  }

  heal(target: EntityRef, amount: number, cast: CastContext): number {
    const s = this.state;
    const slot = s.slotOfRef(target);
    const state = s.states[slot]!;
    const max = state.baseMaxHealth + state.bonus('maxHealth');
    const before = s.pool.health[slot]!;
    const healed = Math.max(0, Math.min(amount, max - before));
    s.pool.health[slot] = before + healed;
    // The owner heals its entity by as much, up to its own maximum.
    if (s.mirror[slot] === 1 && healed > 0) s.mirrorEffects.push({ kind: 'heal', entity: target.id, amount: healed, by: cast.caster });
    if (healed > 0) s.push({ type: 'heal', tick: s.steps, entity: target.id, breed: target.breedName, amount: healed, health: before + healed, by: cast.caster });
    return healed;
  }

  spawnFromSpell(breed: string, x: number, y: number, _cast: CastContext): EntityRef {
    try {
      return this.entities.spawn(breed, x, y);
    } catch (error) {
      if (error instanceof WorldError) throw new HostError(error.message);
      throw error;
    }
  }

  despawnFromSpell(target: EntityRef): void {
    const slot = this.state.slotOfRef(target);
    if (this.state.mirror[slot] === 1) throw new HostError('This entity belongs to another zone (a mirror): it cannot be despawned here.');
    this.entities.markGone(slot, 'despawned');
  }

  moveEntity(target: EntityRef, x: number, y: number): void {
    this.properties.moveTo(this.notMirror(target, 'moved'), x, y);
  }

  setEntityVelocity(target: EntityRef, vx: number, vy: number): void {
    const s = this.state;
    const slot = this.notMirror(target, 'moved');
    s.pool.vx[slot] = vx;
    s.pool.vy[slot] = vy;
  }

  nearbyEntities(center: EntityRef, r: number, ctx: HostContext): Value {
    const s = this.state;
    const slot = s.slotOfRef(center);
    return this.listAround(s.pool.x[slot]!, s.pool.y[slot]!, r, ctx);
  }

  entitiesWithin(x: number, y: number, r: number, ctx: HostContext): Value {
    return this.listAround(x, y, r, ctx);
  }

  nearestEntity(center: EntityRef, r: number, filter: string | null, ctx: HostContext): EntityRef | null {
    const s = this.state;
    const slot = s.slotOfRef(center);
    const counted = { visited: 0 };
    const accept = filter === null ? null : breedOrTagFilter(s, filter, counted);
    const found = s.index.nearest(s.pool.x[slot]!, s.pool.y[slot]!, r, accept, slot);
    // Charged for what the search visited (cells or list nodes and entities), not what it found.
    ctx.chargeFuel(s.index.lastQueryVisits + counted.visited + 1);
    return found === NONE ? null : s.refAt(found);
  }

  distanceBetween(a: EntityRef, b: EntityRef): number {
    const s = this.state;
    const sa = s.slotOfRef(a);
    const sb = s.slotOfRef(b);
    return Math.hypot(s.pool.x[sa]! - s.pool.x[sb]!, s.pool.y[sa]! - s.pool.y[sb]!);
  }

  emitSound(name: string, cast: CastContext): void {
    const [x, y] = this.casterPosition(cast);
    this.state.push({ type: 'sound', tick: this.state.steps, name: eventText(name), x, y, by: cast.caster });
  }

  emitParticles(kind: string, x: number, y: number, count: number, cast: CastContext): void {
    // Observers draw these; a spell asking for a billion must not make them try.
    this.state.push({ type: 'particles', tick: this.state.steps, kind: eventText(kind), x, y, count: Math.min(MAX_PARTICLES, Math.floor(count)), by: cast.caster });
  }

  emitSay(speaker: EntityRef, text: string, cast: CastContext): void {
    const s = this.state;
    const slot = s.slotOfRef(speaker);
    s.push({ type: 'say', tick: s.steps, entity: speaker.id, breed: speaker.breedName, text: eventText(text) });
    // Said here (observers here hear it) and in the owner's world, for its own observers.
    if (s.mirror[slot] === 1) s.mirrorEffects.push({ kind: 'say', entity: speaker.id, text: eventText(text), by: cast.caster });
  }

  addBuff(target: EntityRef, stat: string, amount: number, seconds: number, cast: CastContext): void {
    const s = this.state;
    const slot = s.slotOfRef(target);
    // A mirror's stats are its owner's: the buff goes there (and shows in the owner's updates).
    if (s.mirror[slot] === 1) s.mirrorEffects.push({ kind: 'buff', entity: target.id, stat, amount, seconds, by: cast.caster });
    else this.buffs.add(target, stat, amount, seconds);
  }

  /** The slot of an entity a spell may move: a mirror is moved by its own world only. */
  private notMirror(target: EntityRef, what: string): number {
    const slot = this.state.slotOfRef(target);
    if (this.state.mirror[slot] === 1) throw new HostError(`This entity belongs to another zone (a mirror): it cannot be ${what} from here.`);
    return slot;
  }

  nextRandom(): number {
    return this.state.rng.next();
  }

  private listAround(x: number, y: number, r: number, ctx: HostContext): Value {
    const s = this.state;
    const slots: number[] = [];
    s.index.queryRadius(x, y, r, slots);
    // Charged for what the query visited (cells or list nodes and entities) and for sorting what it returns,
    // before the list is sorted and built.
    ctx.chargeFuel(s.index.lastQueryVisits + sortWork(slots.length) + 1);
    sortNearestFirst(s, x, y, slots);
    return ctx.makeList(slots.map((slot) => s.refAt(slot)));
  }

  private casterPosition(cast: CastContext): [number, number] {
    const s = this.state;
    const slot = cast.caster === null ? NONE : (s.slotById.get(cast.caster) ?? NONE);
    return slot === NONE ? [0, 0] : [s.pool.x[slot]!, s.pool.y[slot]!];
  }
}

/** Comparisons a sort of n items makes, about: n log2 n. */
function sortWork(n: number): number {
  return n < 2 ? n : Math.ceil(n * Math.log2(n));
}
