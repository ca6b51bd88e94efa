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
 * out of every query); its slot is freed at the next reap point, so loops
 * over the pool never see it vanish midway. A runtime error in one cast ends
 * only that cast and is reported as a `cast-error` event.
 */

import { compile } from '../compiler/index.js';
import type { Diagnostic } from '../compiler/diagnostics.js';
import type { Budgets } from '../vm/budgets.js';
import { HostError, SpellRuntimeError, VerifyError } from '../vm/errors.js';
import { Fiber } from '../vm/fiber.js';
import type { HostContext } from '../vm/host.js';
import type { Module } from '../vm/module.js';
import { readSpb, writeSpb } from '../vm/spb.js';
import type { Value } from '../vm/value.js';
import { verifyModule } from '../vm/verifier.js';
import { VM } from '../vm/vm.js';
import { AreaOfInterest, type AoiEventKind } from './aoi.js';
import { BreedRegistry, BUILTIN_ENTITY_PROPERTIES, type Breed } from './breeds.js';
import { EntityPool } from './entity-pool.js';
import { EntityRef, type EntityAccess } from './entity-ref.js';
import { EntityState, type FieldValue, type Modifier } from './entity-state.js';
import { BreedError, WorldError } from './errors.js';
import type { DespawnReason, EntityId, WorldEvent, WorldListener } from './events.js';
import { WORLD_HOST_FUNCTIONS, currentCast, runInCast, type CastContext, type GameHost } from './host-api.js';
import { MinHeap } from './min-heap.js';
import { SeededRandom } from './rng.js';
import type { SpatialIndex } from './spatial-index.js';
import { makeIndex, resolveOptions, type ResolvedWorldOptions, type WorldOptions } from './world-options.js';
import {
  SNAPSHOT_FORMAT,
  base64ToBytes,
  bytesToBase64,
  decodeField,
  encodeField,
  type EntitySnapshot,
  type SpellSourceSnapshot,
  type WorldSnapshot,
} from './world-snapshot.js';

export type { WorldOptions, ResolvedWorldOptions } from './world-options.js';

/**
 * What a cast from the embedder ended as (it may go on later if suspended).
 * 'paused' only happens with a vm/debugger Debugger attached to the spell's
 * VM (see `spellVm`): the world keeps the cast and `continuePaused` steps it.
 */
export interface CastResult {
  readonly state: 'done' | 'suspended' | 'failed' | 'paused';
  readonly result: Value;
  readonly error: SpellRuntimeError | null;
  /** The cast's fiber: the handle a debugger steps, or `cancelCast` ends. */
  readonly fiber: Fiber;
}

/** A read-only view of one entity, for embedders and tests. */
export interface EntityView {
  readonly id: EntityId;
  readonly breed: string;
  readonly x: number;
  readonly y: number;
  readonly vx: number;
  readonly vy: number;
  readonly health: number;
  readonly maxHealth: number;
  readonly speed: number;
  readonly radius: number;
  readonly interest: number;
}

interface LoadedSpells {
  readonly vm: VM;
  readonly module: Module;
  readonly sourceName: string;
  /** The source text, when loaded from source (snapshots re-compile it). */
  readonly source: string | null;
  /** Parameter count of each spell, to fit the arguments a cast passes. */
  readonly arity: ReadonlyMap<string, number>;
}

interface WaitingCast {
  readonly fiber: Fiber;
  readonly vm: VM;
  readonly cast: CastContext;
  readonly seq: number;
}

/** A cast stopped by a debugger at a breakpoint or step: kept until the debugger continues or cancels it. */
interface PausedCast {
  readonly vm: VM;
  readonly cast: CastContext;
}

interface ActiveBuff {
  readonly entity: EntityId;
  readonly modifier: Modifier;
}

/** Stats a buff may change besides numeric breed attributes. */
const BUFFABLE = new Set(['speed', 'maxHealth', 'interest']);
const NONE = -1;
/** Active buffs one entity may carry. */
const MAX_MODIFIERS = 64;
/** Most particles one particles() call reports. */
const MAX_PARTICLES = 10_000;
/** The cast name of a module's top-level script. */
const SCRIPT = '<script>';

export class World implements GameHost, EntityAccess {
  readonly options: ResolvedWorldOptions;
  private entityPool: EntityPool;
  private index: SpatialIndex;
  private aoi: AreaOfInterest;
  private breedRegistry: BreedRegistry | null = null;
  private readonly loaded: LoadedSpells[] = [];
  private readonly spellOwner = new Map<string, LoadedSpells>();

  // Per slot (grown with the pool): serial id, despawn mark, cold state, cached reference.
  private ids: Float64Array;
  private dying: Uint8Array;
  private states: (EntityState | null)[] = [];
  private refs: (EntityRef | null)[] = [];
  private readonly slotById = new Map<EntityId, number>();
  private reapQueue: { slot: number; reason: DespawnReason }[] = [];
  private nextId = 1;

  private waiting = new MinHeap<WaitingCast>(wakesBefore);
  private readonly paused = new Map<Fiber, PausedCast>();
  private buffs = new MinHeap<ActiveBuff>(buffBefore);
  private castSeq = 0;
  private queue: WorldEvent[] = [];
  private readonly listeners = new Set<WorldListener>();
  private readonly rng: SeededRandom;
  private inStep = false;
  private aoiNotes: number[] = [];

  /** Game time in seconds (advances by `options.step` per step). */
  time = 0;
  /** Steps run so far. */
  steps = 0;
  private accumulator = 0;

