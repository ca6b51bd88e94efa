/**
 * The state a World's parts share: the pool with its per-slot side tables
 * (serial ids, despawn marks, cold state, cached references), the spatial
 * index and AOI built over it, the event queue, the clocks and the seeded
 * random source — and the lookups every part makes on them.
 *
 * One object, owned by the World and handed to each part (entities,
 * properties, buffs, effects, casting), so that replacing the pool (growth,
 * restore) is seen by all of them at once.
 */

import { HostError } from '../../vm/errors.js';
import { AreaOfInterest } from '../aoi/aoi.js';
import type { Breed, BreedRegistry } from '../entities/breeds.js';
import type { EntityPool } from '../entities/entity-pool.js';
import { EntityRef, type EntityAccess } from '../entities/entity-ref.js';
import type { EntityState } from '../entities/entity-state.js';
import { WorldError } from '../errors.js';
import type { CastContext } from '../host/host-api.js';
import type { DespawnReason, EntityId, WorldEvent } from '../events/events.js';
import type { DeclaredEvent, EventTable } from '../events/event-table.js';
import { SeededRandom } from './rng.js';
import type { SpatialIndex } from '../spatial/spatial-index.js';
import { WorldMemory } from './world-memory.js';
import { makeIndex, type ResolvedWorldOptions } from './world-options.js';

/** "No slot" for lookups. */
export const NONE = -1;

/**
 * What a spell did to a mirror, for the world that owns the entity to do
 * (World.applyMirrorEffect), in the order it was done: damage, healing, a
 * buff, a property set to a plain value, speech. `by` is the caster, or null.
 */
export type MirrorEffect =
  | { readonly kind: 'damage'; readonly entity: EntityId; readonly amount: number; readonly by: EntityId | null }
  | { readonly kind: 'heal'; readonly entity: EntityId; readonly amount: number; readonly by: EntityId | null }
  | { readonly kind: 'buff'; readonly entity: EntityId; readonly stat: string; readonly amount: number; readonly seconds: number; readonly by: EntityId | null }
  | { readonly kind: 'set'; readonly entity: EntityId; readonly name: string; readonly value: number | string | boolean | null; readonly by: EntityId | null }
  | { readonly kind: 'say'; readonly entity: EntityId; readonly text: string; readonly by: EntityId | null };

/** A slot marked gone, waiting to be freed at the next reap point. */
export interface ReapEntry {
  readonly slot: number;
  readonly reason: DespawnReason;
}

export class WorldState {
  readonly rng: SeededRandom;
  pool!: EntityPool;
  index!: SpatialIndex;
  aoi!: AreaOfInterest;
  breedRegistry: BreedRegistry | null = null;

  // Per slot (grown with the pool): serial id, despawn mark, cold state, cached reference.
  ids!: Float64Array;
  dying!: Uint8Array;
  /** 1 for a mirror (a read-only copy of an entity another world owns: runtime/world/world-mirrors.ts). */
  mirror!: Uint8Array;
  /** What spells did to mirrors since World.takeMirrorEffects last took it: the owner's world does it. */
  mirrorEffects: MirrorEffect[] = [];
  states: (EntityState | null)[] = [];
  refs: (EntityRef | null)[] = [];
  /**
   * The handle each cached reference in `refs` was made for. refAt checks it
   * here, in a flat array, rather than in the reference object: a tick over
   * 10,000 entities would otherwise take a cache miss per entity.
   */
  private refHandles = new Float64Array(0);
  readonly slotById = new Map<EntityId, number>();
  reapQueue: ReapEntry[] = [];
  nextId = 1;

  queue: (WorldEvent | DeclaredEvent)[] = [];
  /** Effect events dropped since the last flush, past options.maxEventsPerStep. */
  droppedEvents = 0;
  /** What outlives casts, against options.maxWorldHeap. */
  readonly memory: WorldMemory;
  /** Orders waits and buffs that fall due at the same time. */
  castSeq = 0;
  /** Game time in seconds (advances by `options.step` per step). */
  time = 0;
  /** Steps run so far. */
  steps = 0;
  /**
   * The cast whose spell code runs in this world now, or null: for what a
   * spell does without a host call (a print, an assignment to `e.health`),
   * which the world sees without a HostContext. Host functions read the cast
   * from theirs. World-casting sets it around every run, beside `vm.hostCast`.
   */
  running: CastContext | null = null;
  /** True while a step runs: slots are then freed only at the step's reap points. */
  inStep = false;
  /** Told the moment an entity is gone (killed, despawned, recycled), before its slot is freed: its waiting casts end. */
  onEntityGone: (id: EntityId, reason: DespawnReason) => void = () => {};

