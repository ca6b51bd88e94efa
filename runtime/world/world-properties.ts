/**
 * Entity properties as spells see them (`e.x`, `e.health = 0`, `e.armor`,
 * `e.is("Troll")`): the hot fields in the pool, derived stats (base + buffs,
 * Dirty Flag), per-entity fields and breed attributes — and keeping the hot
 * copies of derived stats in step when a base or a buff changes.
 */

import { HostError } from '../../vm/errors.js';
import type { HostContext } from '../../vm/host.js';
import type { Value } from '../../vm/value.js';
import { READ_ONLY_FIELDS, isHotField, type HotField } from '../entities/entity-fields.js';
import { EntityRef } from '../entities/entity-ref.js';
import type { FieldValue } from '../entities/entity-state.js';
import type { WorldEntities } from './world-entities.js';
import { NONE, clamp, type WorldState } from './world-state.js';

export { HOT_FIELDS, isHotField, type HotField } from '../entities/entity-fields.js';

export class WorldProperties {
  constructor(
    private readonly state: WorldState,
    private readonly entities: WorldEntities,
  ) {}

  get(ref: EntityRef, name: string): Value | undefined {
    const s = this.state;
    if (name === 'alive') return s.pool.indexOf(ref.handle) !== NONE && s.dying[s.pool.indexOf(ref.handle)] === 0;
    const slot = s.slotOfRef(ref);
    if (isHotField(name)) return this.hotNumber(slot, name);
    const state = s.states[slot]!;
    switch (name) {
      case 'breed':
        return s.breedAt(slot).name;
      case 'id':
        return ref.id;
      case 'is':
        return undefined;
    }
    const own = state.getField(name);
    const base = own !== undefined ? this.fieldToValue(own) : s.breedAt(slot).attributes.get(name);
    if (base === undefined) return undefined;
    return typeof base === 'number' ? base + state.bonus(name) : base;
  }

  /** A hot field of the living entity in `slot`; derived stats (maxHealth, speed) with their buffs, as spells read them. */
  hotNumber(slot: number, name: HotField): number {
    const p = this.state.pool;
    switch (name) {
      case 'x':
        return p.x[slot]!;
      case 'y':
        return p.y[slot]!;
      case 'vx':
        return p.vx[slot]!;
      case 'vy':
        return p.vy[slot]!;
      case 'health':
        return p.health[slot]!;
      case 'maxHealth': {
        const state = this.state.states[slot]!;
        return state.baseMaxHealth + state.bonus('maxHealth');
      }
      case 'speed': {
        const state = this.state.states[slot]!;
        return state.baseSpeed + state.bonus('speed');
      }
      case 'radius':
        return p.radius[slot]!;
      case 'interest':
        return p.interest[slot]!;
      default:
        // A field declared in entity-fields.ts with `stat: true` must be read here (a type error until it is).
        return unhandled(name);
    }
  }

  set(ref: EntityRef, name: string, value: Value): void {
    const s = this.state;
    const slot = s.slotOfRef(ref);
    // A ghost's fields are its owner's: the assignment goes to the owning zone (or is refused there).
    if (s.mirror[slot] === 1) return this.setOnMirror(ref, name, value);
    // The hot fields first, by a switch and no lookup by name: this is every `e.x = …` of every spell.
    if (this.setHot(slot, name, value)) return;
    if (READ_ONLY_FIELDS.has(name)) throw new HostError(`Property '${name}' is read-only.`);
    const state = s.states[slot]!;
    const field = this.valueToField(value, name);
    // Fields outlive the cast: they count against the world's heap budget.
    s.memory.chargeField(state, name, field);
    state.setField(name, field);
  }

  /**
   * Assign a hot field of the living entity in `slot`, as a spell's `e.<name> = value` does; false when
   * `name` is not one. (entity-fields.test.ts assigns every writable declared field through here.)
   */
  private setHot(slot: number, name: string, value: Value): boolean {
    const p = this.state.pool;
    const state = this.state.states[slot]!;
    const number = (): number => {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new HostError(`Property '${name}' must be a finite number.`);
      return value;
    };
    switch (name) {
      case 'x':
      case 'y':
        this.moveTo(slot, name === 'x' ? number() : p.x[slot]!, name === 'y' ? number() : p.y[slot]!);
        return true;
      case 'vx':
        p.vx[slot] = number();
        return true;
      case 'vy':
        p.vy[slot] = number();
        return true;
      case 'health':
        this.setHealth(slot, number());
        return true;
      case 'maxHealth':
        state.baseMaxHealth = Math.max(0, number());
        this.afterStatChange(slot, 'maxHealth');
        return true;
      case 'speed':
        state.baseSpeed = Math.max(0, number());
        this.afterStatChange(slot, 'speed');
        return true;
      case 'radius':
        p.radius[slot] = Math.max(0, number());
        return true;
      case 'interest':
        state.baseInterest = Math.max(0, number());
        this.afterStatChange(slot, 'interest');
        return true;
      default:
        return false;
    }
  }

