/**
 * The cold side of an entity (Data Locality keeps it out of the hot typed
 * arrays): fields spells set on it, its base stats, and timed modifiers.
 *
 * Derived stats follow the Dirty Flag pattern: a stat's value is its base
 * plus its modifiers, recomputed only when a modifier is added or expires
 * (the flag), not on every read.
 */

import type { EntityId } from '../events/events.js';

/** What an entity field may hold: spell values that belong to no VM (so any spell may read them). */
export type FieldValue = number | string | boolean | null | { readonly entity: EntityId };

export interface Modifier {
  readonly stat: string;
  readonly amount: number;
  /** Game time at which it wears off. */
  readonly expiresAt: number;
  readonly seconds: number;
  /** Tie-breaker for modifiers expiring at the same time. */
  readonly seq: number;
}

export class EntityState {
  /** Values spells assigned (`e.charges = 3`), including overrides of breed attributes. Map: any name is data. */
  fields: Map<string, FieldValue> | null = null;
  modifiers: Modifier[] = [];
  /** Sum of modifiers per stat; valid while `dirty` is false. */
  private totals = new Map<string, number>();
  private dirty = false;
  /** How many times the totals were recomputed (tests check the dirty flag works). */
  recomputes = 0;
  /** Heap units the fields hold, as the world's budget counts them (runtime/world-memory.ts). */
  fieldUnits = 0;

  constructor(
    public baseSpeed: number,
    public baseMaxHealth: number,
    public baseInterest: number,
  ) {}

  getField(name: string): FieldValue | undefined {
    return this.fields?.get(name);
  }

  setField(name: string, value: FieldValue): void {
    (this.fields ??= new Map()).set(name, value);
  }

  addModifier(modifier: Modifier): void {
    this.modifiers.push(modifier);
    this.dirty = true;
  }

  removeModifier(modifier: Modifier): boolean {
    const at = this.modifiers.indexOf(modifier);
    if (at < 0) return false;
    this.modifiers.splice(at, 1);
    this.dirty = true;
    return true;
  }

  /** The sum of active modifiers on a stat (0 when none). */
  bonus(stat: string): number {
    if (this.modifiers.length === 0) return 0;
    if (this.dirty) this.recompute();
    return this.totals.get(stat) ?? 0;
  }

  /** Whether any modifier touches the stat. */
  isModified(stat: string): boolean {
    return this.modifiers.length > 0 && this.bonus(stat) !== 0;
  }

  private recompute(): void {
    this.recomputes++;
    this.totals.clear();
    for (const m of this.modifiers) this.totals.set(m.stat, (this.totals.get(m.stat) ?? 0) + m.amount);
    this.dirty = false;
  }
}