  constructor(options: WorldOptions) {
    this.options = resolveOptions(options);
    const o = this.options;
    this.entityPool = new EntityPool({ capacity: o.capacity, policy: o.policy, maxCapacity: o.maxCapacity });
    this.index = makeIndex(o, o.capacity);
    this.ids = new Float64Array(o.capacity);
    this.dying = new Uint8Array(o.capacity);
    this.states = new Array<EntityState | null>(o.capacity).fill(null);
    this.refs = new Array<EntityRef | null>(o.capacity).fill(null);
    this.rng = new SeededRandom(o.seed);
    this.aoi = new AreaOfInterest(this.pool, this.index, o.interestShape, {
      keyOf: (slot) => this.ids[slot]!,
      slotOf: (id) => this.slotById.get(id) ?? NONE,
    });
    this.pool.onResize = (capacity) => this.growTo(capacity);
    this.pool.onEvict = (_handle, slot) => this.evict(slot);
  }

  /** The entity pool (hot fields in typed arrays); read-only use, please. */
  get pool(): EntityPool {
    return this.entityPool;
  }

  // ------------------------------------------------------------------ loading

  /** Load breeds from JSON text or parsed data (BreedError on bad data). Spell names are checked against loaded spells. */
  loadBreeds(breeds: string | unknown): BreedRegistry {
    if (this.pool.count > 0) throw new WorldError('Load breeds before spawning entities.');
    const registry = typeof breeds === 'string' ? BreedRegistry.fromJson(breeds) : BreedRegistry.fromData(breeds);
    if (this.loaded.length > 0) registry.checkSpells(new Set(this.spellOwner.keys()));
    this.breedRegistry = registry;
    return registry;
  }

  get breeds(): BreedRegistry {
    if (!this.breedRegistry) throw new WorldError('No breeds are loaded.');
    return this.breedRegistry;
  }

  /**
   * Compile and load spells from source. Returns the diagnostics; throws
   * WorldError (with them in the message) when the source does not compile.
   */
  loadSpells(source: string, sourceName = '<spells>'): Diagnostic[] {
    const { module, diagnostics } = compile(source, { sourceName, hosts: WORLD_HOST_FUNCTIONS });
    if (!module) {
      const first = diagnostics.find((d) => d.severity === 'error');
      throw new WorldError(`${sourceName} does not compile: ${first ? `[line ${first.line}] ${first.message}` : 'unknown error'}`);
    }
    this.addModule(module, sourceName, source);
    return diagnostics;
  }

  /** Load compiled spells (a .spb file's bytes or a Module); verified against the world's host API first. */
  loadModule(moduleOrBytes: Module | Uint8Array, sourceName?: string): void {
    const module = moduleOrBytes instanceof Uint8Array ? readSpb(moduleOrBytes) : moduleOrBytes;
    verifyModule(module, WORLD_HOST_FUNCTIONS);
    this.addModule(module, sourceName ?? module.sourceName, null);
  }

  /** Every spell the world can cast. */
  spellNames(): string[] {
    return [...this.spellOwner.keys()];
  }

  private addModule(module: Module, sourceName: string, source: string | null): void {
    for (const s of module.spells) {
      if (this.spellOwner.has(s.name)) throw new WorldError(`Spell '${s.name}' is defined twice (again in ${sourceName}).`);
    }
    const vm = new VM(module, {
      ...this.options.budgets,
      hosts: WORLD_HOST_FUNCTIONS,
      print: (text) => this.emitPrint(text),
    });
    const arity = new Map(module.spells.map((s) => [s.name, module.functions[s.functionIndex]?.arity ?? 0]));
    const entry: LoadedSpells = { vm, module, sourceName, source, arity };
    const cast: CastContext = { host: this, spell: SCRIPT, caster: null, wakeAt: 0 };
    const script = runInCast(cast, () => vm.runScript());
    if (script.state === 'failed') {
      throw new WorldError(`${sourceName}: the top-level script failed: ${script.error?.message ?? 'unknown error'}`);
    }
    if (script.state !== 'done') throw new WorldError(`${sourceName}: the top-level script may not wait.`);
    this.loaded.push(entry);
    for (const s of module.spells) this.spellOwner.set(s.name, entry);
  }

  // ------------------------------------------------------------------ entities (embedder API)

  /** Spawn an entity of a breed; returns its id. Throws WorldError (unknown/abstract breed, full pool). */
  spawn(breedName: string, x: number, y: number): EntityId {
    const ref = this.spawnEntity(breedName, x, y);
    if (!this.inStep) this.reap();
    return ref.id;
  }

  despawn(id: EntityId): boolean {
    const slot = this.liveSlotOf(id);
    if (slot === NONE) return false;
    this.markGone(slot, 'despawned');
    if (!this.inStep) this.reap();
    return true;
  }

  isAlive(id: EntityId): boolean {
    return this.liveSlotOf(id) !== NONE;
  }

  /** A snapshot of one living entity, or null. */
  entity(id: EntityId): EntityView | null {
    const slot = this.liveSlotOf(id);
    return slot === NONE ? null : this.viewOf(slot);
  }

  /** Every living entity, in pool order. */
  entities(): EntityView[] {
    const out: EntityView[] = [];
    for (let i = 0; i < this.pool.count; i++) {
      const slot = this.pool.activeAt(i);
      if (this.dying[slot] === 0) out.push(this.viewOf(slot));
    }
    return out;
  }

  /** The value a spell would hold for a living entity (to pass it to a VM you run yourself, e.g. a debugger), or null. */
  entityRef(id: EntityId): EntityRef | null {
    const slot = this.liveSlotOf(id);
    return slot === NONE ? null : this.refAt(slot);
  }

  /** Read any property a spell could read (`e.armor`), or undefined. */
  property(id: EntityId, name: string): Value | undefined {
    const slot = this.liveSlotOf(id);
    if (slot === NONE) return undefined;
    try {
      return this.getEntityProperty(this.refAt(slot), name);
    } catch {
      return undefined;
    }
  }