  /**
   * A property set on a mirror is its owner's to make (World.applyMirrorEffect): kept for it, in order,
   * and not made here (the owner's updates bring health and position back). Only plain values travel.
   */
  private setOnMirror(ref: EntityRef, name: string, value: Value): void {
    if (name === 'alive' || name === 'breed' || name === 'id' || name === 'is') throw new HostError(`Property '${name}' is read-only.`);
    if (name === 'x' || name === 'y' || name === 'vx' || name === 'vy') throw new HostError('This entity belongs to another zone (a mirror): it cannot be moved from here.');
    const plain = value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    if (!plain) throw new HostError(`This entity belongs to another zone (a mirror): only a number, a string, a bool or nil can be set on it, not ${typeof value === 'number' ? String(value) : 'a ' + (typeof value === 'object' ? 'list, map or object' : typeof value)}.`);
    this.state.mirrorEffects.push({ kind: 'set', entity: ref.id, name, value: value as number | string | boolean | null, by: null });
  }

  invoke(ref: EntityRef, name: string, args: readonly Value[], _ctx: HostContext): Value | undefined {
    if (name !== 'is') return undefined;
    const s = this.state;
    const slot = s.slotOfRef(ref);
    if (args.length !== 1) throw new HostError(`Expected 1 arguments but got ${args.length}.`);
    const kind = args[0];
    if (typeof kind !== 'string') throw new HostError('Argument 1 of is() must be a string.');
    const breed = s.breedAt(slot);
    return s.breeds.isA(breed.index, kind) || breed.tags.includes(kind);
  }

  /** Put the entity in a slot at (x, y) now, clamped to the world. */
  moveTo(slot: number, x: number, y: number): void {
    const s = this.state;
    s.pool.x[slot] = clamp(x, 0, s.options.width);
    s.pool.y[slot] = clamp(y, 0, s.options.height);
    s.index.move(slot, s.pool.x[slot]!, s.pool.y[slot]!);
  }

  /** Keep the hot copies of derived stats (pool.speed, interest, maxHealth) in step with their base and modifiers. */
  afterStatChange(slot: number, stat: string): void {
    const s = this.state;
    const state = s.states[slot]!;
    if (stat === 'speed') s.pool.speed[slot] = state.baseSpeed + state.bonus('speed');
    if (stat === 'interest') {
      s.pool.interest[slot] = clamp(state.baseInterest + state.bonus('interest'), 0, s.options.maxInterest);
    }
    if (stat === 'maxHealth') {
      s.pool.maxHealth[slot] = state.baseMaxHealth + state.bonus('maxHealth');
      this.clampHealth(slot);
    }
  }

  /**
   * Health, clamped to 0..maxHealth; 0 kills. A change — an assignment to
   * e.health, or a lower maxHealth — is seen by observers as the damage or
   * healing it amounts to, before the death it may cause.
   */
  private setHealth(slot: number, health: number): void {
    const s = this.state;
    const state = s.states[slot]!;
    const max = state.baseMaxHealth + state.bonus('maxHealth');
    const before = s.pool.health[slot]!;
    const after = clamp(health, 0, Math.max(0, max));
    s.pool.health[slot] = after;
    if (after !== before) {
      const by = s.running?.caster ?? null;
      const type = after > before ? 'heal' : 'damage';
      s.push({ type, tick: s.steps, entity: s.ids[slot]!, breed: s.breedAt(slot).name, amount: Math.abs(after - before), health: after, by });
    }
    if (after <= 0) this.entities.markGone(slot, 'killed');
  }

  private clampHealth(slot: number): void {
    this.setHealth(slot, this.state.pool.health[slot]!);
  }

  private valueToField(value: Value, name: string): FieldValue {
    if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
    if (value instanceof EntityRef && value.world === this.state.access) return { entity: value.id };
    throw new HostError(`Entity field '${name}' can only hold numbers, strings, booleans, nil or entities.`);
  }

  private fieldToValue(field: FieldValue): Value {
    if (field === null || typeof field !== 'object') return field;
    return this.state.refById(field.entity);
  }
}

/** The exhaustiveness check of the hot-field switches: `name` is `never` once every declared field has its case. */
function unhandled(name: never): never {
  throw new Error(`Entity field '${String(name)}' is declared but not handled.`);
}
