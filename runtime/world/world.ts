/**
 * The World: pooled entities of data-driven breeds in a spatially
 * partitioned space, driven by spells — the Game Loop, Update Method, Event
 * Queue and Observer patterns around the pool, breeds, index and AOI.
 *
 * `tick(dt)` adds real time to an accumulator and runs fixed steps. One step:
 *   1. timers: resume casts whose wait is over, expire buffs;
 *   2. update method: each entity's breed `tick` spell runs, as tick(self, dt);
 *   3. integrate movement (x += vx·dt), bouncing off the world's edges;
 *   4. spatial index: free the slots of the dead and despawned, move the rest;
 *   5. AOI: compute enter / move / leave, queue them, run breeds'
 *      onEnter(self, other) / onLeave(self, other) spells;
 *   6. free slots despawned during 5, then flush the queued events to observers.
 *
 * A despawned (or killed) entity is gone at once for spells (alive = false,
 * out of every query, the casts it waits in cancelled); its slot is freed at
 * the next reap point, so loops over the pool never see it vanish midway. A
 * runtime error in one cast ends only that cast and is reported as a
 * `cast-error` event; an error in a listener ends no delivery (see flush).
 *
 * This file is the facade and the loop order; the parts it owns share one
 * WorldState: world-entities.ts (spawn, despawn, reaping), world-properties.ts
 * (what `e.name` reads and writes), world-buffs.ts (timed modifiers),
 * world-casting.ts (loaded spells and casts in flight),
 * ../host/world-game-host.ts (what host functions do; each cast holds it),
 * ../snapshot/world-snapshot.ts (snapshot and restore).
 */

import { compile } from '../../compiler/index.js';
import type { Diagnostic } from '../../compiler/diagnostics.js';
import { BudgetExceeded, type Budgets } from '../../vm/budgets.js';
import { HostError, VerifyError } from '../../vm/errors.js';
import type { Fiber } from '../../vm/fiber.js';
import type { HostContext, HostFunction } from '../../vm/host.js';
import type { Module } from '../../vm/module.js';
import { readSpb } from '../../vm/spb.js';
import type { Value } from '../../vm/value.js';
import { verifyModule } from '../../vm/verifier.js';
import type { VM } from '../../vm/vm.js';
import { BreedRegistry, BUILTIN_ENTITY_PROPERTIES, type BreedData } from '../entities/breeds.js';
import { EntityPool } from '../entities/entity-pool.js';
import type { EntityAccess, EntityRef } from '../entities/entity-ref.js';
import { BreedError, ListenerError, SpellsCompileError, WorldError, type ListenerFailure } from '../errors.js';
import type { AoiEventKind, EntityId, ListenerErrorHandler, WorldEvent } from '../events/events.js';
import type { EventDeclaration, EventOfDeclaration, FieldValues } from '../events/event-declaration.js';
import { EventTable, type DeclaredEvent } from '../events/event-table.js';
import { worldHostTable } from '../host/world-host-table.js';
import { WorldBuffs } from './world-buffs.js';
import { WorldCasting, castResult, type CastResult, type SpellTarget, type SpellsReload } from './world-casting.js';
import { WorldEntities, type EntityView } from './world-entities.js';
import { WorldGameHost } from '../host/world-game-host.js';
import { resolveOptions, type ResolvedWorldOptions, type WorldOptions } from './world-options.js';
import { HOT_FIELDS, WorldProperties, isHotField, type HotField } from './world-properties.js';
import { restoreCounter } from '../snapshot/queued-events-snapshot.js';
import { SNAPSHOT_FORMAT, base64ToBytes, captureSnapshot, checkSnapshotHosts, restoreSnapshot, type WorldSnapshot } from '../snapshot/world-snapshot.js';
import { restoreSpellState } from '../snapshot/world-casts-snapshot.js';
import { checkWorldSnapshot, type RestoreOptions } from '../snapshot/world-snapshot-check.js';
import { NONE, WorldState, clamp } from './world-state.js';
import { OverloadWarnings, type WorldLogger } from './overload-warnings.js';
import { WorldQueries } from './world-queries.js';
import { WorldMirrors, type MirrorView } from './world-mirrors.js';
import { captureEntity, restoreEntity, type ExportedEntity } from '../snapshot/entity-export.js';
import type { MirrorDamage } from './world-state.js';

export type { WorldOptions, ResolvedWorldOptions } from './world-options.js';
export type { RestoreOptions } from '../snapshot/world-snapshot-check.js';
export type { CastResult, SpellsReload } from './world-casting.js';
export type { EntityView } from './world-entities.js';
export type { MirrorView } from './world-mirrors.js';
export type { MirrorDamage } from './world-state.js';
export type { ExportedEntity } from '../snapshot/entity-export.js';

/** One of an entity's properties beyond the hot fields (World.fields): a breed attribute, or a field a spell set. */
export interface EntityField {
  readonly name: string;
  readonly value: Value;
  readonly setBy: 'breed' | 'spell';
}

/** The world option that declares the game's own event types (beside WorldOptions: it types the World). */
export interface GameEventsOption<G extends EventDeclaration> {
  /**
   * The game's own event types (`declareEvent()`, runtime/events/event-declaration.ts),
   * emitted with `world.emit(declaration, fields)`; listeners get them typed by their
   * declarations. A type that collides with a built-in or another is a WorldError. Like
   * `hosts`, not part of `options` or snapshots: pass them to World.restore again.
   */
  readonly events?: readonly G[];
}

/** How close to a whole step the accumulator (or a timer to now) must be to count, as a fraction of the step: absorbs rounding only. */
const STEP_TOLERANCE = 1e-6;

