/**
 * World snapshots (World.snapshot / World.restore): the data — plain,
 * JSON-safe objects, so a snapshot can be saved to a file or sent over a
 * wire — and taking one from a world's state and putting one back.
 */

import type { HostFunction } from '../../vm/host.js';
import { writeSpb } from '../../vm/spb.js';
import type { AoiState } from '../aoi/aoi.js';
import { HOT_FIELDS } from '../entities/entity-fields.js';
import { EntityPool, type EntityPoolState } from '../entities/entity-pool.js';
import { EntityState, type Modifier } from '../entities/entity-state.js';
import type { DespawnReason, EntityId, WorldEvent } from '../events/events.js';
import type { DeclaredEvent } from '../events/event-table.js';
import { captureQueuedEvents, restoreCounter, restoreQueuedEvents } from './queued-events-snapshot.js';
import { WorldError } from '../errors.js';
import type { WorldBuffs } from '../world/world-buffs.js';
import type { LoadedSpells, WorldCasting } from '../world/world-casting.js';
import { captureSpellState, type SpellStateSnapshot } from './world-casts-snapshot.js';
import type { WorldEntities } from '../world/world-entities.js';
import type { ResolvedWorldOptions } from '../world/world-options.js';
import { SnapshotSize } from './snapshot-size.js';
import type { WorldState } from '../world/world-state.js';

export const SNAPSHOT_FORMAT = 'cantrip-world/2';

import { decodeField, encodeField, type EncodedField } from './field-codec.js';
export type { EncodedField };

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
  /** Every module's globals and the casts waiting in `wait`, with the heap they reach (runtime/snapshot/world-casts-snapshot.ts). */
  readonly spellState: SpellStateSnapshot;
  /** Events queued and not yet delivered (runtime/snapshot/queued-events-snapshot.ts); absent in older snapshots. */
  readonly queued?: readonly (WorldEvent | DeclaredEvent)[];
  /** The per-step overload counters not yet reported in an `overload` event. */
  readonly dropped?: { readonly events: number; readonly casts: number };
  /** Casts a debugger had paused: not saved, so not restored. */
  readonly pendingCasts: number;
  /** The names of the game's own host functions the world had (absent in older snapshots): a restore must provide them again. */
  readonly hosts?: readonly string[];
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

/** The snapshot data of a world's state (see World.snapshot). */
export function captureSnapshot(
  s: WorldState,
  casting: WorldCasting,
  accumulator: number,
  droppedCasts: number,
  gameHosts: readonly HostFunction[],
): WorldSnapshot {
  const loaded = casting.loaded;
  // Measured as it is built: a world too large to serialize is refused before JSON.stringify tries.
  const size = new SnapshotSize(s.options.maxSnapshotChars);
  const entities: EntitySnapshot[] = [];
  for (let i = 0; i < s.pool.count; i++) {
    const slot = s.pool.activeAt(i);
    const state = s.states[slot]!;
    entities.push(size.add({
      slot,
      id: s.ids[slot]!,
      dying: s.dying[slot] === 1,
      baseSpeed: state.baseSpeed,
      baseMaxHealth: state.baseMaxHealth,
      baseInterest: state.baseInterest,
      fields: [...(state.fields ?? [])].map(([k, v]) => [k, encodeField(v)]),
      modifiers: state.modifiers.map((m) => ({ ...m })),
    }));
  }
  const spells: SpellSourceSnapshot[] = loaded.map((l) => size.add(spellSource(l)));
  const spellState = size.add(captureSpellState(s, casting, spellSource));
  return {
    format: SNAPSHOT_FORMAT,
    options: size.add({ ...s.options, budgets: { ...s.options.budgets } }),
    time: s.time,
    steps: s.steps,
    accumulator,
    nextId: s.nextId,
    random: s.rng.seedState,
    castSeq: s.castSeq,
    breeds: size.add(s.breedRegistry?.source ?? null),
    spells,
    pool: size.add(s.pool.exportState()),
    entities,
    reap: size.add(s.reapQueue.map((r) => ({ slot: r.slot, reason: r.reason }))),
    aoi: size.add(s.aoi.exportState()),
    spellState,
    pendingCasts: casting.pausedCount,
    queued: size.add(captureQueuedEvents(s.queue, s.events)),
    dropped: { events: s.droppedEvents, casts: droppedCasts },
    hosts: gameHosts.map((h) => h.name),
  };
}

/**
 * The game's own host functions are code, not data: a snapshot names them
 * and a restore must pass them again. Without them the spells would compile
 * to another module (a call to `awardGold` becomes a global lookup) and the
 * saved state would not fit it; say which ones are missing instead, before
 * anything is rebuilt. The names come from a save file: quoted as JSON
 * (no control characters reach a terminal), the list cut short.
 */
