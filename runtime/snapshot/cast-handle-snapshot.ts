/**
 * What a save or a hand-over keeps of a cast's handle (runtime/world/cast-handles.ts):
 * its id, its target and the arguments it was cast with (for a reload's
 * 'restart'). Arguments are kept as entity fields are — numbers, strings,
 * booleans, nil, entities by id — and not at all when one of them is
 * anything else (a list, a closure): such a cast is restored with its
 * arguments unknown, and a 'restart' reload says it cannot cast it again.
 * Read back from untrusted data, each part is checked and dropped when it
 * does not fit (the cast then gets a new id, no target, unknown arguments).
 */

import type { Value } from '../../vm/value.js';
import { EntityRef } from '../entities/entity-ref.js';
import type { EntityId } from '../events/events.js';
import { isCastId, type CastId } from '../world/cast-handles.js';
import type { WorldState } from '../world/world-state.js';
import { decodeField, encodeField, type EncodedField } from './field-codec.js';

/** A cast's handle as saved beside it. */
export interface CastHandleSnapshot {
  readonly id?: CastId | null;
  readonly target?: EntityId | null;
  /** Its arguments after the caster; absent when they could not be saved. */
  readonly rest?: readonly EncodedField[] | null;
}

/** The most arguments kept for a cast (a spell has at most 255 parameters). */
const MAX_REST = 255;

export function saveCastHandle(s: WorldState, c: { readonly id: CastId | null; readonly target: EntityId | null; readonly rest: readonly Value[] | null }): CastHandleSnapshot {
  return { id: c.id, target: c.target, rest: saveRest(s, c.rest) };
}

function saveRest(s: WorldState, rest: readonly Value[] | null): EncodedField[] | null {
  if (rest === null || rest.length > MAX_REST) return null;
  const out: EncodedField[] = [];
  for (const v of rest) {
    if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') out.push(encodeField(v));
    else if (v instanceof EntityRef && v.world === s.access) out.push({ entity: v.id });
    else return null;
  }
  return out;
}

/** The handle of a saved cast, read back: each part that does not fit is dropped, and an id `seen` already holds (the data repeats it). */
export function restoreCastHandle(s: WorldState, c: CastHandleSnapshot, seen: Set<CastId>): { id: CastId | null; target: EntityId | null; rest: Value[] | null } {
  const id = isCastId(c.id) && !seen.has(c.id) ? c.id : null;
  if (id !== null) seen.add(id);
  const target = typeof c.target === 'number' && Number.isSafeInteger(c.target) && c.target > 0 ? c.target : null;
  return { id, target, rest: restoreRest(s, c.rest) };
}

function restoreRest(s: WorldState, rest: unknown): Value[] | null {
  if (!Array.isArray(rest) || rest.length > MAX_REST) return null;
  const out: Value[] = [];
  for (const v of rest as unknown[]) {
    if (v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') out.push(v);
    else if (isEntityField(v)) out.push(s.refById(v.entity));
    else if (isSpelledNumber(v)) out.push(decodeField(v) as number);
    else return null;
  }
  return out;
}

function isEntityField(v: unknown): v is { entity: EntityId } {
  const id = (v as { entity?: unknown } | null)?.entity;
  return typeof v === 'object' && typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
}

function isSpelledNumber(v: unknown): v is { number: string } {
  const n = (v as { number?: unknown } | null)?.number;
  return typeof v === 'object' && (n === 'NaN' || n === 'Infinity' || n === '-Infinity');
}
