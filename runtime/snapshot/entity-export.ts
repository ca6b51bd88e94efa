/**
 * One entity taken out of a world with every cast it is the caster of, and
 * put into another (World.exportEntity / World.importEntity): the
 * `cantrip-world/2` machinery, per entity. Its hot fields, base stats,
 * fields and buffs as a world snapshot saves them; its waiting casts as VM
 * snapshots (vm/fiber-snapshot.ts) of the fibers it waits in.
 *
 * Times travel as what is left (a wait's remaining time, a buff's), never as
 * a clock reading: two worlds' clocks need not agree. Entity references in a
 * cast's heap travel by id; in the arriving world they are the entity of that
 * id when it is there (a mirror included), otherwise a reference that is gone.
 * A cast that holds a module global's object arrives with a copy of it: the
 * arriving world keeps its own globals.
 */

import { VerifyError } from '../../vm/errors.js';
import { restoreVm, saveVm, type VmSnapshot } from '../../vm/fiber-snapshot.js';
import type { HostObjectCodec } from '../../vm/heap-snapshot.js';
import type { HostObject } from '../../vm/value.js';
import type { Fiber } from '../../vm/fiber.js';
import type { VM } from '../../vm/vm.js';
import { BUFFABLE_FIELDS, PLAIN_HOT_FIELDS, type PlainHotField } from '../entities/entity-fields.js';
import { EntityRef } from '../entities/entity-ref.js';
import { MAX_MODIFIERS, type Modifier } from '../entities/entity-state.js';
import { WorldError } from '../errors.js';
import type { EntityId } from '../events/events.js';
import type { WorldBuffs } from '../world/world-buffs.js';
import type { InFlightCast, WorldCasting } from '../world/world-casting.js';
import type { WorldEntities } from '../world/world-entities.js';
import type { WorldProperties } from '../world/world-properties.js';
import type { WorldState } from '../world/world-state.js';
import type { EntityView } from '../world/world-entities.js';
import { decodeField, encodeField } from './field-codec.js';
import type { EntitySnapshot } from './world-snapshot.js';
import { restoreCastHandle, saveCastHandle, type CastHandleSnapshot } from './cast-handle-snapshot.js';

export const ENTITY_EXPORT_FORMAT = 'cantrip-entity/1';

/** A buff as it travels: what is left of it. */
export interface ExportedModifier {
  readonly stat: string;
  readonly amount: number;
  readonly seconds: number;
  readonly remaining: number;
}

/** A waiting cast as it travels: its VM state (by module name), which saved fiber, how long it still waits, and its handle (the same id there). */
export interface ExportedCast extends CastHandleSnapshot {
  readonly vm: number;
  readonly fiber: number;
  readonly spell: string;
  readonly remaining: number;
}

/**
 * An entity as it travels: its global id (it keeps it in the world it goes to),
 * breed and hot fields as World.entity shows them, its base stats and fields as a
 * world snapshot saves them, what is left of its buffs, and its waiting casts.
 */
export interface ExportedEntity
  extends Pick<EntityView, 'id' | 'breed' | PlainHotField>,
    Pick<EntitySnapshot, 'baseSpeed' | 'baseMaxHealth' | 'baseInterest' | 'fields'> {
  readonly format: typeof ENTITY_EXPORT_FORMAT;
  readonly modifiers: readonly ExportedModifier[];
  /** One per module its casts run on: the module's source name and the VM snapshot of its fibers. */
  readonly vms: readonly { readonly module: string; readonly state: VmSnapshot }[];
  /** Its waiting casts, in the order they resume. */
  readonly casts: readonly ExportedCast[];
}

/** Entity references in a travelling cast: by id, found again by id where it arrives. */
function entityByIdCodec(s: WorldState): HostObjectCodec {
  return {
    encode(o: HostObject): unknown {
      if (!(o instanceof EntityRef) || o.world !== s.access) throw new WorldError(`A ${o.hostType} held by a waiting cast cannot be handed over.`);
      return { handle: o.handle, id: o.id, breed: o.breedName };
    },
    decode(data: unknown): HostObject {
      const d = data as { id?: unknown; breed?: unknown } | null;
      if (d === null || typeof d !== 'object' || !Number.isSafeInteger(d.id) || typeof d.breed !== 'string') {
        throw new VerifyError('Snapshot: an entity reference is malformed.');
      }
      const slot = s.liveSlotOf(d.id as number);
      return slot >= 0 ? s.refAt(slot) : new EntityRef(s.access, 0, d.id as number, d.breed);
    },
  };
}