  /** Set a property as a spell would (`e.health = 20`). Throws WorldError when it is refused. */
  setProperty(id: EntityId, name: string, value: Value): void {
    const slot = this.liveSlotOf(id);
    if (slot === NONE) throw new WorldError(`#${id} is not a living entity.`);
    try {
      this.setEntityProperty(this.refAt(slot), name, value);
    } catch (error) {
      if (error instanceof HostError) throw new WorldError(error.message);
      throw error;
    }
    if (!this.inStep) this.reap();
  }

  /** How many times an entity's derived stats were recomputed (the dirty flag at work). */
  derivedRecomputes(id: EntityId): number {
    const slot = this.liveSlotOf(id);
    return slot === NONE ? 0 : (this.states[slot]?.recomputes ?? 0);
  }

  /** Casts waiting for game time to pass. */
  get waitingCasts(): number {
    return this.waiting.size;
  }

  // ------------------------------------------------------------------ casting

  /**
   * Cast a spell by name, as cast by `caster` on `target` (either may be
   * null). The spell gets (caster, target), trimmed or padded with nil to
   * its parameter count. Runs now until it finishes or waits.
   */
  cast(spell: string, caster: EntityId | null = null, target: EntityId | null = null): CastResult {
    const owner = this.spellOwner.get(spell);
    if (!owner) throw new WorldError(`Unknown spell '${spell}'.`);
    const casterRef = this.refForApi(caster, 'caster');
    const targetRef = this.refForApi(target, 'target');
    this.push({ type: 'cast', tick: this.steps, spell, caster, target });
    const fiber = this.startCast(owner, spell, casterRef, [casterRef, targetRef]);
    if (!this.inStep) this.reap();
    return castResult(fiber);
  }

  /**
   * The VM that runs `spell` (one per loaded source), or null: an embedder
   * attaches a vm/debugger Debugger to it to step the world's own casts,
   * with the world's globals. Casts it pauses are kept (see continuePaused).
   */
  spellVm(spell: string): VM | null {
    return this.spellOwner.get(spell)?.vm ?? null;
  }

  /** Casts a debugger has paused. */
  get pausedCasts(): number {
    return this.paused.size;
  }

  /**
   * Continue a cast a debugger paused: `go` is the debugger's command (e.g.
   * `(f) => debugger.stepOver(f)`); it runs in the cast's context, and then
   * the cast is handled as any other: parked if it waits, reported if it
   * fails, kept if it pauses again. A fiber that is not paused here is
   * returned as it is.
   */
  continuePaused(fiber: Fiber, go: (fiber: Fiber) => void): CastResult {
    const entry = this.paused.get(fiber);
    if (!entry || fiber.state !== 'paused') return castResult(fiber);
    this.paused.delete(fiber);
    runInCast(entry.cast, () => go(fiber));
    this.settle(fiber, entry.vm, entry.cast);
    if (!this.inStep) this.reap();
    return castResult(fiber);
  }

  /** End a paused or waiting cast (a debugger's Stop). No cast-error is reported. Returns whether it was live here. */
  cancelCast(fiber: Fiber, message = 'Cast cancelled.'): boolean {
    const paused = this.paused.get(fiber);
    if (paused) {
      this.paused.delete(fiber);
      paused.vm.cancel(fiber, message);
      return true;
    }
    const waiting = this.waiting.toArray().find((w) => w.fiber === fiber);
    if (!waiting) return false;
    waiting.vm.cancel(fiber, message);
    // Rare (a Stop button): rebuilding the heap without it is simpler than a removable heap.
    const rest = this.waiting.toArray().filter((w) => w !== waiting);
    this.waiting = new MinHeap<WaitingCast>(wakesBefore);
    for (const w of rest) this.waiting.push(w);
    return true;
  }

  private refForApi(id: EntityId | null, role: string): EntityRef | null {
    if (id === null) return null;
    const slot = this.liveSlotOf(id);
    if (slot === NONE) throw new WorldError(`The ${role} #${id} is not a living entity.`);
    return this.refAt(slot);
  }

  private startCast(owner: LoadedSpells, spell: string, caster: EntityRef | null, args: readonly (Value | null)[]): Fiber {
    const arity = owner.arity.get(spell) ?? 0;
    const fitted: Value[] = [];
    for (let i = 0; i < arity; i++) fitted.push(args[i] ?? null);
    const cast: CastContext = { host: this, spell, caster: caster?.id ?? null, wakeAt: 0 };
    // The VM was created with the world's budgets as its defaults, so the cast needs no overrides.
    const fiber = runInCast(cast, () => owner.vm.cast(spell, fitted));
    this.settle(fiber, owner.vm, cast);
    return fiber;
  }

  /** After a cast ran: park it if it waits, report it if it failed. */
  private settle(fiber: Fiber, vm: VM, cast: CastContext): void {
    if (fiber.state === 'suspended') {
      this.waiting.push({ fiber, vm, cast, seq: this.castSeq++ });
    } else if (fiber.state === 'paused') {
      this.paused.set(fiber, { vm, cast });
    } else if (fiber.state === 'failed') {
      const error = fiber.error;
      this.push({
        type: 'cast-error',
        tick: this.steps,
        spell: cast.spell,
        caster: cast.caster,
        line: error?.line ?? 0,
        message: error?.message ?? 'The cast failed.',
        trace: error ? error.format() : 'The cast failed.',
      });
    }
  }

  // ------------------------------------------------------------------ the loop

  /** Advance real time; runs as many fixed steps as fit (at most maxStepsPerTick). Returns the steps run. */
  tick(dt: number): number {
    if (!(dt >= 0) || !Number.isFinite(dt)) throw new WorldError(`tick(dt) needs a finite dt ≥ 0, got ${dt}.`);
    const step = this.options.step;
    this.accumulator += dt;
    let ran = 0;
    // A small tolerance so that ten ticks of 0.1 s are ten steps despite rounding.
    while (this.accumulator >= step - 1e-9 && ran < this.options.maxStepsPerTick) {
      this.accumulator -= step;
      this.step();
      ran++;
    }
    if (ran === this.options.maxStepsPerTick && this.accumulator >= step) this.accumulator = 0;
    if (this.accumulator < 0) this.accumulator = 0;
    return ran;
  }

