/**
 * The spells part of a world snapshot that is not source: every loaded
 * module's VM state — its globals and the casts waiting in it, with the
 * heap they reach (vm/fiber-snapshot.ts) — and the waiting casts' place in
 * the world (spell, caster, wake time, order). Entity references in the heap
 * are saved by pool handle and id, so a reference to an entity that is gone
 * stays one that is gone.
 *
 * Casts a debugger has paused are not saved (`pendingCasts` counts them).
 */

import { VerifyError } from '../../vm/errors.js';
import { restoreVm, saveVm, type VmSnapshot } from '../../vm/fiber-snapshot.js';
import type { HostObjectCodec } from '../../vm/heap-snapshot.js';
import type { HostObject } from '../../vm/value.js';
import type { VM } from '../../vm/vm.js';
import { EntityRef } from '../entities/entity-ref.js';
import { WorldError } from '../errors.js';
import type { EntityId } from '../events/events.js';
import type { InFlightCast, LoadedSpells, WorldCasting } from '../world/world-casting.js';
import type { WorldState } from '../world/world-state.js';
import { restoreCastHandle, saveCastHandle, type CastHandleSnapshot } from './cast-handle-snapshot.js';

/** One VM: a loaded module (`spells` is its index in the snapshot's spells) or a retired one (replaced by a reload, with casts still on it). */
export interface VmStateSnapshot {
  readonly spells: number;
  /** For a retired module: its source or .spb (base64), as the snapshot's spells hold them. */
  readonly retired?: { readonly sourceName: string; readonly source?: string; readonly spb?: string };
  readonly state: VmSnapshot;
}

/** A waiting cast: which VM and which of its saved fibers, its place among the world's waiting casts, and its handle (id, target, arguments). */
export interface CastSnapshot extends CastHandleSnapshot {
  readonly vm: number;
  readonly fiber: number;
  readonly spell: string;
  readonly caster: EntityId | null;
  readonly wakeAt: number;
  readonly seq: number;
}

export interface SpellStateSnapshot {
  readonly vms: readonly VmStateSnapshot[];
  readonly casts: readonly CastSnapshot[];
  /** The number in the last cast id the world gave (absent in older saves). */
  readonly castNumber?: number;
}

/** Entities in the heap: by handle (so a stale one stays stale), id and breed name. */
function entityCodec(s: WorldState): HostObjectCodec {
  return {
    encode(o: HostObject): unknown {
      if (!(o instanceof EntityRef) || o.world !== s.access) throw new WorldError(`A ${o.hostType} held by a waiting cast cannot be saved.`);
      return { handle: o.handle, id: o.id, breed: o.breedName };
    },
    decode(data: unknown): HostObject {
      const d = data as { handle?: unknown; id?: unknown; breed?: unknown } | null;
      const whole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
      if (d === null || typeof d !== 'object' || !whole(d.handle) || !whole(d.id) || typeof d.breed !== 'string') {
        throw new VerifyError('Snapshot: an entity reference is malformed.');
      }
      const slot = s.pool.indexOf(d.handle);
      // The live entity's own cached reference when it is still there; otherwise one that stays gone.
      if (slot >= 0 && s.ids[slot] === d.id) return s.refAt(slot);
      return new EntityRef(s.access, d.handle === 0 ? 0 : d.handle, d.id, d.breed);
    },
  };
}

/** Save every loaded module's VM (globals and waiting casts) and the retired ones casts still run on. */
export function captureSpellState(
  s: WorldState,
  casting: WorldCasting,
  encodeSource: (l: LoadedSpells) => { sourceName: string; source?: string; spb?: string },
): SpellStateSnapshot {
  const codec = entityCodec(s);
  const waiting = casting.waitingCasts();
  const owners: { vm: VM; spells: number; retired?: LoadedSpells }[] = [
    ...casting.loaded.map((l, i) => ({ vm: l.vm, spells: i })),
    ...casting.retiredModules.filter((r) => waiting.some((w) => w.vm === r.vm)).map((r) => ({ vm: r.vm, spells: -1, retired: r })),
  ];
  const vms: VmStateSnapshot[] = [];
  const casts: CastSnapshot[] = [];
  owners.forEach((owner, vmIndex) => {
    const mine = waiting.filter((w) => w.vm === owner.vm);
    let state: VmSnapshot;
    try {
      state = saveVm(owner.vm, mine.map((w) => w.fiber), codec);
    } catch (error) {
      if (error instanceof VerifyError) throw new WorldError(error.message);
      throw error;
    }
    vms.push(owner.retired ? { spells: -1, retired: encodeSource(owner.retired), state } : { spells: owner.spells, state });
    mine.forEach((w, fiber) => casts.push({ vm: vmIndex, fiber, spell: w.spell, caster: w.caster, wakeAt: w.wakeAt, seq: w.seq, ...saveCastHandle(s, w) }));
  });
  if (casts.length !== waiting.length) throw new WorldError('A waiting cast runs on a module the world no longer has.');
  casts.sort((a, b) => a.seq - b.seq);
  return { vms, casts, castNumber: casting.lastCastNumber };
}