/** The entity in `slot` (`view`: as World.entity shows it) with its waiting casts, as plain JSON-safe data. */
export function captureEntity(s: WorldState, casting: WorldCasting, slot: number, view: EntityView): ExportedEntity {
  const id = view.id;
  const state = s.states[slot]!;
  const waiting = casting.waitingOf(id);
  const codec = entityByIdCodec(s);
  const vms: { module: string; state: VmSnapshot }[] = [];
  const casts: ExportedCast[] = [];
  const byVm = new Map<InFlightCast['vm'], InFlightCast[]>();
  for (const w of waiting) byVm.set(w.vm, [...(byVm.get(w.vm) ?? []), w]);
  const fiberIndex = new Map<InFlightCast, { vm: number; fiber: number }>();
  for (const [vm, mine] of byVm) {
    const loaded = casting.loaded.find((l) => l.vm === vm);
    if (loaded === undefined) throw new WorldError(`Entity #${id} waits in a cast of a module a reload replaced: it cannot be handed over until that cast ends.`);
    let saved: VmSnapshot;
    try {
      saved = saveVm(vm, mine.map((w) => w.fiber), codec);
    } catch (error) {
      if (error instanceof VerifyError) throw new WorldError(error.message);
      throw error;
    }
    mine.forEach((w, fiber) => fiberIndex.set(w, { vm: vms.length, fiber }));
    vms.push({ module: loaded.sourceName, state: saved });
  }
  for (const w of waiting) casts.push({ ...fiberIndex.get(w)!, spell: w.spell, remaining: Math.max(0, w.wakeAt - s.time), ...saveCastHandle(s, w) });
  return {
    format: ENTITY_EXPORT_FORMAT,
    id,
    breed: view.breed,
    ...plainHotFields(view),
    baseSpeed: state.baseSpeed,
    baseMaxHealth: state.baseMaxHealth,
    baseInterest: state.baseInterest,
    fields: [...(state.fields ?? [])].map(([k, v]) => [k, encodeField(v)]),
    modifiers: state.modifiers.map((m) => ({ stat: m.stat, amount: m.amount, seconds: m.seconds, remaining: Math.max(0, m.expiresAt - s.time) })),
    vms,
    casts,
  };
}

/** The hot fields that travel as they are (entity-fields.ts: not buffable), as the view shows them. */
function plainHotFields(view: EntityView): Pick<EntityView, PlainHotField> {
  const out = {} as Record<PlainHotField, number>;
  for (const name of PLAIN_HOT_FIELDS) out[name] = view[name];
  return out;
}