export class World<G extends EventDeclaration = never> implements EntityAccess {
  readonly options: ResolvedWorldOptions;
  /**
   * Everything spells in this world can call: the built-ins, then the game's
   * own functions (`options.hosts`). The compiler checks calls against it,
   * `.spb` modules are verified against it, describeHostApi-style docs and
   * the playground's completion read it.
   */
  readonly hosts: readonly HostFunction[];
  /** The world's event types: the built-ins, then the game's own (`options.events`). describeEvent(e, breedOf, world.events) names the game's too. */
  readonly events: EventTable;
  private readonly hostTable: readonly HostFunction[];
  /** The game's own host functions (options.hosts): snapshots name them, a restore needs them again. */
  private readonly gameHosts: readonly HostFunction[];
  // The parts, each one job over the shared state (see their files).
  private readonly state: WorldState;
  private readonly entityLife: WorldEntities;
  private readonly properties: WorldProperties;
  private readonly buffs: WorldBuffs;
  private readonly gameHost: WorldGameHost;
  private readonly casting: WorldCasting;
  private readonly queries: WorldQueries;
  private readonly mirrors: WorldMirrors;

  private readonly listeners = new Set<(event: WorldEvent | DeclaredEvent) => void>();
  private listenerErrorHandler: ListenerErrorHandler | null = null;
  /** True while flush() hands events to listeners (stepping or flushing from one is refused). */
  private delivering = false;
  private aoiNotes: number[] = [];
  /** Per breed index, the tick spell to cast (runTickSpells fills it each step). */
  private readonly tickTargets: (SpellTarget | null)[] = [];
  /** AOI handler casts dropped since the last flush, past options.maxHandlerCastsPerStep. */
  private droppedCasts = 0;
  private readonly overloadWarnings: OverloadWarnings;
  /** The slots the update method visits this step, copied at its start (spells may evict and reuse slots). */
  private tickOrder = new Int32Array(0);
  /** The handle of each slot in tickOrder when the phase began. */
  private tickHandles = new Float64Array(0);
  private accumulator = 0;
  /**
   * 0, width and height as doubles, for integrate(): read from options they are small
   * integers to V8, and `v > width ? width : v` then boxes every v that passes (measured:
   * 32 bytes of garbage per moving entity per step, and the step 3× slower).
   */
  private readonly bounds: Float64Array;

  constructor(options: WorldOptions & GameEventsOption<G>) {
    this.options = resolveOptions(options);
    const o = this.options;
    this.bounds = Float64Array.of(0, o.width, o.height);
    this.events = gameEventTable(options.events);
    this.state = new WorldState(o, this, new EntityPool({ capacity: o.capacity, policy: o.policy, maxCapacity: o.maxCapacity }), this.events);
    this.entityLife = new WorldEntities(this.state);
    this.properties = new WorldProperties(this.state, this.entityLife);
    this.buffs = new WorldBuffs(this.state, this.properties);
    this.gameHost = new WorldGameHost(this.state, this.entityLife, this.properties, this.buffs);
    this.gameHosts = options.hosts ?? [];
    this.overloadWarnings = new OverloadWarnings(options.logger ?? ((message) => console.warn(message)), o);
    this.hostTable = worldHostTable(this, this.gameHost, options.hosts);
    this.hosts = this.hostTable;
    this.casting = new WorldCasting(this.state, this.gameHost, this.hostTable, options.tier);
    this.queries = new WorldQueries(this.state);
    this.mirrors = new WorldMirrors(this.state, this.entityLife);
    this.state.onEntityGone = (id, reason) => this.casting.casterGone(id, reason);
  }

  /** The entity pool (hot fields in typed arrays); read-only use, please. */
  get pool(): EntityPool {
    return this.state.pool;
  }

  /** Game time in seconds (advances by `options.step` per step). */
  get time(): number {
    return this.state.time;
  }

  set time(value: number) {
    this.state.time = value;
  }

  /** Steps run so far. */
  get steps(): number {
    return this.state.steps;
  }

  set steps(value: number) {
    this.state.steps = value;
  }

  // ------------------------------------------------------------------ loading

  /**
   * Load breeds from JSON text or parsed data, or a list of them as
   * cantrip.json lists breeds files: each source adds breeds to those loaded
   * before, and may name them as parents; a name defined twice is a
   * BreedError naming both sources (`name`, or `breeds #N` for the Nth
   * loaded). Nothing is loaded when anything fails, and only BreedError is
   * thrown — after a spawn too, when breeds can no longer change. The
   * spells they name are checked against the loaded spells now when spells
   * are loaded; breeds loaded first are checked when the world first runs
   * (see checkBreedSpells).
   */
  loadBreeds(breeds: string | BreedData, name?: string): BreedRegistry;
  loadBreeds(breeds: readonly (string | BreedData)[]): BreedRegistry;
  loadBreeds(breeds: string | BreedData | readonly (string | BreedData)[], name?: string): BreedRegistry {
    if (this.pool.count > 0) throw new BreedError(`Load breeds before spawning entities (this world has ${this.pool.count} living ${this.pool.count === 1 ? 'entity' : 'entities'}).`);
    const sources: readonly unknown[] = Array.isArray(breeds) ? breeds : [breeds];
    let registry = this.state.breedRegistry;
    for (const source of sources) {
      const sourceName = sources.length === 1 ? name : undefined;
      registry = registry === null ? (typeof source === 'string' ? BreedRegistry.fromJson(source, sourceName) : BreedRegistry.fromData(source, sourceName)) : registry.adding(source, sourceName);
    }
    if (registry === null) throw new BreedError('loadBreeds takes breeds: JSON text, a { breeds: [...] } object, or a list of them.');
    const spellsLoaded = this.casting.loaded.length > 0;
    if (spellsLoaded) registry.checkSpells(new Set(this.casting.spellNames()));
    this.state.breedRegistry = registry;
    this.breedSpellsUnchecked = !spellsLoaded;
    return registry;
  }