  /** Run exactly one fixed step. */
  step(): void {
    if (this.inStep) throw new WorldError('step() was called from inside a step.');
    this.inStep = true;
    try {
      this.steps++;
      this.time = this.steps * this.options.step;
      this.runTimers();
      this.runTickSpells();
      this.integrate();
      this.reap();
      this.updateIndex();
      this.runAoi();
      this.reap();
    } finally {
      this.inStep = false;
    }
    this.flush();
  }

  /** Deliver queued events to observers now (step() does it at its end). */
  flush(): void {
    if (this.queue.length === 0) return;
    const events = this.queue;
    this.queue = [];
    for (const event of events) for (const listener of this.listeners) listener(event);
  }

  /** Queue an event for the observers (tools that drive a world add their own notes this way). */
  emit(event: WorldEvent): void {
    this.push(event);
  }

  /** Observe events; returns a function that stops observing. */
  on(listener: WorldListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private runTimers(): void {
    const now = this.time + 1e-9;
    while (this.buffs.size > 0 && this.buffs.peek()!.modifier.expiresAt <= now) this.expireBuff(this.buffs.pop()!);
    // Only casts that were already waiting when the step began: one that waits again (even wait(0))
    // gets a newer seq and resumes next step, so this loop always ends.
    const startedBefore = this.castSeq;
    while (this.waiting.size > 0 && this.waiting.peek()!.cast.wakeAt <= now && this.waiting.peek()!.seq < startedBefore) {
      const { fiber, vm, cast } = this.waiting.pop()!;
      if (cast.caster !== null && this.liveSlotOf(cast.caster) === NONE) {
        vm.cancel(fiber, 'The caster is gone.');
        continue;
      }
      runInCast(cast, () => vm.resume(fiber));
      this.settle(fiber, vm, cast);
    }
  }

  private runTickSpells(): void {
    const count = this.pool.count;
    const dt = this.options.step;
    for (let i = 0; i < count; i++) {
      const slot = this.pool.activeAt(i);
      if (this.dying[slot] === 1) continue;
      const spell = this.breedAt(slot).spells.tick;
      if (spell === undefined) continue;
      const owner = this.spellOwner.get(spell);
      if (!owner) continue;
      const self = this.refAt(slot);
      this.startCast(owner, spell, self, [self, dt]);
    }
  }

  private integrate(): void {
    const { x, y, vx, vy } = this.pool;
    const dt = this.options.step;
    const { width, height } = this.options;
    for (let i = 0; i < this.pool.count; i++) {
      const s = this.pool.activeAt(i);
      if (vx[s] === 0 && vy[s] === 0) continue;
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
      x[s] = clamp(nx, 0, width);
      y[s] = clamp(ny, 0, height);
    }
  }

  private updateIndex(): void {
    const { x, y } = this.pool;
    for (let i = 0; i < this.pool.count; i++) {
      const s = this.pool.activeAt(i);
      if (this.index.xOf(s) !== x[s] || this.index.yOf(s) !== y[s]) this.index.move(s, x[s]!, y[s]!);
    }
  }

  private readonly noteAoi = (kind: AoiEventKind, observer: number, subject: number): void => {
    this.aoiNotes.push(kind === 'enter' ? 0 : kind === 'move' ? 1 : 2, observer, subject);
  };

  private runAoi(): void {
    this.aoiNotes.length = 0;
    this.aoi.update(this.noteAoi);
    const notes = this.aoiNotes;
    this.aoiNotes = [];
    for (let i = 0; i < notes.length; i += 3) {
      const kind: AoiEventKind = notes[i] === 0 ? 'enter' : notes[i] === 1 ? 'move' : 'leave';
      const observer = notes[i + 1]!;
      const subject = notes[i + 2]!;
      if (kind !== 'move' || this.options.aoiMoveEvents) this.push({ type: 'aoi', tick: this.steps, kind, observer, subject });
      if (kind === 'move') continue;
      const slot = this.liveSlotOf(observer);
      if (slot === NONE) continue;
      const spell = this.breedAt(slot).spells[kind === 'enter' ? 'onEnter' : 'onLeave'];
      const owner = spell === undefined ? undefined : this.spellOwner.get(spell);
      if (!owner || spell === undefined) continue;
      const self = this.refAt(slot);
      this.startCast(owner, spell, self, [self, this.refById(subject)]);
    }
    notes.length = 0;
    this.aoiNotes = notes;
  }

  // ------------------------------------------------------------------ spawning and despawning

  private spawnEntity(breedName: string, x: number, y: number): EntityRef {
    const breed = this.breeds.get(breedName);
    if (!breed) throw new WorldError(`Unknown breed '${breedName}'.`);
    if (breed.abstract) throw new WorldError(`Breed '${breedName}' is abstract and cannot be spawned.`);
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new WorldError('Spawn position must be finite numbers.');
    const handle = this.pool.spawn();
    const slot = this.pool.indexOf(handle);
    const { pool } = this;
    pool.x[slot] = clamp(x, 0, this.options.width);
    pool.y[slot] = clamp(y, 0, this.options.height);
    pool.health[slot] = breed.health;
    pool.maxHealth[slot] = breed.health;
    pool.speed[slot] = breed.speed;
    pool.radius[slot] = breed.radius;
    pool.interest[slot] = Math.min(breed.interest, this.options.maxInterest);
    pool.breed[slot] = breed.index;
    const id = this.nextId++;
    this.ids[slot] = id;
    this.dying[slot] = 0;
    this.slotById.set(id, slot);
    this.states[slot] = new EntityState(breed.speed, breed.health, breed.interest);
    this.refs[slot] = null;
    this.index.insert(slot, pool.x[slot]!, pool.y[slot]!);
    this.push({ type: 'spawn', tick: this.steps, entity: id, breed: breed.name, x: pool.x[slot]!, y: pool.y[slot]! });
    return this.refAt(slot);
  }

  /** Gone for spells at once (out of the index, alive = false); the slot is freed at the next reap. */
  private markGone(slot: number, reason: DespawnReason): void {
    if (this.dying[slot] === 1) return;
    this.dying[slot] = 1;
    this.index.remove(slot);
    this.reapQueue.push({ slot, reason });
  }

  private reap(): void {
    if (this.reapQueue.length === 0) return;
    const queue = this.reapQueue;
    this.reapQueue = [];
    for (const { slot, reason } of queue) this.release(slot, reason);
  }

  private release(slot: number, reason: DespawnReason): void {
    const id = this.ids[slot]!;
    const breed = this.breedAt(slot).name;
    this.push({ type: 'despawn', tick: this.steps, entity: id, breed, reason });
    this.slotById.delete(id);
    this.states[slot] = null;
    this.refs[slot] = null;
    this.dying[slot] = 0;
    // Its buffs stay in the timer heap and are skipped when due: ids are never reused.
    this.pool.despawn(this.pool.handleAt(slot));
  }

  /** The pool is about to reuse the oldest entity's slot ('recycle-oldest'). */
  private evict(slot: number): void {
    if (this.dying[slot] === 0) this.index.remove(slot);
    this.reapQueue = this.reapQueue.filter((r) => r.slot !== slot);
    const id = this.ids[slot]!;
    this.push({ type: 'despawn', tick: this.steps, entity: id, breed: this.breedAt(slot).name, reason: 'evicted' });
    this.slotById.delete(id);
    this.states[slot] = null;
    this.refs[slot] = null;
    this.dying[slot] = 0;
  }

  private growTo(capacity: number): void {
    this.index.ensureCapacity(capacity);
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    this.ids = ids;
    const dying = new Uint8Array(capacity);
    dying.set(this.dying);
    this.dying = dying;
    while (this.states.length < capacity) this.states.push(null);
    while (this.refs.length < capacity) this.refs.push(null);
  }

  // ------------------------------------------------------------------ lookups

  private liveSlotOf(id: EntityId): number {
    const slot = this.slotById.get(id);
    return slot === undefined || this.dying[slot] === 1 ? NONE : slot;
  }

  private breedAt(slot: number): Breed {
    return this.breeds.at(this.pool.breed[slot]!);
  }

  /** The (cached) reference to the live entity in a slot. */
  private refAt(slot: number): EntityRef {
    const handle = this.pool.handleAt(slot);
    const cached = this.refs[slot];
    if (cached && cached.handle === handle) return cached;
    const ref = new EntityRef(this, handle, this.ids[slot]!, this.breedAt(slot).name);
    this.refs[slot] = ref;
    return ref;
  }

  /** A reference by id; for an entity already gone, a reference that says so. */
  private refById(id: EntityId): EntityRef {
    const slot = this.slotById.get(id);
    return slot === undefined ? new EntityRef(this, 0, id, 'entity') : this.refAt(slot);
  }

  /** The slot of a living entity a spell refers to, or HostError "Entity is gone.". */
  private slotOfRef(ref: EntityRef): number {
    const slot = this.pool.indexOf(ref.handle);
    if (slot === NONE || this.dying[slot] === 1) throw new HostError('Entity is gone.');
    return slot;
  }

  private viewOf(slot: number): EntityView {
    const p = this.pool;
    const state = this.states[slot]!;
    return {
      id: this.ids[slot]!,
      breed: this.breedAt(slot).name,
      x: p.x[slot]!,
      y: p.y[slot]!,
      vx: p.vx[slot]!,
      vy: p.vy[slot]!,
      health: p.health[slot]!,
      maxHealth: state.baseMaxHealth + state.bonus('maxHealth'),
      speed: state.baseSpeed + state.bonus('speed'),
      radius: p.radius[slot]!,
      interest: p.interest[slot]!,
    };
  }

  // ------------------------------------------------------------------ entity properties (EntityAccess)

  getEntityProperty(ref: EntityRef, name: string): Value | undefined {
    if (name === 'alive') return this.pool.indexOf(ref.handle) !== NONE && this.dying[this.pool.indexOf(ref.handle)] === 0;
    const slot = this.slotOfRef(ref);
    const p = this.pool;
    const state = this.states[slot]!;
    switch (name) {
      case 'x':
        return p.x[slot]!;
      case 'y':
        return p.y[slot]!;
      case 'vx':
        return p.vx[slot]!;
      case 'vy':
        return p.vy[slot]!;
      case 'health':
        return p.health[slot]!;
      case 'maxHealth':
        return state.baseMaxHealth + state.bonus('maxHealth');
      case 'speed':
        return state.baseSpeed + state.bonus('speed');
      case 'radius':
        return p.radius[slot]!;
      case 'interest':
        return p.interest[slot]!;
      case 'breed':
        return this.breedAt(slot).name;
      case 'id':
        return ref.id;
      case 'is':
        return undefined;
    }
    const own = state.getField(name);
    const base = own !== undefined ? this.fieldToValue(own) : this.breedAt(slot).attributes.get(name);
    if (base === undefined) return undefined;
    return typeof base === 'number' ? base + state.bonus(name) : base;
  }

  setEntityProperty(ref: EntityRef, name: string, value: Value): void {
    const slot = this.slotOfRef(ref);
    const p = this.pool;
    const state = this.states[slot]!;
    const number = (): number => {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new HostError(`Property '${name}' must be a finite number.`);
      return value;
    };
    switch (name) {
      case 'x':
      case 'y':
        this.moveEntity(ref, name === 'x' ? number() : p.x[slot]!, name === 'y' ? number() : p.y[slot]!);
        return;
      case 'vx':
        p.vx[slot] = number();
        return;
      case 'vy':
        p.vy[slot] = number();
        return;
      case 'health': {
        const before = p.health[slot]!;
        this.setHealth(slot, number());
        this.reportHealthChange(ref, before, p.health[slot]!);
        return;
      }
      case 'maxHealth':
        state.baseMaxHealth = Math.max(0, number());
        this.clampHealth(slot);
        return;
      case 'speed':
        state.baseSpeed = Math.max(0, number());
        p.speed[slot] = state.baseSpeed + state.bonus('speed');
        return;
      case 'radius':
        p.radius[slot] = Math.max(0, number());
        return;
      case 'interest':
        state.baseInterest = Math.max(0, number());
        this.afterStatChange(slot, 'interest');
        return;
      case 'alive':
      case 'breed':
      case 'id':
      case 'is':
        throw new HostError(`Property '${name}' is read-only.`);
    }
    state.setField(name, this.valueToField(value, name));
  }

  invokeEntityMethod(ref: EntityRef, name: string, args: readonly Value[], _ctx: HostContext): Value | undefined {
    if (name !== 'is') return undefined;
    const slot = this.slotOfRef(ref);
    if (args.length !== 1) throw new HostError(`Expected 1 arguments but got ${args.length}.`);
    const kind = args[0];
    if (typeof kind !== 'string') throw new HostError('Argument 1 of is() must be a string.');
    const breed = this.breedAt(slot);
    return this.breeds.isA(breed.index, kind) || breed.tags.includes(kind);
  }

  private valueToField(value: Value, name: string): FieldValue {
    if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
    if (value instanceof EntityRef && value.world === this) return { entity: value.id };
    throw new HostError(`Entity field '${name}' can only hold numbers, strings, booleans, nil or entities.`);
  }

  private fieldToValue(field: FieldValue): Value {
    if (field === null || typeof field !== 'object') return field;
    return this.refById(field.entity);
  }

  /** Assigning e.health is seen by observers as the damage or healing it amounts to. */
  private reportHealthChange(ref: EntityRef, before: number, after: number): void {
    if (after === before) return;
    const by = currentCast()?.caster ?? null;
    const type = after > before ? 'heal' : 'damage';
    this.push({ type, tick: this.steps, entity: ref.id, breed: ref.breedName, amount: Math.abs(after - before), health: after, by });
  }

  private setHealth(slot: number, health: number): void {
    const state = this.states[slot]!;
    const max = state.baseMaxHealth + state.bonus('maxHealth');
    this.pool.health[slot] = clamp(health, 0, Math.max(0, max));
    if (this.pool.health[slot]! <= 0) this.markGone(slot, 'killed');
  }

  private clampHealth(slot: number): void {
    this.setHealth(slot, this.pool.health[slot]!);
  }

  // ------------------------------------------------------------------ host functions (GameHost)

  damage(target: EntityRef, amount: number, cast: CastContext): number {
    const slot = this.slotOfRef(target);
    const before = this.pool.health[slot]!;
    const dealt = Math.min(before, amount);
    this.pool.health[slot] = before - dealt;
    this.push({ type: 'damage', tick: this.steps, entity: target.id, breed: target.breedName, amount: dealt, health: before - dealt, by: cast.caster });
    if (before - dealt <= 0) this.markGone(slot, 'killed');
    return dealt;
  }

  heal(target: EntityRef, amount: number, cast: CastContext): number {
    const slot = this.slotOfRef(target);
    const state = this.states[slot]!;
    const max = state.baseMaxHealth + state.bonus('maxHealth');
    const before = this.pool.health[slot]!;
    const healed = Math.max(0, Math.min(amount, max - before));
    this.pool.health[slot] = before + healed;
    if (healed > 0) this.push({ type: 'heal', tick: this.steps, entity: target.id, breed: target.breedName, amount: healed, health: before + healed, by: cast.caster });
    return healed;
  }

  spawnFromSpell(breed: string, x: number, y: number, _cast: CastContext): EntityRef {
    try {
      return this.spawnEntity(breed, x, y);
    } catch (error) {
      if (error instanceof WorldError) throw new HostError(error.message);
      throw error;
    }
  }

  despawnFromSpell(target: EntityRef): void {
    this.markGone(this.slotOfRef(target), 'despawned');
  }

  moveEntity(target: EntityRef, x: number, y: number): void {
    const slot = this.slotOfRef(target);
    this.pool.x[slot] = clamp(x, 0, this.options.width);
    this.pool.y[slot] = clamp(y, 0, this.options.height);
    this.index.move(slot, this.pool.x[slot]!, this.pool.y[slot]!);
  }

  setEntityVelocity(target: EntityRef, vx: number, vy: number): void {
    const slot = this.slotOfRef(target);
    this.pool.vx[slot] = vx;
    this.pool.vy[slot] = vy;
  }

  nearbyEntities(center: EntityRef, r: number, ctx: HostContext): Value {
    const slot = this.slotOfRef(center);
    return this.listAround(this.pool.x[slot]!, this.pool.y[slot]!, r, ctx);
  }

  entitiesWithin(x: number, y: number, r: number, ctx: HostContext): Value {
    return this.listAround(x, y, r, ctx);
  }

  private listAround(x: number, y: number, r: number, ctx: HostContext): Value {
    const slots: number[] = [];
    this.index.queryRadius(x, y, r, slots);
    // The work is proportional to what is returned: charge for it before building the list.
    ctx.chargeFuel(slots.length + 1);
    const d2 = (s: number): number => (this.pool.x[s]! - x) ** 2 + (this.pool.y[s]! - y) ** 2;
    slots.sort((a, b) => d2(a) - d2(b) || this.ids[a]! - this.ids[b]!);
    return ctx.makeList(slots.map((s) => this.refAt(s)));
  }

  nearestEntity(center: EntityRef, r: number, filter: string | null, ctx: HostContext): EntityRef | null {
    const slot = this.slotOfRef(center);
    let visited = 0;
    const accept =
      filter === null
        ? null
        : (s: number): boolean => {
            visited++;
            const breed = this.breedAt(s);
            return this.breeds.isA(breed.index, filter) || breed.tags.includes(filter);
          };
    const found = this.index.nearest(this.pool.x[slot]!, this.pool.y[slot]!, r, accept, slot);
    ctx.chargeFuel(visited + 1);
    return found === NONE ? null : this.refAt(found);
  }

  distanceBetween(a: EntityRef, b: EntityRef): number {
    const sa = this.slotOfRef(a);
    const sb = this.slotOfRef(b);
    return Math.hypot(this.pool.x[sa]! - this.pool.x[sb]!, this.pool.y[sa]! - this.pool.y[sb]!);
  }

  emitSound(name: string, cast: CastContext): void {
    const [x, y] = this.casterPosition(cast);
    this.push({ type: 'sound', tick: this.steps, name, x, y, by: cast.caster });
  }

  emitParticles(kind: string, x: number, y: number, count: number, cast: CastContext): void {
    // Observers draw these; a spell asking for a billion must not make them try.
    this.push({ type: 'particles', tick: this.steps, kind, x, y, count: Math.min(MAX_PARTICLES, Math.floor(count)), by: cast.caster });
  }

  emitSay(speaker: EntityRef, text: string, _cast: CastContext): void {
    this.slotOfRef(speaker);
    this.push({ type: 'say', tick: this.steps, entity: speaker.id, breed: speaker.breedName, text });
  }

  addBuff(target: EntityRef, stat: string, amount: number, seconds: number, _cast: CastContext): void {
    const slot = this.slotOfRef(target);
    const state = this.states[slot]!;
    const attribute = this.breedAt(slot).attributes.get(stat);
    const own = state.getField(stat);
    const numeric = BUFFABLE.has(stat) || typeof (own ?? attribute) === 'number';
    if (!numeric || stat === 'health') throw new HostError(`Cannot buff '${stat}': it is not a numeric stat of this entity.`);
    if (state.modifiers.length >= MAX_MODIFIERS) throw new HostError(`Too many buffs on this entity (at most ${MAX_MODIFIERS}).`);
    const modifier: Modifier = { stat, amount, seconds, expiresAt: this.time + seconds, seq: this.castSeq++ };
    state.addModifier(modifier);
    this.afterStatChange(slot, stat);
    this.buffs.push({ entity: target.id, modifier });
    this.push({ type: 'buff', tick: this.steps, entity: target.id, stat, amount, seconds });
  }

  private expireBuff(buff: ActiveBuff): void {
    const slot = this.liveSlotOf(buff.entity);
    if (slot === NONE) return;
    const { stat, amount, seconds } = buff.modifier;
    if (this.states[slot]!.removeModifier(buff.modifier)) {
      this.afterStatChange(slot, stat);
      this.push({ type: 'buff-end', tick: this.steps, entity: buff.entity, stat, amount, seconds });
    }
  }

  /** Keep the hot copies of derived stats in step with their modifiers. */
  private afterStatChange(slot: number, stat: string): void {
    const state = this.states[slot]!;
    if (stat === 'speed') this.pool.speed[slot] = state.baseSpeed + state.bonus('speed');
    if (stat === 'interest') {
      this.pool.interest[slot] = clamp(state.baseInterest + state.bonus('interest'), 0, this.options.maxInterest);
    }
    if (stat === 'maxHealth') {
      this.pool.maxHealth[slot] = state.baseMaxHealth + state.bonus('maxHealth');
      this.clampHealth(slot);
    }
  }

  nextRandom(): number {
    return this.rng.next();
  }

  private casterPosition(cast: CastContext): [number, number] {
    const slot = cast.caster === null ? NONE : (this.slotById.get(cast.caster) ?? NONE);
    return slot === NONE ? [0, 0] : [this.pool.x[slot]!, this.pool.y[slot]!];
  }

  private emitPrint(text: string): void {
    const cast = currentCast();
    const inSpell = cast !== null && cast.host === this && cast.spell !== SCRIPT;
    this.push({ type: 'print', tick: this.steps, text, spell: inSpell ? cast.spell : null, caster: inSpell ? cast.caster : null });
  }

  private push(event: WorldEvent): void {
    this.queue.push(event);
  }

  // ------------------------------------------------------------------ snapshots

  /**
   * The whole world as plain JSON-safe data: options, time, random state,
   * breeds, spells (source, or .spb as base64), the pool (same slots and
   * handles), entity fields and buffs, AOI sets. Casts waiting in `wait`
   * (or paused by a debugger) are not captured (a VM fiber is not data);
   * `pendingCasts` counts them.
   */
  snapshot(): WorldSnapshot {
    const entities: EntitySnapshot[] = [];
    for (let i = 0; i < this.pool.count; i++) {
      const slot = this.pool.activeAt(i);
      const state = this.states[slot]!;
      entities.push({
        slot,
        id: this.ids[slot]!,
        dying: this.dying[slot] === 1,
        baseSpeed: state.baseSpeed,
        baseMaxHealth: state.baseMaxHealth,
        baseInterest: state.baseInterest,
        fields: [...(state.fields ?? [])].map(([k, v]) => [k, encodeField(v)]),
        modifiers: state.modifiers.map((m) => ({ ...m })),
      });
    }
    const spells: SpellSourceSnapshot[] = this.loaded.map((l) =>
      l.source !== null
        ? { sourceName: l.sourceName, source: l.source }
        : { sourceName: l.sourceName, spb: bytesToBase64(writeSpb(l.module)) },
    );
    return {
      format: SNAPSHOT_FORMAT,
      options: { ...this.options, budgets: { ...this.options.budgets } },
      time: this.time,
      steps: this.steps,
      accumulator: this.accumulator,
      nextId: this.nextId,
      random: this.rng.seedState,
      castSeq: this.castSeq,
      breeds: this.breedRegistry?.source ?? null,
      spells,
      pool: this.pool.exportState(),
      entities,
      reap: this.reapQueue.map((r) => ({ slot: r.slot, reason: r.reason })),
      aoi: this.aoi.exportState(),
      pendingCasts: this.waiting.size + this.paused.size,
    };
  }

  /** Rebuild a world from snapshot() data (a structured clone or JSON round trip of it). */
  static restore(snapshot: WorldSnapshot): World {
    if (snapshot?.format !== SNAPSHOT_FORMAT) throw new WorldError('Not a Cantrip world snapshot.');
    try {
      return World.restoreUnchecked(snapshot);
    } catch (error) {
      // Breeds, spells and options report their own errors; anything else means the data was tampered with.
      if (error instanceof WorldError || error instanceof BreedError || error instanceof VerifyError) throw error;
      throw new WorldError('The world snapshot is malformed.');
    }
  }

  private static restoreUnchecked(snapshot: WorldSnapshot): World {
    // JSON turns an unlimited budget (Infinity) into null: read it back as unlimited.
    const budgets = Object.fromEntries(
      Object.entries(snapshot.options.budgets).map(([k, v]) => [k, typeof v === 'number' ? v : Infinity]),
    ) as unknown as Budgets;
    const world = new World({ ...snapshot.options, budgets });
    for (const s of snapshot.spells) {
      if (s.source !== undefined) world.loadSpells(s.source, s.sourceName);
      else world.loadModule(base64ToBytes(s.spb ?? ''), s.sourceName);
    }
    if (snapshot.breeds !== null) world.loadBreeds(snapshot.breeds);
    world.queue = [];
    world.adoptPool(EntityPool.fromState(snapshot.pool, { policy: snapshot.options.policy, maxCapacity: world.options.maxCapacity }));
    for (const e of snapshot.entities) {
      if (!world.pool.isLiveSlot(e.slot)) throw new WorldError('The world snapshot is malformed.');
      world.ids[e.slot] = e.id;
      world.dying[e.slot] = e.dying ? 1 : 0;
      world.slotById.set(e.id, e.slot);
      const state = new EntityState(e.baseSpeed, e.baseMaxHealth, e.baseInterest);
      for (const [k, v] of e.fields) state.setField(k, decodeField(v));
      for (const m of e.modifiers) {
        state.addModifier(m);
        world.buffs.push({ entity: e.id, modifier: m });
      }
      world.states[e.slot] = state;
      if (!e.dying) world.index.insert(e.slot, world.pool.x[e.slot]!, world.pool.y[e.slot]!);
    }
    world.reapQueue = snapshot.reap.map((r) => ({ slot: r.slot, reason: r.reason }));
    world.aoi.importState(snapshot.aoi);
    world.time = snapshot.time;
    world.steps = snapshot.steps;
    world.accumulator = snapshot.accumulator;
    world.nextId = snapshot.nextId;
    world.castSeq = snapshot.castSeq;
    world.rng.seedState = snapshot.random;
    world.checkRestored();
    return world;
  }

  /** Every live slot is a restored entity of a known breed at a finite place; dying ones are queued to be reaped (tests/fuzz/world-fuzz). */
  private checkRestored(): void {
    const pool = this.pool;
    const reaping = new Set(this.reapQueue.map((r) => r.slot));
    for (let i = 0; i < pool.count; i++) {
      const slot = pool.activeAt(i);
      const known = this.states[slot] !== null && this.breedRegistry?.breeds[pool.breed[slot]!] !== undefined;
      if (!known || !Number.isFinite(pool.x[slot]) || !Number.isFinite(pool.y[slot]) || (this.dying[slot] === 1) !== reaping.has(slot)) {
        throw new WorldError('The world snapshot is malformed.');
      }
    }
    if (this.slotById.size !== pool.count || reaping.size !== this.reapQueue.length) throw new WorldError('The world snapshot is malformed.');
  }

  private adoptPool(pool: EntityPool): void {
    this.entityPool = pool;
    pool.onResize = (capacity) => this.growTo(capacity);
    pool.onEvict = (_handle, slot) => this.evict(slot);
    this.index = makeIndex(this.options, pool.capacity);
    this.aoi = new AreaOfInterest(pool, this.index, this.options.interestShape, {
      keyOf: (slot) => this.ids[slot]!,
      slotOf: (id) => this.slotById.get(id) ?? NONE,
    });
    this.ids = new Float64Array(pool.capacity);
    this.dying = new Uint8Array(pool.capacity);
    this.states = new Array<EntityState | null>(pool.capacity).fill(null);
    this.refs = new Array<EntityRef | null>(pool.capacity).fill(null);
    this.slotById.clear();
  }
}

function castResult(fiber: Fiber): CastResult {
  const state = fiber.state === 'done' || fiber.state === 'suspended' || fiber.state === 'paused' ? fiber.state : 'failed';
  return { state, result: fiber.result, error: fiber.error, fiber };
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Waiting casts resume in order of wake time, then of when they started waiting. */
function wakesBefore(a: WaitingCast, b: WaitingCast): boolean {
  return a.cast.wakeAt < b.cast.wakeAt || (a.cast.wakeAt === b.cast.wakeAt && a.seq < b.seq);
}

/** Buffs wear off in order of expiry, then of creation. */
function buffBefore(a: ActiveBuff, b: ActiveBuff): boolean {
  return a.modifier.expiresAt < b.modifier.expiresAt || (a.modifier.expiresAt === b.modifier.expiresAt && a.modifier.seq < b.modifier.seq);
}

export { BUILTIN_ENTITY_PROPERTIES };
