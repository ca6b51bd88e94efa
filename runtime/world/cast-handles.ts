/**
 * Casts in flight as handles the embedder can see and hold (World.casts,
 * World.cancelCasts): a stable id for each, and what a listing shows of it.
 *
 * An id is given when a cast is first kept — it waits, or a debugger paused
 * it — and stays the cast's for its whole life: a snapshot saves it, an
 * entity handed over to another world takes its casts' ids along. It is the
 * caster's id and a number the world counts up (`12:7`; `world:7` for a cast
 * without a caster): a server gives each world its own range of entity ids,
 * and an entity's casts live in one world at a time — so two worlds never
 * give one id to two casts, and a world that takes casts in counts on past
 * their numbers.
 */

import type { Value } from '../../vm/value.js';
import type { EntityId } from '../events/events.js';
import { EntityRef } from '../entities/entity-ref.js';
import type { CastContext } from '../host/host-api.js';

/** A cast's id, stable across snapshots and hand-overs: `<caster id>:<n>`, or `world:<n>` without a caster. */
export type CastId = string;

/** A cast in flight, as `World.casts()` lists it (plain data, taken when asked). */
export interface CastInfo {
  readonly id: CastId;
  readonly spell: string;
  /** The entity that cast it, or null. */
  readonly caster: EntityId | null;
  /** Its target: the embedder's `target`, or the other entity of an onEnter / onLeave handler; null for a tick spell or none. */
  readonly target: EntityId | null;
  /** 'waiting' for game time (wait), or 'paused' by a debugger. */
  readonly state: 'waiting' | 'paused';
  /** The source line it waits (or is paused) at, in the innermost function of its call stack. */
  readonly line: number;
  /** The function it waits in (innermost), as its stack trace names it. */
  readonly function: string;
  /** The game time at which it resumes (null while paused). */
  readonly wakesAt: number | null;
  /** The source name of the spells module its code comes from. */
  readonly sourceName: string;
  /** True when that module was replaced by a reload and this cast still runs its old code. */
  readonly oldCode: boolean;
}

/** Which casts `World.casts` lists and `World.cancelCasts` ends: every one given must match (none given: all of them). */
export interface CastFilter {
  readonly id?: CastId;
  readonly spell?: string;
  /** An entity id, or null for the casts without a caster. */
  readonly caster?: EntityId | null;
  readonly state?: 'waiting' | 'paused';
}

/** What the world keeps of a cast beyond what its host functions see (CastContext). */
export interface WorldCastContext extends CastContext {
  /** Null until the cast is first kept (it waits or pauses). */
  id: CastId | null;
  target: EntityId | null;
  /**
   * Its arguments after the caster (the target and the embedder's extra
   * arguments; a tick spell's dt, a handler's other entity), to cast it again
   * (a reload's 'restart'); null when they are not known (a cast restored from
   * a save whose arguments could not be saved).
   */
  rest: readonly Value[] | null;
}

/** A cast id of `caster` numbered `n`. */
export function castId(caster: EntityId | null, n: number): CastId {
  return `${caster ?? 'world'}:${n}`;
}

/** The number in a cast id (0 when it is not one of ours): a world that takes the cast in counts on past it. */
export function castNumberOf(id: CastId): number {
  const n = Number(id.slice(id.lastIndexOf(':') + 1));
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** Whether a string is a well-formed cast id (a restored or imported one is checked). */
export function isCastId(id: unknown): id is CastId {
  return typeof id === 'string' && /^(world|[1-9][0-9]{0,15}):[1-9][0-9]{0,15}$/.test(id) && castNumberOf(id) > 0;
}

/** The entity a value is, as a target id (a handler's other entity), or null. */
export function targetIdOf(value: Value): EntityId | null {
  return value instanceof EntityRef ? value.id : null;
}

/** Whether a cast matches a filter. */
export function castMatches(cast: WorldCastContext, state: 'waiting' | 'paused', filter: CastFilter): boolean {
  return (
    (filter.id === undefined || cast.id === filter.id) &&
    (filter.spell === undefined || cast.spell === filter.spell) &&
    (filter.caster === undefined || cast.caster === filter.caster) &&
    (filter.state === undefined || state === filter.state)
  );
}