  constructor(
    readonly options: ResolvedWorldOptions,
    /** What entity references call back into (the World): also the identity spells' values are checked against. */
    readonly access: EntityAccess,
    pool: EntityPool,
    /** The world's event types: the built-ins and the game's own. */
    readonly events: EventTable,
  ) {
    this.rng = new SeededRandom(options.seed);
    this.memory = new WorldMemory(options.maxWorldHeap);
    this.usePool(pool);
  }

  /** Build the index, AOI and side tables for a pool (a new world, or a restored one); no entity is known yet. */
  usePool(pool: EntityPool): void {
    this.pool = pool;
    this.index = makeIndex(this.options, pool.capacity);
    this.aoi = new AreaOfInterest(
      pool,
      this.index,
      this.options.interestShape,
      { keyOf: (slot) => this.ids[slot]!, slotOf: (id) => this.slotById.get(id) ?? NONE },
      { moveEvents: this.options.aoiMoveEvents, engine: this.options.aoi },
    );
    this.ids = new Float64Array(pool.capacity);
    this.dying = new Uint8Array(pool.capacity);
    this.mirror = new Uint8Array(pool.capacity);
    this.states = new Array<EntityState | null>(pool.capacity).fill(null);
    this.refs = new Array<EntityRef | null>(pool.capacity).fill(null);
    this.refHandles = new Float64Array(pool.capacity);
    this.slotById.clear();
  }

  get breeds(): BreedRegistry {
    if (!this.breedRegistry) throw new WorldError('No breeds are loaded.');
    return this.breedRegistry;
  }

  /**
   * Queue an event. Past maxEventsPerStep events in the queue, effect events are dropped and
   * counted (World.flush reports them in one 'overload' event); the events that keep observers'
   * books straight (those declared not droppable: spawn, despawn, cast, cast-error …) are always queued — their number is bounded
   * by the pool and by the casts a step runs.
   */
  push(event: WorldEvent | DeclaredEvent): void {
    if (this.queue.length >= this.options.maxEventsPerStep && this.events.droppable(event.type)) {
      this.droppedEvents++;
      return;
    }
    this.queue.push(event);
  }

  /** The slot of a living entity, or NONE. */
  liveSlotOf(id: EntityId): number {
    const slot = this.slotById.get(id);
    return slot === undefined || this.dying[slot] === 1 ? NONE : slot;
  }

  breedAt(slot: number): Breed {
    return this.breeds.at(this.pool.breed[slot]!);
  }

  /** The (cached) reference to the live entity in a slot. */
  refAt(slot: number): EntityRef {
    return this.refWithHandle(slot, this.pool.handleAt(slot));
  }

  /**
   * refAt for a caller that already has the slot's current handle (the tick
   * phase: one handle computed per entity, not two). The cached road only:
   * making a reference is `newRef`, so that a caller V8 inlines this into
   * (the tick loop) spends little of its inlining budget on it.
   */
  refWithHandle(slot: number, handle: number): EntityRef {
    const handles = this.refHandles;
    if (slot < handles.length && handles[slot] === handle) {
      // Compared with null, not tested for truth: that would read the object (a cache miss).
      const cached = this.refs[slot];
      if (cached !== null && cached !== undefined) return cached;
    }
    return this.newRef(slot, handle);
  }

  /** Make (and cache) the reference to the entity in `slot` with `handle`. */
  private newRef(slot: number, handle: number): EntityRef {
    let handles = this.refHandles;
    const ref = new EntityRef(this.access, handle, this.ids[slot]!, this.breedAt(slot).name);
    this.refs[slot] = ref;
    if (slot >= handles.length) {
      // The pool grew: grow with it.
      const grown = new Float64Array(Math.max(this.pool.capacity, slot + 1));
      grown.set(handles);
      this.refHandles = handles = grown;
    }
    handles[slot] = handle;
    return ref;
  }

  /** A reference by id; for an entity already gone, a reference that says so. */
  refById(id: EntityId): EntityRef {
    const slot = this.slotById.get(id);
    return slot === undefined ? new EntityRef(this.access, 0, id, 'entity') : this.refAt(slot);
  }

  /** The slot of a living entity a spell refers to, or HostError "Entity is gone.". */
  slotOfRef(ref: EntityRef): number {
    const slot = this.pool.indexOf(ref.handle);
    if (slot === NONE || this.dying[slot] === 1) throw new HostError('Entity is gone.');
    return slot;
  }
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}
