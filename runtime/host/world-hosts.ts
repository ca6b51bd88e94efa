/**
 * How a game declares its own host functions for a World (`new World({
 * hosts })`): the typed form, and the WorldHostContext their implementation
 * sees — the world, the caster, the spell. The world joins them to the
 * built-ins and wraps them (world-host-table.ts).
 */

import type { HostContext, HostFunction, HostParam, TypedHostFunction } from '../../vm/host.js';
import type { ValueType } from '../../vm/value.js';
import type { EntityRef } from '../entities/entity-ref.js';
import type { World } from '../world/world.js';

/** What a game's host function sees in a World: the VM's context plus the cast it runs in. */
export interface WorldHostContext extends HostContext {
  /** The world the spell was cast in (its embedder API: spawn, move, property, emit …). */
  readonly world: World;
  /** The entity that cast the spell, or null (a cast from the embedder without a caster, a module's top-level script). */
  readonly caster: EntityRef | null;
  /** The spell being cast ('<script>' while a module's top-level code runs). */
  readonly spell: string;
  /**
   * Suspend the cast for `seconds` of game time once the function returns (as
   * `wait` does); the world resumes it and the call's result is nil. Refused
   * with the 'wait' budget error past the cast's maxWait.
   */
  wait(seconds: number): void;
}

/** A game host function with typed arguments, for `new World({ hosts })`: entity arguments are EntityRefs of the world. */
export type TypedWorldHostFunction<P extends readonly HostParam[], R extends ValueType> = TypedHostFunction<P, R, WorldHostContext, EntityRef>;

/**
 * Declare a game host function with typed arguments and a WorldHostContext:
 *
 *   const giveItem = worldHostFunction({
 *     name: 'giveItem',
 *     params: [{ name: 'target', type: 'entity' }, { name: 'item', type: 'string' }],
 *     returns: 'nil',
 *     doc: 'Put an item in an entity's bag.',
 *     impl: (ctx, target, item) => { bags.add(target.id, item); return null; },
 *   });
 *   const world = new World({ width: 100, height: 100, hosts: [giveItem] });
 */
export function worldHostFunction<const P extends readonly HostParam[], const R extends ValueType>(def: TypedWorldHostFunction<P, R>): HostFunction {
  // Sound because the VM checks every argument's type, and the world that it is one of its entities, before `impl` runs.
  return def as unknown as HostFunction;
}