  /**
   * Breeds loaded before (some of) the spells they name: the names could not
   * be checked then — a game may load breeds first and its spells in several
   * modules after — so they are checked at the first spawn, cast or step
   * after loading, against every loaded spell. A BreedError names the breed
   * and the field, and the world refuses to run until the spell is loaded.
   * (A breed whose tick names a missing spell used to do nothing, silently.)
   */
  private checkBreedSpells(): void {
    if (!this.breedSpellsUnchecked) return;
    this.state.breedRegistry?.checkSpells(new Set(this.casting.spellNames()));
    this.breedSpellsUnchecked = false;
  }

  private breedSpellsUnchecked = false;

  get breeds(): BreedRegistry {
    return this.state.breeds;
  }

  /**
   * Compile and load spells from source. Returns the diagnostics (warnings);
   * throws SpellsCompileError (a WorldError listing every error with its line
   * and column, and carrying the diagnostics) when the source does not compile.
   *
   * Live reload: a `sourceName` already loaded is replaced in the running
   * world. New casts, tick spells and AOI handlers use the new code from then
   * on; casts in flight finish on the code they started with. All or
   * nothing: if the new source does not compile, clashes with another
   * module's spell, drops a spell a loaded breed names, or its top-level
   * script fails, the old module stays and the error is thrown. `lastLoad`
   * says what changed (also queued as a `spells-reload` event).
   */
  loadSpells(source: string, sourceName = '<spells>'): Diagnostic[] {
    return this.loadSource(source, sourceName, true);
  }

  /** Load compiled spells (a .spb file's bytes or a Module); verified against the world's host API first. Replaces a loaded `sourceName` as loadSpells does. */
  loadModule(moduleOrBytes: Module | Uint8Array, sourceName?: string): void {
    this.loadBytecode(moduleOrBytes, sourceName, true);
  }

  /** loadSpells; `runScript` false leaves the top-level script for later (a restore runs it once the entities are back, or not at all when the save has the module's globals). */
  private loadSource(source: string, sourceName: string, runScript: boolean): Diagnostic[] {
    // With breeds loaded, the compiler also warns about entity properties no breed defines.
    const entityProperties = this.state.breedRegistry?.entityPropertyNames();
    const { module, diagnostics } = compile(source, { sourceName, hosts: this.hostTable, entityProperties });
    if (!module) throw new SpellsCompileError(sourceName, diagnostics, source);
    this.adoptModule(module, sourceName, source, runScript);
    return diagnostics;
  }

  private loadBytecode(moduleOrBytes: Module | Uint8Array, sourceName: string | undefined, runScript: boolean): void {
    const module = moduleOrBytes instanceof Uint8Array ? readSpb(moduleOrBytes) : moduleOrBytes;
    verifyModule(module, this.hostTable);
    this.adoptModule(module, sourceName ?? module.sourceName, null, runScript);
  }

  /** What the last loadSpells / loadModule added, removed and changed (null before any). */
  get lastLoad(): SpellsReload | null {
    return this.lastReload;
  }

  private lastReload: SpellsReload | null = null;

  private adoptModule(module: Module, sourceName: string, source: string | null, runScript: boolean): void {
    const summary = this.casting.addModule(module, sourceName, source, runScript);
    this.lastReload = summary;
    if (summary.reloaded) {
      const { added, removed, changed } = summary;
      this.state.push({ type: 'spells-reload', tick: this.state.steps, sourceName, added, removed, changed });
    }
  }

  /** Every spell the world can cast. */
  spellNames(): string[] {
    return this.casting.spellNames();
  }

  /**
   * Whether a spell runs on its compiled JavaScript now (it was hot, or the
   * world's tier is 'compiled') or on the interpreter; null for an unknown spell.
   */
  tierOf(spell: string): 'compiled' | 'interpreter' | null {
    return this.casting.tierOf(spell);
  }

  // ------------------------------------------------------------------ entities (embedder API)

  /** Spawn an entity of a breed; returns its id. Throws WorldError (unknown/abstract breed, full pool). */
  spawn(breedName: string, x: number, y: number): EntityId {
    this.checkBreedSpells();
    const ref = this.entityLife.spawn(breedName, x, y);
    this.entityLife.reapOutsideStep();
    return ref.id;
  }

