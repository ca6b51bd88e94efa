/**
 * The world's heap budget (`maxWorldHeap`): what outlives a cast, counted
 * together, so that many casts each within their own `maxHeap` cannot take
 * the process down between them (docs/security.md, invariant 2).
 *
 * Two kinds of holding are counted, in heap units (vm/costs.ts):
 * - a waiting cast holds what it keeps alive across the wait (`fiber.retained`,
 *   measured by the VM when it began waiting and paid from its fuel:
 *   vm/retained-heap.ts) plus its value stack's storage (`fiber.stack.length`
 *   slots). It replaces the count of everything the cast ever allocated, so a
 *   cast that waits every tick for hours holds only what it keeps, and one
 *   that keeps appending across waits is stopped by this budget;
 * - an entity field holds its name and, for text, its characters, plus
 *   FIELD_ENTRY units for the entry itself (fields hold only scalars, text and
 *   entity ids, so this is exact up to the constant).
 *
 * Module globals are not counted here: they are set by the top-level script
 * or by casts, and a cast's allocations are bounded by its own maxHeap; see
 * the known limits in docs/security.md.
 */

import { BudgetExceeded } from '../../vm/budgets.js';
import type { Fiber } from '../../vm/fiber.js';
import type { EntityState, FieldValue } from '../entities/entity-state.js';

/** Units an entity field entry costs beyond its name and text (the map entry and the value). */
export const FIELD_ENTRY = 4;

export class WorldMemory {
  /** Units held by casts waiting in the world now. */
  waitingUnits = 0;
  /** Units held by the fields of living entities. */
  fieldUnits = 0;

  constructor(readonly limit: number) {}

  get used(): number {
    return this.waitingUnits + this.fieldUnits;
  }

  /** The message of a world heap error. */
  message(): string {
    return `Out of memory: this world's waiting casts and entity fields would hold more than ${this.limit} heap units.`;
  }

  /** What a suspended fiber keeps alive while it waits. */
  holdOf(fiber: Fiber): number {
    return fiber.retained + fiber.stack.length;
  }

  /** Count a cast that starts waiting; false (nothing counted) when it would pass the budget. */
  tryHold(units: number): boolean {
    if (this.used + units > this.limit) return false;
    this.waitingUnits += units;
    return true;
  }

  /** A waiting cast resumed or ended. */
  release(units: number): void {
    this.waitingUnits = Math.max(0, this.waitingUnits - units);
  }

  /** Count `state.<name> = value` before it is stored; a 'heap' budget error when it would pass the budget. */
  chargeField(state: EntityState, name: string, value: FieldValue): void {
    const old = state.getField(name);
    const delta = fieldCost(name, value) - (old === undefined ? 0 : fieldCost(name, old));
    if (delta > 0 && this.used + delta > this.limit) throw new BudgetExceeded('heap', this.message());
    state.fieldUnits += delta;
    this.fieldUnits += delta;
  }

  /** An entity is gone: its fields no longer count. */
  releaseEntity(state: EntityState | null): void {
    if (state === null) return;
    this.fieldUnits = Math.max(0, this.fieldUnits - state.fieldUnits);
    state.fieldUnits = 0;
  }

  /** Recount every field (after a restore). */
  recount(states: readonly (EntityState | null)[]): void {
    let total = 0;
    for (const state of states) {
      if (state === null) continue;
      let units = 0;
      for (const [name, value] of state.fields ?? []) units += fieldCost(name, value);
      state.fieldUnits = units;
      total += units;
    }
    this.fieldUnits = total;
  }
}

/** The units one entity field holds: its entry, its name, and its text. */
export function fieldCost(name: string, value: FieldValue): number {
  return FIELD_ENTRY + name.length + (typeof value === 'string' ? value.length : 0);
}
