/**
 * An entity field's value as a snapshot, a hand-over and a cast's saved
 * arguments hold it in JSON: numbers JSON cannot hold (NaN, ±Infinity) are
 * spelled out. One codec for every part of a save that holds fields, kept
 * apart from the world snapshot's own shape so those parts need not import it.
 */
import type { FieldValue } from '../entities/entity-state.js';
import type { EntityId } from '../events/events.js';

/** A field value in JSON: numbers that JSON cannot hold (NaN, ±Infinity) are spelled out. */
export type EncodedField = string | boolean | null | number | { readonly entity: EntityId } | { readonly number: string };

export function encodeField(value: FieldValue): EncodedField {
  if (typeof value === 'number' && !Number.isFinite(value)) return { number: String(value) };
  return value;
}

export function decodeField(value: EncodedField): FieldValue {
  if (value !== null && typeof value === 'object' && 'number' in value) return Number(value.number);
  return value;
}
