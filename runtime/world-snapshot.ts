/**
 * The data of a world snapshot (World.snapshot / World.restore): plain,
 * JSON-safe objects, so a snapshot can be saved to a file or sent over a
 * wire and restored to the same state.
 */

import type { AoiState } from './aoi.js';
import type { EntityPoolState } from './entity-pool.js';
import type { FieldValue, Modifier } from './entity-state.js';
import type { DespawnReason, EntityId } from './events.js';
import { WorldError } from './errors.js';
import type { ResolvedWorldOptions } from './world-options.js';

export const SNAPSHOT_FORMAT = 'cantrip-world/1';

/** A field value in JSON: numbers that JSON cannot hold (NaN, ±Infinity) are spelled out. */
export type EncodedField = string | boolean | null | number | { readonly entity: EntityId } | { readonly number: string };

export interface EntitySnapshot {
  readonly slot: number;
  readonly id: EntityId;
  readonly dying: boolean;
  readonly baseSpeed: number;
  readonly baseMaxHealth: number;
  readonly baseInterest: number;
  readonly fields: readonly (readonly [string, EncodedField])[];
  readonly modifiers: readonly Modifier[];
}

/** One loaded spells module: its source, or its .spb bytes in base64. */
export interface SpellSourceSnapshot {
  readonly sourceName: string;
  readonly source?: string;
  readonly spb?: string;
}

export interface WorldSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly options: ResolvedWorldOptions;
  readonly time: number;
  readonly steps: number;
  readonly accumulator: number;
  readonly nextId: number;
  readonly random: number;
  readonly castSeq: number;
  readonly breeds: unknown;
  readonly spells: readonly SpellSourceSnapshot[];
  readonly pool: EntityPoolState;
  readonly entities: readonly EntitySnapshot[];
  readonly reap: readonly { readonly slot: number; readonly reason: DespawnReason }[];
  readonly aoi: AoiState;
  /** Casts that were waiting when the snapshot was taken; they are not restored. */
  readonly pendingCasts: number;
}

export function encodeField(value: FieldValue): EncodedField {
  if (typeof value === 'number' && !Number.isFinite(value)) return { number: String(value) };
  return value;
}

export function decodeField(value: EncodedField): FieldValue {
  if (value !== null && typeof value === 'object' && 'number' in value) return Number(value.number);
  return value;
}

// btoa/atob exist in browsers and Node alike (the playground runs worlds too); Buffer does not.
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new WorldError('Snapshot spell bytecode is not valid base64.');
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
