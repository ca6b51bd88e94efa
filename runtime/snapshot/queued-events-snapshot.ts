/**
 * The events a world has queued but not yet delivered, as a snapshot keeps
 * them: a game that casts or spawns between steps and saves at once must not
 * lose the cast's prints or the spawn event — the restored world delivers
 * them at its first flush, as the original would have. Restoring treats the
 * data as untrusted: each event must be a plain JSON object with a known
 * `type` and a finite `tick`, holding only JSON data.
 */

import { WorldError } from '../errors.js';
import type { WorldEvent, WorldEventType } from '../events/events.js';

const EVENT_TYPES: ReadonlySet<WorldEventType> = new Set<WorldEventType>([
  'spawn', 'despawn', 'damage', 'heal', 'sound', 'particles', 'say', 'print', 'buff', 'buff-end',
  'aoi', 'cast', 'spells-reload', 'host-call', 'overload', 'cast-error', 'cast-cancelled',
]);

/** Nesting deeper than this is not an event (the deepest real one is two levels). */
const MAX_DEPTH = 8;

/** Copies of the queued events as JSON keeps them, so the snapshot shares no objects with the live queue. */
export function captureQueuedEvents(queue: readonly WorldEvent[]): WorldEvent[] {
  return JSON.parse(JSON.stringify(queue)) as WorldEvent[];
}

/** The queued events of snapshot data (none when absent); WorldError when they are not events. */
export function restoreQueuedEvents(data: unknown): WorldEvent[] {
  if (data === undefined) return [];
  if (!Array.isArray(data)) throw malformed();
  return data.map((e: unknown) => {
    if (!isPlainObject(e)) throw malformed();
    const { type, tick } = e as { type?: unknown; tick?: unknown };
    if (typeof type !== 'string' || !EVENT_TYPES.has(type as WorldEventType)) throw malformed();
    if (typeof tick !== 'number' || !Number.isFinite(tick)) throw malformed();
    return jsonCopy(e, 0) as WorldEvent;
  });
}

/** A non-negative whole counter of snapshot data (0 when absent). */
export function restoreCounter(data: unknown): number {
  if (data === undefined) return 0;
  if (typeof data !== 'number' || !Number.isSafeInteger(data) || data < 0) throw malformed();
  return data;
}

function jsonCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw malformed();
    return value;
  }
  if (depth >= MAX_DEPTH) throw malformed();
  if (Array.isArray(value)) return value.map((v) => jsonCopy(v, depth + 1));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__') throw malformed();
      out[k] = jsonCopy(v, depth + 1);
    }
    return out;
  }
  throw malformed();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function malformed(): WorldError {
  return new WorldError('The world snapshot is malformed: a queued event is not a world event.');
}