export function checkSnapshotHosts(snapshot: WorldSnapshot, hosts: readonly HostFunction[] | undefined): void {
  const saved: unknown = snapshot.hosts;
  if (saved === undefined) return;
  if (!Array.isArray(saved) || !saved.every((n) => typeof n === 'string')) throw new WorldError("The world snapshot is malformed: 'hosts' must be a list of names.");
  const given = new Set((hosts ?? []).map((h) => h.name));
  const missing = [...new Set(saved as string[])].filter((n) => !given.has(n));
  if (missing.length === 0) return;
  const shown = missing.slice(0, 10).map((n) => JSON.stringify(n.length > 64 ? `${n.slice(0, 64)}…` : n));
  const more = missing.length > 10 ? ` and ${missing.length - 10} more` : '';
  throw new WorldError(
    `The world snapshot was saved by a world with the game's own host function${missing.length === 1 ? '' : 's'} ${shown.join(', ')}${more}, ` +
      'which this restore does not provide: pass the same ones again, World.restore(snapshot, { hosts }).',
  );
}

/** A module as a snapshot keeps it: its source, or its .spb bytes in base64. */
function spellSource(l: LoadedSpells): SpellSourceSnapshot {
  return l.source !== null ? { sourceName: l.sourceName, source: l.source } : { sourceName: l.sourceName, spb: bytesToBase64(writeSpb(l.module)) };
}

/**
 * Put a snapshot's pool, entities, buffs, AOI sets, clocks and random state
 * into a world that has loaded the snapshot's spells and breeds (not its
 * accumulator, which belongs to the loop). WorldError when the data does not
 * hang together.
 */
export function restoreSnapshot(s: WorldState, entities: WorldEntities, buffs: WorldBuffs, snapshot: WorldSnapshot): void {
  // Loading the spells may have queued prints: the restored world starts with the snapshot's queue instead.
  s.queue = restoreQueuedEvents(snapshot.queued, s.events);
  s.droppedEvents = restoreCounter(snapshot.dropped?.events);
  entities.adoptPool(EntityPool.fromState(snapshot.pool, { policy: snapshot.options.policy, maxCapacity: s.options.maxCapacity }));
  for (const e of snapshot.entities) {
    if (!s.pool.isLiveSlot(e.slot)) throw new WorldError('The world snapshot is malformed.');
    s.ids[e.slot] = e.id;
    s.dying[e.slot] = e.dying ? 1 : 0;
    s.slotById.set(e.id, e.slot);
    const state = new EntityState(e.baseSpeed, e.baseMaxHealth, e.baseInterest);
    for (const [k, v] of e.fields) state.setField(k, decodeField(v));
    for (const m of e.modifiers) {
      state.addModifier(m);
      buffs.track(e.id, m);
    }
    s.states[e.slot] = state;
    if (!e.dying) s.index.insert(e.slot, s.pool.x[e.slot]!, s.pool.y[e.slot]!);
  }
  s.reapQueue = snapshot.reap.map((r) => ({ slot: r.slot, reason: r.reason }));
  s.aoi.importState(snapshot.aoi);
  s.time = snapshot.time;
  s.steps = snapshot.steps;
  s.nextId = snapshot.nextId;
  s.castSeq = snapshot.castSeq;
  s.rng.seedState = snapshot.random;
  checkRestored(s);
}

/** Position, velocity and the other hot numbers of a slot: a NaN velocity would put NaN into the spatial index at the next step. */
function hotFieldsFinite(pool: WorldState['pool'], slot: number): boolean {
  for (const name of HOT_FIELDS) {
    if (!Number.isFinite(pool[name][slot])) return false;
  }
  return true;
}

/** Every live slot is a restored entity of a known breed at a finite place; dying ones are queued to be reaped (tests/fuzz/world-fuzz). */
function checkRestored(s: WorldState): void {
  const pool = s.pool;
  const reaping = new Set(s.reapQueue.map((r) => r.slot));
  for (let i = 0; i < pool.count; i++) {
    const slot = pool.activeAt(i);
    const known = s.states[slot] !== null && s.breedRegistry?.breeds[pool.breed[slot]!] !== undefined;
    if (!known || !hotFieldsFinite(pool, slot) || (s.dying[slot] === 1) !== reaping.has(slot)) {
      throw new WorldError('The world snapshot is malformed.');
    }
  }
  if (s.slotById.size !== pool.count || reaping.size !== s.reapQueue.length) throw new WorldError('The world snapshot is malformed.');
}