/** The parts of a world an arriving entity is put into. */
export interface ImportTarget {
  readonly state: WorldState;
  readonly entities: WorldEntities;
  readonly properties: WorldProperties;
  readonly buffs: WorldBuffs;
  readonly casting: WorldCasting;
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Refuse data that is not an exported entity before anything is built (the VM states are checked by restoreVm). */
function checkExported(e: ExportedEntity): void {
  const bad = (what: string): never => {
    throw new WorldError(`The exported entity is malformed: ${what}.`);
  };
  if (e === null || typeof e !== 'object' || e.format !== ENTITY_EXPORT_FORMAT) bad(`it is not a ${ENTITY_EXPORT_FORMAT} record`);
  if (!Number.isSafeInteger(e.id) || e.id < 1) bad('its id must be a whole number ≥ 1');
  if (typeof e.breed !== 'string') bad('its breed must be a name');
  for (const k of [...PLAIN_HOT_FIELDS, 'baseSpeed', 'baseMaxHealth', 'baseInterest'] as const) if (!finite(e[k])) bad(`${k} must be a finite number`);
  if (!Array.isArray(e.fields) || !Array.isArray(e.modifiers) || !Array.isArray(e.vms) || !Array.isArray(e.casts)) bad('fields, modifiers, vms and casts must be lists');
  if (e.modifiers.length > MAX_MODIFIERS) bad(`more than ${MAX_MODIFIERS} buffs`);
  for (const m of e.modifiers) if (typeof m?.stat !== 'string' || !finite(m.amount) || !finite(m.seconds) || !finite(m.remaining)) bad('a buff is malformed');
  for (const c of e.casts) if (typeof c?.spell !== 'string' || !finite(c.remaining) || c.remaining < 0) bad('a cast is malformed');
}

/**
 * Put an exported entity into a world: the same id, place, stats, fields and
 * buffs, and its casts waiting again for the time they had left. All or
 * nothing: WorldError (the entity is not left half-built) when the data does
 * not fit this world — an id it has, a breed or a spells module it lacks.
 */
export function restoreEntity(t: ImportTarget, e: ExportedEntity): EntityId {
  checkExported(e);
  const s = t.state;
  const ref = t.entities.spawn(e.breed, e.x, e.y, { id: e.id });
  const slot = s.liveSlotOf(e.id);
  try {
    fillEntity(t, slot, e);
    restoreCasts(t, e);
  } catch (error) {
    t.casting.dropHandedOver(e.id);
    t.entities.markGone(slot, 'handed-over');
    t.entities.reapOutsideStep();
    if (error instanceof VerifyError) throw new WorldError(`The exported entity is malformed: ${error.message.replace(/^Snapshot: /, '')}`);
    throw error;
  }
  return ref.id;
}

function fillEntity(t: ImportTarget, slot: number, e: ExportedEntity): void {
  const s = t.state;
  const pool = s.pool;
  pool.vx[slot] = e.vx;
  pool.vy[slot] = e.vy;
  pool.radius[slot] = e.radius;
  const state = s.states[slot]!;
  state.baseSpeed = e.baseSpeed;
  state.baseMaxHealth = e.baseMaxHealth;
  state.baseInterest = e.baseInterest;
  for (const [name, value] of e.fields) {
    const decoded = decodeField(value);
    s.memory.chargeField(state, name, decoded);
    state.setField(name, decoded);
  }
  for (const m of e.modifiers) {
    const modifier: Modifier = { stat: m.stat, amount: m.amount, seconds: m.seconds, expiresAt: s.time + m.remaining, seq: s.castSeq++ };
    state.addModifier(modifier);
    t.buffs.track(e.id, modifier);
  }
  for (const stat of BUFFABLE_FIELDS) t.properties.afterStatChange(slot, stat);
  pool.health[slot] = Math.min(e.health, pool.maxHealth[slot]!);
}

function restoreCasts(t: ImportTarget, e: ExportedEntity): void {
  const s = t.state;
  const codec = entityByIdCodec(s);
  const fibers = e.vms.map((v, i) => {
    const loaded = t.casting.loaded.find((l) => l.sourceName === v?.module);
    if (loaded === undefined) throw new WorldError(`The exported entity #${e.id} waits in casts of the spells module ${JSON.stringify(String(v?.module))}, which this world has not loaded.`);
    const restored = restoreVm(loaded.vm, v.state, codec, { path: `$.vms[${i}].state`, maxHeldUnits: s.memory.limit - s.memory.used, keepGlobals: true });
    return { vm: loaded.vm, fibers: restored };
  });
  const adopted = new Set<unknown>();
  try {
    adoptCasts(t, e, fibers, adopted);
  } catch (error) {
    // Fibers restored but not waiting would stay live in their VM for ever.
    for (const f of fibers) for (const fiber of f.fibers) if (!adopted.has(fiber)) f.vm.cancel(fiber, 'Import failed.');
    throw error;
  }
}

function adoptCasts(t: ImportTarget, e: ExportedEntity, fibers: { vm: VM; fibers: Fiber[] }[], adopted: Set<unknown>): void {
  const s = t.state;
  const ids = new Set<string>();
  for (const c of e.casts) {
    const fiber = fibers[c.vm]?.fibers[c.fiber];
    if (fiber === undefined || adopted.has(fiber)) throw new WorldError('The exported entity is malformed: a cast names a saved fiber it does not have, or one another cast has.');
    adopted.add(fiber);
    t.casting.adoptWaiting({ fiber, vm: fibers[c.vm]!.vm, spell: c.spell, caster: e.id, wakeAt: s.time + c.remaining, seq: s.castSeq++, ...restoreCastHandle(s, c, ids) });
  }
  const saved = fibers.reduce((n, f) => n + f.fibers.length, 0);
  if (adopted.size !== saved) throw new WorldError('The exported entity is malformed: a saved fiber has no cast waiting in it.');
}