  despawn(id: EntityId): boolean {
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) return false;
    this.entityLife.markGone(slot, 'despawned');
    this.entityLife.reapOutsideStep();
    return true;
  }

  isAlive(id: EntityId): boolean {
    return this.state.liveSlotOf(id) !== NONE;
  }

  /** A snapshot of one living entity, or null. */
  entity(id: EntityId): EntityView | null {
    const slot = this.state.liveSlotOf(id);
    return slot === NONE ? null : this.entityLife.viewOf(slot);
  }

  /** Every living entity, in pool order. */
  entities(): EntityView[] {
    return this.entityLife.views();
  }

  /** The value a spell would hold for a living entity (to pass it to a VM you run yourself, e.g. a debugger), or null. */
  entityRef(id: EntityId): EntityRef | null {
    const slot = this.state.liveSlotOf(id);
    return slot === NONE ? null : this.state.refAt(slot);
  }

  /** Read any property a spell could read (`e.armor`), or undefined. */
  property(id: EntityId, name: string): Value | undefined {
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) return undefined;
    try {
      return this.properties.get(this.state.refAt(slot), name);
    } catch {
      return undefined;
    }
  }

  /**
   * What an entity holds beyond its hot fields, as a spell reads it: its
   * breed's attributes, then the fields spells set on it (a field a spell
   * set stands in for the breed's attribute of that name). Names in order,
   * each once; [] for an entity that is not alive. For inspectors and tools.
   */
  fields(id: EntityId): EntityField[] {
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) return [];
    const set = this.state.states[slot]?.fields;
    const out: EntityField[] = [];
    for (const name of this.state.breedAt(slot).attributes.keys()) {
      if (!set?.has(name)) out.push({ name, value: this.property(id, name) ?? null, setBy: 'breed' });
    }
    for (const name of set?.keys() ?? []) out.push({ name, value: this.property(id, name) ?? null, setBy: 'spell' });
    return out;
  }

  /**
   * A hot field of a living entity, as a number: `x`, `y`, `vx`, `vy`,
   * `health`, `maxHealth`, `speed`, `radius`, `interest` — what a spell reads
   * (derived stats with their buffs), without `property()`'s `Value |
   * undefined` or `entity()`'s copy. Throws WorldError for an entity that is
   * not alive or a name that is not a hot field.
   */
  stat(id: EntityId, name: HotField): number {
    if (!isHotField(name)) throw new WorldError(`stat() reads ${HOT_FIELDS.join(', ')}; '${String(name)}' is not one (property() reads the others).`);
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) throw new WorldError(`#${id} is not a living entity.`);
    return this.properties.hotNumber(slot, name);
  }

  // ------------------------------------------------------------------ hand-over and mirrors (a world split into zones: server/)

  /**
   * Ids of entities spawned from now on start at `first` (and go up): a
   * server gives each of its worlds its own range, so an id names one entity
   * across all of them — the id it keeps when handed over.
   */
  startIdsAt(first: EntityId): void {
    if (!Number.isSafeInteger(first) || first < 1) throw new WorldError(`startIdsAt() needs a whole number ≥ 1, got ${first}.`);
    this.state.nextId = first;
  }

  /** The id the next entity spawned here gets (ids taken by imported entities are skipped then). */
  get nextEntityId(): EntityId {
    return this.state.nextId;
  }

  /**
   * A living entity with every cast it waits in as caster, as plain JSON-safe
   * data for importEntity in another world (runtime/snapshot/entity-export.ts).
   * The entity stays here until releaseEntity. Not during a step; not a mirror.
   */
  exportEntity(id: EntityId): ExportedEntity {
    if (this.state.inStep) throw new WorldError('exportEntity() was called from inside a step.');
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) throw new WorldError(`#${id} is not a living entity.`);
    if (this.state.mirror[slot] === 1) throw new WorldError(`#${id} is a mirror: the world that owns it exports it.`);
    return captureEntity(this.state, this.casting, slot, this.entityLife.viewOf(slot));
  }

  /**
   * The entity went to another world (after exportEntity): gone from this one
   * with a despawn of reason 'handed-over' — no death, no cast-cancelled events:
   * its casts end here silently, as they go on there. False if it was not alive.
   */
  releaseEntity(id: EntityId): boolean {
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE || this.state.mirror[slot] === 1) return false;
    this.casting.dropHandedOver(id);
    this.entityLife.markGone(slot, 'handed-over');
    this.entityLife.reapOutsideStep();
    return true;
  }

  /**
   * Put an entity exported from another world into this one, with the same
   * id: its casts wait again for the time they had left, whatever the two
   * worlds' clocks say. WorldError (nothing half-built) when it does not fit.
   */
  importEntity(exported: ExportedEntity): EntityId {
    if (this.state.inStep) throw new WorldError('importEntity() was called from inside a step.');
    this.checkBreedSpells();
    const id = restoreEntity({ state: this.state, entities: this.entityLife, properties: this.properties, buffs: this.buffs, casting: this.casting }, exported);
    this.entityLife.reapOutsideStep();
    return id;
  }

  /**
   * Visit every living entity's id and position, mirrors flagged, in pool
   * order, allocating nothing (a server checks thousands of entities against
   * its zone's borders each step). The visitor must not spawn or despawn.
   */
  forEachPosition(visit: (id: EntityId, x: number, y: number, mirror: boolean) => void): void {
    const s = this.state;
    const { x, y } = s.pool;
    for (let i = 0; i < s.pool.count; i++) {
      const slot = s.pool.activeAt(i);
      if (s.dying[slot] === 0) visit(s.ids[slot]!, x[slot]!, y[slot]!, s.mirror[slot] === 1);
    }
  }

  /** Add a read-only copy of an entity another world owns (runtime/world/world-mirrors.ts): queries and the AOI see it, nothing runs on it. */
  spawnMirror(view: MirrorView): void {
    if (this.state.inStep) throw new WorldError('spawnMirror() was called from inside a step.');
    this.mirrors.spawn(view);
  }

  /** Move a mirror and set its health, as its owner reports them. */
  updateMirror(id: EntityId, x: number, y: number, health: number): void {
    this.mirrors.update(id, x, y, health);
  }

  /** Take a mirror away (its entity went out of range, or the owner lost it). */
  removeMirror(id: EntityId): void {
    if (this.state.inStep) throw new WorldError('removeMirror() was called from inside a step.');
    this.mirrors.remove(id);
  }

  isMirror(id: EntityId): boolean {
    return this.mirrors.isMirror(id);
  }

  /** Damage spells dealt to mirrors since the last call: the owner's world applies it (World.damage). */
  takeMirrorDamage(): MirrorDamage[] {
    return this.mirrors.takeDamage();
  }

  /**
   * Damage a living entity as a spell's `damage(e, amount)` would, on behalf
   * of `by` (a caster, possibly in another world, or null): the owner's side
   * of damage dealt to its mirror elsewhere. Returns the damage dealt.
   */
  damage(id: EntityId, amount: number, by: EntityId | null = null): number {
    if (!(Number.isFinite(amount) && amount >= 0)) throw new WorldError(`damage() needs a finite amount ≥ 0, got ${amount}.`);
    const dealt = this.gameHost.damage(this.livingRef(id), amount, { host: this.gameHost, spell: '<embedder>', caster: by, wakeAt: 0 });
    this.entityLife.reapOutsideStep();
    return dealt;
  }

  // ------------------------------------------------------------------ spatial queries (the index spells use)

  /** Ids of the living entities within radius r of (x, y), nearest first (ties by id) — what a spell's `within(x, y, r)` finds. */
  nearby(x: number, y: number, r: number): EntityId[] {
    checkPoint('nearby', x, y);
    checkRadius('nearby', r);
    return this.queries.nearby(x, y, r);
  }

  /** Ids of the living entities in [minX, maxX] × [minY, maxY] (edges included), in id order. */
  inRect(minX: number, minY: number, maxX: number, maxY: number): EntityId[] {
    checkPoint('inRect', minX, minY);
    checkPoint('inRect', maxX, maxY);
    return this.queries.inRect(minX, minY, maxX, maxY);
  }

  /**
   * The living entity closest to (x, y) within maxR (default: anywhere), or
   * null — a spell's `nearest`: `of` keeps only a breed (or its descendants)
   * or a tag, `exclude` leaves one entity out (say, the one asking).
   */
  nearest(x: number, y: number, maxR = Infinity, options: { readonly of?: string; readonly exclude?: EntityId } = {}): EntityId | null {
    checkPoint('nearest', x, y);
    checkRadius('nearest', maxR);
    const exclude = options.exclude === undefined ? NONE : this.state.liveSlotOf(options.exclude);
    return this.queries.nearest(x, y, maxR, options.of ?? null, exclude);
  }

  /** Set a property as a spell would (`e.health = 20`). Throws WorldError when it is refused. */
  setProperty(id: EntityId, name: string, value: Value): void {
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) throw new WorldError(`#${id} is not a living entity.`);
    try {
      this.properties.set(this.state.refAt(slot), name, value);
    } catch (error) {
      if (error instanceof HostError || error instanceof BudgetExceeded) throw new WorldError(error.message);
      throw error;
    }
    this.entityLife.reapOutsideStep();
  }

  /** Put a living entity at (x, y) now, clamped to the world, keeping the spatial index in step (what `move(e, x, y)` does in a spell). Throws WorldError for a dead id or a non-finite position. */
  move(id: EntityId, x: number, y: number): void {
    checkPoint('move', x, y);
    this.gameHost.moveEntity(this.livingRef(id), x, y);
  }

  /** Set how fast a living entity moves, in units per second (what `setVelocity(e, vx, vy)` does in a spell). */
  setVelocity(id: EntityId, vx: number, vy: number): void {
    if (!Number.isFinite(vx) || !Number.isFinite(vy)) throw new WorldError(`setVelocity() needs a finite velocity, got (${vx}, ${vy}).`);
    this.gameHost.setEntityVelocity(this.livingRef(id), vx, vy);
  }

  /**
   * A number in [0, 1) from the world's seeded random source: what `random()`
   * gives a spell, from the same generator (the game's draws and its spells'
   * interleave, and a snapshot keeps the generator's state).
   */
  random(): number {
    return this.state.rng.next();
  }

  private livingRef(id: EntityId): EntityRef {
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) throw new WorldError(`#${id} is not a living entity.`);
    return this.state.refAt(slot);
  }

  /** How many times an entity's derived stats were recomputed (the dirty flag at work). */
  derivedRecomputes(id: EntityId): number {
    const slot = this.state.liveSlotOf(id);
    return slot === NONE ? 0 : (this.state.states[slot]?.recomputes ?? 0);
  }

  /** Casts waiting for game time to pass. */
  get waitingCasts(): number {
    return this.casting.waitingCount;
  }

  /**
   * Heap units (vm/costs.ts) held now against `maxWorldHeap`: what the
   * waiting casts keep alive across their waits, and the entity fields.
   */
  get heapHeld(): number {
    return this.state.memory.used;
  }

  // ------------------------------------------------------------------ casting

  /**
   * Cast a spell by name, as cast by `caster` on `target` (either may be
   * null). The spell gets (caster, target, ...args), trimmed or padded with nil to
   * its parameter count. Runs now until it finishes or waits.
   */
  cast(spell: string, caster: EntityId | null = null, target: EntityId | null = null, args: readonly Value[] = []): CastResult {
    // A JavaScript caller may pass anything; an object here is most likely the old per-cast `{ fuel }`.
    if (!Array.isArray(args)) {
      throw new WorldError(
        `World.cast takes the spell's further arguments as a list, after the caster and the target: cast(spell, caster, target, [arg, …]), not ${args === null ? 'null' : typeof args === 'object' ? 'an object' : `a ${typeof args}`}. Budgets such as fuel are the world's: new World({ budgets: { fuel } }).`,
      );
    }
    this.checkBreedSpells();
    const fiber = this.casting.castFromEmbedder(spell, caster, target, args);
    this.entityLife.reapOutsideStep();
    return castResult(fiber);
  }

  /**
   * The VM that runs `spell` (one per loaded source), or null: an embedder
   * attaches a vm/debugger Debugger to it to step the world's own casts,
   * with the world's globals. Casts it pauses are kept (see continuePaused).
   */
  spellVm(spell: string): VM | null {
    return this.casting.ownerOf(spell)?.vm ?? null;
  }

  /** Casts a debugger has paused. */
  get pausedCasts(): number {
    return this.casting.pausedCount;
  }

  /**
   * Continue a cast a debugger paused: `go` is the debugger's command (e.g.
   * `(f) => debugger.stepOver(f)`); it runs in the cast's context, and then
   * the cast is handled as any other: parked if it waits, reported if it
   * fails, kept if it pauses again. A fiber that is not paused here is
   * returned as it is.
   */
  continuePaused(fiber: Fiber, go: (fiber: Fiber) => void): CastResult {
    if (this.casting.continuePaused(fiber, go)) this.entityLife.reapOutsideStep();
    return castResult(fiber);
  }

  /** End a paused or waiting cast (a debugger's Stop). No cast-error is reported. Returns whether it was live here. */
  cancelCast(fiber: Fiber, message = 'Cast cancelled.'): boolean {
    return this.casting.cancel(fiber, message);
  }

  // ------------------------------------------------------------------ the loop

  /** Advance real time; runs as many fixed steps as fit (at most maxStepsPerTick). Returns the steps run. */
  tick(dt: number): number {
    if (!(dt >= 0) || !Number.isFinite(dt)) throw new WorldError(`tick(dt) needs a finite dt ≥ 0, got ${dt}.`);
    // Refused before the time is counted: a refused tick must not leave its dt for the next one.
    if (this.state.inStep) throw new WorldError('tick() was called from inside a step.');
    this.refuseWhileDelivering('tick');
    const step = this.options.step;
    this.accumulator += dt;
    let ran = 0;
    // A tolerance so that ten ticks of 0.1 s are ten steps despite rounding: a fraction of the step, not of a second.
    while (this.accumulator >= step * (1 - STEP_TOLERANCE) && ran < this.options.maxStepsPerTick) {
      this.accumulator -= step;
      this.step();
      ran++;
    }
    if (ran === this.options.maxStepsPerTick && this.accumulator >= step) this.accumulator = 0;
    if (this.accumulator < 0) this.accumulator = 0;
    return ran;
  }

  /**
   * How far real time is between the last fixed step and the next, in [0, 1):
   * the leftover of tick()'s accumulator over the step (the book's
   * `lag / MS_PER_UPDATE`). A renderer draws an entity at
   * `x + vx * step * interpolation` to move smoothly between steps.
   */
  get interpolation(): number {
    return Math.min(Math.max(this.accumulator / this.options.step, 0), 1 - Number.EPSILON);
  }

  /** Run exactly one fixed step. */
  step(): void {
    const s = this.state;
    if (s.inStep) throw new WorldError('step() was called from inside a step.');
    this.refuseWhileDelivering('step');
    this.checkBreedSpells();
    s.inStep = true;
    try {
      s.steps++;
      s.time = s.steps * this.options.step;
      this.runTimers();
      this.runTickSpells();
      this.integrate();
      this.entityLife.reap();
      this.updateIndex();
      this.runAoi();
      this.entityLife.reap();
    } finally {
      s.inStep = false;
    }
    this.flush();
  }

  /**
   * Deliver queued events to observers now (step() does it at its end).
   * Every event goes to every listener even if one throws: its error goes
   * to the `onListenerError` handler, or, without one, flush throws a
   * ListenerError after the delivery. Events queued while listeners run
   * (a listener that casts) go out at the next flush.
   */
  flush(): void {
    const s = this.state;
    this.refuseWhileDelivering('flush');
    if (s.droppedEvents > 0 || this.droppedCasts > 0) {
      s.queue.push({ type: 'overload', tick: s.steps, droppedEvents: s.droppedEvents, droppedCasts: this.droppedCasts });
      this.overloadWarnings.report(s.steps, s.droppedEvents, this.droppedCasts);
      s.droppedEvents = 0;
      this.droppedCasts = 0;
    }
    if (s.queue.length === 0) return;
    const events = s.queue;
    s.queue = [];
    const failures: ListenerFailure[] = [];
    this.delivering = true;
    try {
      for (const event of events) {
        for (const listener of this.listeners) {
          try {
            listener(event);
          } catch (error) {
            this.listenerFailed(error, event, failures);
          }
        }
      }
    } finally {
      this.delivering = false;
    }
    if (failures.length > 0) throw new ListenerError(failures);
  }

  /**
   * Where errors thrown by listeners go: `handler(error, event)` is called
   * for each and delivery goes on (a game that logs a faulty observer and
   * keeps running). Without a handler, flush() — and so step() and tick() —
   * throws a ListenerError once every event was delivered. `null` restores that.
   */
  onListenerError(handler: ListenerErrorHandler | null): void {
    this.listenerErrorHandler = handler;
  }

  /**
   * Queue an event for the observers. One of the game's own types (declared
   * in `options.events`) is emitted by its declaration with its fields —
   * `emit(questDone, { quest: 'Rats', hero: id })` — checked against the
   * declaration (a WorldError says which field is wrong) and stamped with
   * the current step, as the world's own events are. A built-in event is
   * queued as given (tools that drive a world add their own notes this way).
   */
  emit<D extends EventDeclaration>(declaration: D, fields: FieldValues<D['fields']>): void;
  emit(event: WorldEvent): void;
  emit(event: WorldEvent | EventDeclaration, fields?: Readonly<Record<string, unknown>>): void {
    if (fields === undefined) {
      this.state.push(event as WorldEvent);
      return;
    }
    const stamped = this.events.stamp(event as EventDeclaration, fields, this.state.steps);
    if (typeof stamped === 'string') throw new WorldError(stamped);
    this.state.push(stamped);
  }

  /** Observe events (the world's own, and the game's declared in `options.events`); returns a function that stops observing. */
  on(listener: (event: WorldEvent | EventOfDeclaration<G>) => void): () => void {
    // The queue holds only events of the world's declared types, so each reaches the listener as its declaration types it.
    const deliver = listener as (event: WorldEvent | DeclaredEvent) => void;
    this.listeners.add(deliver);
    return () => this.listeners.delete(deliver);
  }

  private listenerFailed(error: unknown, event: WorldEvent | DeclaredEvent, failures: ListenerFailure[]): void {
    const handler = this.listenerErrorHandler;
    if (handler === null) {
      failures.push({ error, event });
      return;
    }
    try {
      handler(error, event);
    } catch (handlerError) {
      failures.push({ error: handlerError, event });
    }
  }

  /** Stepping or flushing from a listener would deliver later events before the rest of this delivery. */
  private refuseWhileDelivering(what: 'step' | 'tick' | 'flush'): void {
    if (!this.delivering) return;
    throw new WorldError(`${what}() was called from a world listener: the world is delivering events. Call it after tick(), step() or flush() returns.`);
  }

  private runTimers(): void {
    // Due "now" within rounding: the same tolerance as the accumulator's, relative to the step.
    const now = this.state.time + this.options.step * STEP_TOLERANCE;
    this.buffs.expireDue(now);
    this.casting.resumeDue(now);
  }

  /**
   * The update method, once for each entity alive when the phase starts.
   * A spell may spawn into a full 'recycle-oldest' pool, which frees a slot
   * at once and reorders the packed live slots: so the phase walks a copy of
   * them, and skips slots whose entity is gone or was born during the phase.
   */
  private runTickSpells(): void {
    const s = this.state;
    const count = s.pool.count;
    if (count === 0) return;
    const dt = this.options.step;
    // Each breed's tick spell, resolved once per step rather than once per entity.
    const targets = this.tickTargets;
    const breeds = s.breeds.breeds;
    targets.length = breeds.length;
    for (let b = 0; b < breeds.length; b++) {
      const spell = breeds[b]!.spells.tick;
      targets[b] = spell === undefined ? null : (this.casting.targetOf(spell) ?? null);
    }
    // The slots to visit, copied first: a spell may evict (recycle-oldest) and so move or reuse slots.
    if (this.tickOrder.length < count) this.tickOrder = new Int32Array(s.pool.capacity);
    const order = this.tickOrder;
    order.set(s.pool.activeSlots.subarray(0, count));
    // An entity born during the phase gets a slot's new handle (ids do not tell: an imported entity keeps an id from elsewhere).
    if (this.tickHandles.length < count) this.tickHandles = new Float64Array(s.pool.capacity);
    const handles = this.tickHandles;
    for (let i = 0; i < count; i++) handles[i] = s.pool.handleAt(order[i]!);
    const breedOf = s.pool.breed;
    const mirror = s.mirror;
    const casting = this.casting;
    casting.beginPhase(dt);
    try {
      for (let i = 0; i < count; i++) {
        const slot = order[i]!;
        const id = s.ids[slot]!;
        const handle = handles[i]!;
        if (s.dying[slot] === 1 || mirror[slot] === 1 || !s.pool.isLiveSlot(slot) || s.pool.handleAt(slot) !== handle) continue;
        const target = targets[breedOf[slot]!]!;
        if (target === null) continue;
        casting.castInPhase(target, s.refWithHandle(slot, handle), id);
      }
    } finally {
      this.casting.endPhase();
    }
  }

  private integrate(): void {
    const pool = this.state.pool;
    const { x, y, vx, vy } = pool;
    const dt = this.options.step;
    const bounds = this.bounds;
    const zero = bounds[0]!;
    const width = bounds[1]!;
    const height = bounds[2]!;
    const mirror = this.state.mirror;
    const count = pool.count;
    for (let i = 0; i < count; i++) {
      const s = pool.activeAt(i);
      if ((vx[s] === 0 && vy[s] === 0) || mirror[s] === 1) continue;
      let nx = x[s]! + vx[s]! * dt;
      let ny = y[s]! + vy[s]! * dt;
      if (nx < 0 || nx > width) {
        vx[s] = -vx[s]!;
        nx = nx < 0 ? -nx : 2 * width - nx;
      }
      if (ny < 0 || ny > height) {
        vy[s] = -vy[s]!;
        ny = ny < 0 ? -ny : 2 * height - ny;
      }
      x[s] = clamp(nx, zero, width);
      y[s] = clamp(ny, zero, height);
    }
  }

  private updateIndex(): void {
    const { pool, index } = this.state;
    const { x, y } = pool;
    for (let i = 0; i < pool.count; i++) {
      const s = pool.activeAt(i);
      if (index.xOf(s) !== x[s] || index.yOf(s) !== y[s]) index.move(s, x[s]!, y[s]!);
    }
  }

  private readonly noteAoi = (kind: AoiEventKind, observer: number, subject: number): void => {
    this.aoiNotes.push(kind === 'enter' ? 0 : kind === 'move' ? 1 : 2, observer, subject);
  };

  private runAoi(): void {
    const s = this.state;
    this.aoiNotes.length = 0;
    s.aoi.update(this.noteAoi);
    const notes = this.aoiNotes;
    this.aoiNotes = [];
    // At most maxHandlerCastsPerStep onEnter / onLeave casts a step; the rest are dropped and counted.
    let handlerCasts = 0;
    for (let i = 0; i < notes.length; i += 3) {
      const kind: AoiEventKind = notes[i] === 0 ? 'enter' : notes[i] === 1 ? 'move' : 'leave';
      const observer = notes[i + 1]!;
      const subject = notes[i + 2]!;
      if (kind !== 'move' || this.options.aoiMoveEvents) s.push({ type: 'aoi', tick: s.steps, kind, observer, subject });
      if (kind === 'move') continue;
      const slot = s.liveSlotOf(observer);
      // A mirror's handlers run in the world that owns it.
      if (slot === NONE || s.mirror[slot] === 1) continue;
      const spell = s.breedAt(slot).spells[kind === 'enter' ? 'onEnter' : 'onLeave'];
      const target = spell === undefined ? undefined : this.casting.targetOf(spell);
      if (target === undefined) continue;
      if (handlerCasts >= this.options.maxHandlerCastsPerStep) {
        this.droppedCasts++;
        continue;
      }
      handlerCasts++;
      this.casting.castForEntity(target, s.refAt(slot), observer, s.refById(subject));
    }
    notes.length = 0;
    this.aoiNotes = notes;
  }

  // ------------------------------------------------------------------ entity properties (EntityAccess: what EntityRef calls)

  getEntityProperty(ref: EntityRef, name: string): Value | undefined {
    return this.properties.get(ref, name);
  }

  setEntityProperty(ref: EntityRef, name: string, value: Value): void {
    this.properties.set(ref, name, value);
  }

  invokeEntityMethod(ref: EntityRef, name: string, args: readonly Value[], ctx: HostContext): Value | undefined {
    return this.properties.invoke(ref, name, args, ctx);
  }

  // ------------------------------------------------------------------ snapshots

  /**
   * The whole world as plain JSON-safe data: options, time, random state,
   * breeds, spells (source, or .spb as base64), the pool (same slots and
   * handles), entity fields and buffs, AOI sets — and every module's globals
   * and every cast waiting in `wait`, with the heap it reaches, so the
   * restored world goes on exactly as this one would (docs/runtime.md,
   * Snapshots). Casts a debugger has paused are not saved; `pendingCasts`
   * counts them.
   */
  snapshot(): WorldSnapshot {
    for (let i = 0; i < this.state.pool.count; i++) {
      if (this.state.mirror[this.state.pool.activeAt(i)] === 1) throw new WorldError('The world holds mirrors of other worlds\' entities: remove them before a snapshot (a zone saves its own entities with exportEntity).');
    }
    return captureSnapshot(this.state, this.casting, this.accumulator, this.droppedCasts, this.gameHosts);
  }

  /**
   * Rebuild a world from snapshot() data (a structured clone or JSON round
   * trip of it). A save is untrusted input (docs/security.md, "Saves"): its
   * shape and every size in it are checked before anything is built, and
   * the embedder's `options` govern the restored world — the budgets of its
   * casts and its limits (maxWorldHeap, maxCapacity …) are the lower of the
   * save's and these, each defaulting to a new World's. A world made with
   * `hosts` is restored with the same `hosts` (functions are code, not data:
   * the snapshot does not carry them). WorldError (or BreedError,
   * VerifyError) naming the field for data that does not fit.
   */
  static restore<G extends EventDeclaration = never>(snapshot: WorldSnapshot, options: RestoreOptions & { readonly events?: readonly G[] } = {}): World<G> {
    if (snapshot?.format !== SNAPSHOT_FORMAT) throw new WorldError('Not a Cantrip world snapshot.');
    const worldOptions = checkWorldSnapshot(snapshot, options);
    checkSnapshotHosts(snapshot, options.hosts);
    try {
      return World.restoreUnchecked(snapshot, { ...worldOptions, events: options.events, logger: options.logger, tier: options.tier });
    } catch (error) {
      // Breeds, spells and options report their own errors; anything else means the data was tampered with.
      if (error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError) throw error;
      throw new WorldError('The world snapshot is malformed.');
    }
  }

  private static restoreUnchecked<G extends EventDeclaration>(snapshot: WorldSnapshot, options: WorldOptions & GameEventsOption<G>): World<G> {
    const world = new World<G>(options);
    if (snapshot.breeds !== null) world.loadBreeds(snapshot.breeds as BreedData);
    // The modules' top-level scripts wait: a module the save holds the globals of never runs it again,
    // and one it does not runs it once the entities are back (a script may spawn).
    for (const s of snapshot.spells) {
      if (s.source !== undefined) world.loadSource(s.source, s.sourceName, false);
      else world.loadBytecode(base64ToBytes(s.spb ?? ''), s.sourceName, false);
    }
    if (world.casting.loaded.length > 0) world.state.breedRegistry?.checkSpells(new Set(world.casting.spellNames()));
    world.accumulator = snapshot.accumulator;
    restoreSnapshot(world.state, world.entityLife, world.buffs, snapshot);
    world.droppedCasts = restoreCounter(snapshot.dropped?.casts);
    // Fields first: the waiting casts are counted against what the world heap has left after them.
    world.state.memory.recount(world.state.states);
    const restored = restoreSpellState(world.state, world.casting, snapshot.spellState, (retired) => {
      const module = retired.source !== undefined ? compileOrThrow(retired.source, retired.sourceName, world.hostTable) : readSpb(base64ToBytes(retired.spb ?? ''));
      verifyModule(module, world.hostTable);
      return world.casting.addRetired(module, retired.sourceName, retired.source ?? null);
    });
    world.casting.loaded.forEach((l, i) => {
      if (!restored.has(i)) world.casting.runScript(l.vm, l.sourceName);
    });
    world.entityLife.reapOutsideStep();
    return world;
  }
}

export { BUILTIN_ENTITY_PROPERTIES };

function compileOrThrow(source: string, sourceName: string, hosts: readonly HostFunction[]): Module {
  const { module, diagnostics } = compile(source, { sourceName, hosts });
  if (!module) throw new SpellsCompileError(sourceName, diagnostics, source);
  return module;
}

/** The world's event table; a bad game declaration is a WorldError. */
function gameEventTable(events: readonly EventDeclaration[] | undefined): EventTable {
  if (events === undefined || events.length === 0) return EventTable.BUILT_IN;
  if (!Array.isArray(events)) throw new WorldError("World option 'events' must be a list of event declarations.");
  try {
    return new EventTable(events);
  } catch (error) {
    throw new WorldError(error instanceof Error ? error.message : String(error));
  }
}

/** The embedder's query arguments: a bad one is a WorldError naming the call, never NaN in the index. */
function checkPoint(call: string, x: number, y: number): void {
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new WorldError(`${call}() needs a finite position, got (${x}, ${y}).`);
}

function checkRadius(call: string, r: number): void {
  if (!(typeof r === 'number' && r >= 0)) throw new WorldError(`${call}() needs a radius ≥ 0, got ${r}.`);
}