/**
 * Put the VM states and waiting casts back into a restored world (its
 * spells loaded, its entities restored). `loadRetired` builds the VM of a
 * retired module. Returns the indexes of the loaded modules whose globals
 * the snapshot held. WorldError (or VerifyError) for data that does not fit.
 */
export function restoreSpellState(
  s: WorldState,
  casting: WorldCasting,
  data: SpellStateSnapshot | undefined,
  loadRetired: (source: { sourceName: string; source?: string; spb?: string }) => VM,
): ReadonlySet<number> {
  if (data === undefined) return new Set();
  if (data === null || typeof data !== 'object' || !Array.isArray(data.vms) || !Array.isArray(data.casts)) {
    throw new WorldError('The world snapshot is malformed.');
  }
  const codec = entityCodec(s);
  const loaded = casting.loaded;
  const used = new Set<number>();
  // The whole snapshot's size was counted before the restore began (world-snapshot-check.ts).
  // What the world heap has left for the waiting casts once the entities' fields are counted.
  let heldLeft = s.memory.limit - s.memory.used;
  const fibers = data.vms.map((v, i) => {
    if (v === null || typeof v !== 'object') throw new WorldError('The world snapshot is malformed.');
    let vm: VM;
    if (v.spells === -1 && v.retired !== undefined && v.retired !== null) {
      vm = loadRetired(v.retired);
    } else {
      const owner = Number.isInteger(v.spells) ? loaded[v.spells] : undefined;
      if (owner === undefined || used.has(v.spells)) {
        throw new WorldError(`The world snapshot is malformed: $.spellState.vms[${i}].spells: ${String(v.spells)} names no loaded spells module, or one another VM state has.`);
      }
      used.add(v.spells);
      vm = owner.vm;
    }
    try {
      const restored = restoreVm(vm, v.state, codec, { path: `$.spellState.vms[${i}].state`, maxHeldUnits: heldLeft, maxSnapshotChars: Infinity });
      for (const fiber of restored) heldLeft -= s.memory.holdOf(fiber);
      return { vm, fibers: restored };
    } catch (error) {
      if (error instanceof VerifyError) throw new WorldError(`The world snapshot is malformed: ${error.message.replace(/^Snapshot: /, '')}`);
      throw error;
    }
  });
  if (typeof data.castNumber === 'number') casting.countCastsFrom(data.castNumber);
  const adopted = new Set<unknown>();
  const ids = new Set<string>();
  data.casts.forEach((c, k) => {
    const at = `$.spellState.casts[${k}]`;
    const owner = c !== null && typeof c === 'object' ? fibers[c.vm] : undefined;
    const fiber = owner?.fibers[c.fiber];
    if (owner === undefined || fiber === undefined || adopted.has(fiber)) {
      throw new WorldError(`The world snapshot is malformed: ${at} names a saved fiber the snapshot does not have, or one another cast has.`);
    }
    adopted.add(fiber);
    const caster = c.caster;
    if (typeof c.spell !== 'string' || !(caster === null || (Number.isSafeInteger(caster) && caster > 0))) throw new WorldError(`The world snapshot is malformed: ${at} has a bad spell or caster.`);
    if (!(Number.isFinite(c.wakeAt) && Number.isSafeInteger(c.seq) && c.seq >= 0 && c.seq < s.castSeq)) {
      throw new WorldError(`The world snapshot is malformed: ${at}: its wake time must be finite, its seq below castSeq (${s.castSeq}).`);
    }
    const cast: InFlightCast = { fiber, vm: owner.vm, spell: c.spell, caster, wakeAt: c.wakeAt, seq: c.seq, ...restoreCastHandle(s, c, ids) };
    casting.adoptWaiting(cast);
  });
  if (adopted.size !== fibers.reduce((n, f) => n + f.fibers.length, 0)) throw new WorldError('The world snapshot is malformed: $.spellState.casts: a saved fiber has no cast waiting in it.');
  return used;
}
