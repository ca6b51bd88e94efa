/**
 * The spells a World can cast and the casts in flight: loading modules (one
 * VM each, bound to the world's host API and budgets), starting a cast with
 * its arguments fitted to the spell, and settling it afterwards — parked
 * until game time passes if it waits, kept if a debugger paused it, reported
 * as a `cast-error` event if it failed. A waiting cast whose caster goes
 * (killed, despawned, recycled) is cancelled at once, as is one cancelled by
 * the embedder: a `cast-cancelled` event says which and why.
 */

import { quoted } from '../../vm/bounded-text.js';
import { nameArgumentProblem } from '../../vm/name-argument.js';
import type { Fiber } from '../../vm/fiber.js';
import type { Module } from '../../vm/module.js';
import type { SpellRuntimeError } from '../../vm/errors.js';
import type { Value } from '../../vm/value.js';
import { VM, type FastLoop, type RunOutcome, type Tier } from '../../vm/vm.js';
import type { EntityRef } from '../entities/entity-ref.js';
import { functionFingerprint } from '../../vm/function-fingerprint.js';
import type { HostFunction } from '../../vm/host.js';
import { BreedError, WorldError } from '../errors.js';
import type { CastCancelReason, DespawnReason, EntityId } from '../events/events.js';
import type { CastContext, GameHost } from '../host/host-api.js';
import { castId, castMatches, castNumberOf, isCastId, targetIdOf, type CastFilter, type CastId, type CastInfo, type WorldCastContext } from './cast-handles.js';
import { WakeQueue } from './wake-queue.js';
import { CodeCorrespondence, moveCasts } from './cast-reload.js';
import { NONE, type WorldState } from './world-state.js';

/**
 * What a cast from the embedder ended as (it may go on later if suspended).
 * 'paused' only happens with a vm/debugger Debugger attached to the spell's
 * VM (see `World.spellVm`): the world keeps the cast and `continuePaused` steps it.
 */
export interface CastResult {
  readonly state: 'done' | 'suspended' | 'failed' | 'paused';
  readonly result: Value;
  readonly error: SpellRuntimeError | null;
  /** The cast's fiber: the handle a debugger steps, or `cancelCast` ends. */
  readonly fiber: Fiber;
  /** The cast's id while it is in flight (waiting or paused): `world.casts({ id })`, `world.cancelCasts({ id })`; null once it ended. */
  readonly id: CastId | null;
}

/** A cast just started: its fiber, and its id if it is in flight (it waits or paused). */
export interface StartedCast {
  readonly fiber: Fiber;
  readonly id: CastId | null;
}

/** One loaded module of spells. */
export interface LoadedSpells {
  readonly vm: VM;
  readonly module: Module;
  readonly sourceName: string;
  /** The source text, when loaded from source (snapshots re-compile it). */
  readonly source: string | null;
  /** Parameter count of each spell, to fit the arguments a cast passes. */
  readonly arity: ReadonlyMap<string, number>;
}

/** A spell the world casts for entities, resolved once: its module and parameter count. */
export interface SpellTarget {
  readonly owner: LoadedSpells;
  readonly spell: string;
  readonly arity: number;
  /** Its VM's cast loop while a phase (beginPhase … endPhase) casts it; null otherwise. */
  loop: FastLoop | null;
  /** The phase's argument array for it while `loop` is open (its second argument already in place). */
  phaseArgs: Value[] | null;
}

interface WaitingCast {
  readonly fiber: Fiber;
  readonly vm: VM;
  readonly cast: WorldCastContext;
  readonly seq: number;
  /** `cast.wakeAt` when it began waiting: the heap's key, read here rather than through the cast (one object fewer per comparison). */
  readonly wakeAt: number;
  /** Heap units it holds against the world's budget while it waits (runtime/world/world-memory.ts). */
  readonly hold: number;
  /** Cancelled while in the heap: skipped when it reaches the top (or dropped when many are). */
  cancelled: boolean;
  /** Its caster's list in `waitingBy` (null without a caster): untrack finds it here, not through the map. */
  readonly list: WaitingCast[] | null;
}

/** Cancelled casts the heap may hold before it is compacted (beyond half its size). */
const CANCELLED_SLACK = 64;

/** A cast stopped by a debugger at a breakpoint or step: kept until the debugger continues or cancels it. */
interface PausedCast {
  readonly vm: VM;
  readonly cast: WorldCastContext;
}

/** The reused argument array of length `arity` in `arrays` (made, all nil, the first time). */
function argumentArray(arrays: Value[][], arity: number): Value[] {
  let args = arrays[arity];
  if (args === undefined) {
    args = [];
    for (let i = 0; i < arity; i++) args.push(null);
    arrays[arity] = args;
  }
  return args;
}

/** The cast name of a module's top-level script. */
const SCRIPT = '<script>';

/** A CastContext the world reuses for its own casts once they finish (one that waits or pauses keeps it). */
class WorldCast implements WorldCastContext {
  wakeAt = 0;
  id: CastId | null = null;
  target: EntityId | null = null;
  rest: readonly Value[] | null = null;
  constructor(
    readonly host: GameHost,
    public spell: string,
    public caster: EntityId | null,
  ) {}
}

export class WorldCasting {
  private readonly modules: LoadedSpells[] = [];
  private readonly spellOwner = new Map<string, LoadedSpells>();
  private readonly targets = new Map<string, SpellTarget>();
  private readonly waiting = new WakeQueue<WaitingCast>(wakesBefore);
  /** Waiting casts by caster, in the order they began waiting: cancelled when their caster goes. */
  private readonly waitingBy = new Map<EntityId, WaitingCast[]>();
  private cancelledInHeap = 0;
  private readonly paused = new Map<Fiber, PausedCast>();
  private readonly retired = new Set<LoadedSpells>();
  /** Spare contexts for the world's own casts (a stack, `spareCasts` deep). */
  private readonly casts: WorldCast[] = [];
  private spareCasts = 0;
  /** The number in the last cast id given (cast-handles.ts). */
  private castNumber = 0;
  /** Argument arrays by length, reused: the VM copies the arguments onto the fiber's stack before the spell runs. */
  private readonly argArrays: Value[][] = [];
  /** The phase's second argument (dt), as given to beginPhase. */
  private phaseSecond: Value = null;
  /** The context the phase's casts run in, and the one it replaced (null outside a phase). */
  private phaseCast: WorldCast | null = null;
  private phasePrevious: CastContext | null = null;
  /** The targets whose cast loop the phase opened, closed by endPhase. */
  private readonly phaseTargets: SpellTarget[] = [];
  /** The VMs the phase's casts run on, and the cast each had before the phase (put back by endPhase). */
  private readonly phaseVms: VM[] = [];
  private readonly phaseVmCasts: unknown[] = [];

  constructor(
    private readonly state: WorldState,
    /** The world's WorldGameHost: what the casts' host functions act on (each cast holds it as `cast.host`). */
    private readonly host: GameHost,
    /** The world's host table: built-ins and the game's own functions. */
    private readonly hosts: readonly HostFunction[],
    /** The tier its spells run on (WorldOptions.tier). */
    private readonly tier: Tier = 'auto',
  ) {}

  /** The loaded modules, in load order. */
  get loaded(): readonly LoadedSpells[] {
    return this.modules;
  }

  /** Modules replaced by a live reload whose casts in flight still run on them (dropped once none do). */
  get retiredModules(): readonly LoadedSpells[] {
    return [...this.retired];
  }

  /** Casts waiting for game time, for a snapshot: in the order they resume. */
  waitingCasts(): readonly InFlightCast[] {
    return this.waiting
      .toArray()
      .filter((w) => !w.cancelled)
      .sort((a, b) => (wakesBefore(a, b) ? -1 : 1))
      .map(inFlight);
  }

  /** The casts one caster is waiting in, in the order they resume (an entity handed over takes them along). */
  waitingOf(caster: EntityId): readonly InFlightCast[] {
    const mine = this.waitingBy.get(caster) ?? [];
    return mine
      .filter((w) => !w.cancelled)
      .sort((a, b) => (wakesBefore(a, b) ? -1 : 1))
      .map(inFlight);
  }

  /** The number in the last cast id this world gave (a snapshot saves it). */
  get lastCastNumber(): number {
    return this.castNumber;
  }

  /** Count cast ids on from at least `n` (a restore: the saved count). */
  countCastsFrom(n: number): void {
    if (Number.isSafeInteger(n) && n > this.castNumber) this.castNumber = n;
  }

  /** Every cast in flight that `filter` matches: the waiting ones in the order they resume, then the paused ones. */
  list(filter: CastFilter = {}): CastInfo[] {
    const out: CastInfo[] = [];
    const waiting = this.waiting.toArray().filter((w) => !w.cancelled && castMatches(w.cast, 'waiting', filter));
    for (const w of waiting.sort((a, b) => (wakesBefore(a, b) ? -1 : 1))) out.push(this.infoOf(w.cast, w.fiber, w.vm, 'waiting'));
    for (const [fiber, p] of this.paused) if (castMatches(p.cast, 'paused', filter)) out.push(this.infoOf(p.cast, fiber, p.vm, 'paused'));
    return out;
  }

  /** End every cast in flight that `filter` matches, each with a `cast-cancelled` event; how many. */
  cancelMatching(filter: CastFilter, message: string): number {
    let ended = 0;
    for (const [fiber, p] of [...this.paused]) {
      if (!castMatches(p.cast, 'paused', filter)) continue;
      this.paused.delete(fiber);
      this.end(p.vm, fiber, p.cast, 'cancelled', message);
      ended++;
    }
    for (const w of this.waiting.toArray()) {
      if (w.cancelled || !castMatches(w.cast, 'waiting', filter)) continue;
      this.untrack(w);
      this.cancelWaiting(w, 'cancelled', message);
      ended++;
    }
    this.compact();
    return ended;
  }

  private infoOf(cast: WorldCastContext, fiber: Fiber, vm: VM, state: 'waiting' | 'paused'): CastInfo {
    // A waiting cast's ip is past the wait it called (trace reads ip - 1); a paused one's is the instruction it will run next.
    const ip = (fiber.frameIps[fiber.frameCount - 1] ?? 0) + (state === 'paused' ? 1 : 0);
    const top = fiber.trace(ip)[0];
    const current = this.modules.find((m) => m.vm === vm);
    const module = current ?? [...this.retired].find((m) => m.vm === vm);
    return {
      id: cast.id ?? '',
      spell: cast.spell,
      caster: cast.caster,
      target: cast.target,
      state,
      line: top?.line ?? 0,
      function: top?.functionName ?? cast.spell,
      wakesAt: state === 'waiting' ? cast.wakeAt : null,
      sourceName: module?.sourceName ?? '',
      oldCode: current === undefined,
    };
  }

  /** A new cast id for a cast of `caster`. */
  private newCastId(caster: EntityId | null): CastId {
    return castId(caster, ++this.castNumber);
  }

  /**
   * The caster was handed over to another world with its waiting casts (World.releaseEntity):
   * they end here without an event, as they go on there. What they held is given back.
   */
  dropHandedOver(caster: EntityId): void {
    const casts = this.waitingBy.get(caster);
    if (casts === undefined) return;
    this.waitingBy.delete(caster);
    for (const w of casts) {
      w.cancelled = true;
      this.cancelledInHeap++;
      this.state.memory.release(w.hold);
      w.vm.cancel(w.fiber, 'Handed over.');
    }
    this.compact();
  }

  /** A module that a restored cast still runs on after a reload replaced it: a VM of its own, not castable, its script not run (its globals come from the snapshot). */
  addRetired(module: Module, sourceName: string, source: string | null): VM {
    const vm = new VM(module, { ...this.state.options.budgets, hosts: this.hosts, print: (text) => this.emitPrint(text), tier: this.tier });
    const arity = new Map(module.spells.map((s) => [s.name, module.functions[s.functionIndex]?.arity ?? 0]));
    this.retired.add({ vm, module, sourceName, source, arity });
    return vm;
  }

  /** Put back a cast a snapshot saved, waiting as it was (same wake time and order), counted against the world heap. */
  adoptWaiting(c: InFlightCast): void {
    // The cast keeps its id unless the data gave none (an older save). The snapshot code drops an id its data repeats;
    // no other cast here can have it: its caster's casts live in one world at a time (see cast-handles.ts).
    const kept = c.id !== null && isCastId(c.id);
    if (kept) this.countCastsFrom(castNumberOf(c.id!));
    const id = kept ? c.id! : this.newCastId(c.caster);
    const cast: WorldCastContext = { host: this.host, spell: c.spell, caster: c.caster, wakeAt: c.wakeAt, id, target: c.target, rest: c.rest };
    const hold = this.state.memory.holdOf(c.fiber);
    if (!this.state.memory.tryHold(hold)) throw new WorldError(this.state.memory.message());
    this.track({ fiber: c.fiber, vm: c.vm, cast, seq: c.seq, hold, cancelled: false });
  }

  /** Casts waiting for game time to pass. */
  get waitingCount(): number {
    return this.waiting.size - this.cancelledInHeap;
  }

  /** Casts a debugger has paused. */
  get pausedCount(): number {
    return this.paused.size;
  }

  /** Every spell the world can cast. */
  spellNames(): string[] {
    return [...this.spellOwner.keys()];
  }

  /** Whether a spell now runs on its compiled code or on the interpreter (null: no such spell). */
  tierOf(spell: string): 'compiled' | 'interpreter' | null {
    const owner = this.spellOwner.get(spell);
    const index = owner?.module.spells.find((s) => s.name === spell)?.functionIndex;
    if (owner === undefined || index === undefined) return null;
    return owner.vm.runtimeFunctions[index]?.compiled != null ? 'compiled' : 'interpreter';
  }

  /** The loaded module defining a spell. */
  ownerOf(spell: string): LoadedSpells | undefined {
    return this.spellOwner.get(spell);
  }

  /** The spell resolved for castForEntity, if it is loaded. */
  targetOf(spell: string): SpellTarget | undefined {
    return this.targets.get(spell);
  }

  /**
   * Create a module's VM and run its top-level script. A module whose
   * `sourceName` is already loaded replaces it (live reload): all or nothing,
   * checked first — the spells must not clash with other modules, the loaded
   * breeds must still find every spell they name, the new top-level script
   * must run. New casts then use the new code; the casts in flight on the
   * old code go as `inFlight` says (reloadInFlight): those that keep it keep
   * the old module's VM (their fibers hold it) and finish on it. WorldError otherwise.
   */
  addModule(module: Module, sourceName: string, source: string | null, runScript = true, inFlight: InFlightPolicy = 'continue'): SpellsReload {
    const index = this.modules.findIndex((m) => m.sourceName === sourceName);
    const replaced = index >= 0 ? this.modules[index]! : null;
    for (const s of module.spells) {
      const owner = this.spellOwner.get(s.name);
      if (owner !== undefined && owner !== replaced) throw new WorldError(`Spell '${s.name}' is defined twice (again in ${sourceName}).`);
    }
    if (replaced !== null) this.checkBreedsKeepTheirSpells(replaced, module, sourceName);
    const vm = new VM(module, {
      ...this.state.options.budgets,
      hosts: this.hosts,
      print: (text) => this.emitPrint(text),
      tier: this.tier,
    });
    const arity = new Map(module.spells.map((s) => [s.name, module.functions[s.functionIndex]?.arity ?? 0]));
    const entry: LoadedSpells = { vm, module, sourceName, source, arity };
    if (runScript) this.runScript(vm, sourceName);
    if (replaced === null) {
      this.modules.push(entry);
    } else {
      this.modules[index] = entry;
      for (const s of replaced.module.spells) {
        this.spellOwner.delete(s.name);
        this.targets.delete(s.name);
      }
    }
    for (const s of module.spells) {
      this.spellOwner.set(s.name, entry);
      this.targets.set(s.name, { owner: entry, spell: s.name, arity: arity.get(s.name) ?? 0, loop: null, phaseArgs: null });
    }
    const casts = replaced === null ? NO_CASTS : this.reloadInFlight(replaced, entry, inFlight);
    if (replaced !== null) {
      // Casts kept on old code finish on it; forget replaced modules nothing runs on any more.
      if (replaced.vm.liveFiberCount > 0) this.retired.add(replaced);
      for (const r of this.retired) if (r.vm.liveFiberCount === 0) this.retired.delete(r);
    }
    return { ...reloadSummary(sourceName, replaced?.module ?? null, module), inFlight, ...casts };
  }

  /** The casts in flight on the code a reload replaced (its module's, and older versions' kept by earlier reloads), as `inFlight` says. */
  private reloadInFlight(replaced: LoadedSpells, entry: LoadedSpells, inFlight: InFlightPolicy): InFlightReport {
    if (inFlight === 'keep') return NO_CASTS;
    const oldVms = new Set<VM>([replaced.vm]);
    for (const r of this.retired) if (r.sourceName === replaced.sourceName) oldVms.add(r.vm);
    // In the order they resume, so the report reads in that order.
    const waiting = this.waiting
      .toArray()
      .filter((w) => !w.cancelled && oldVms.has(w.vm))
      .sort((a, b) => (wakesBefore(a, b) ? -1 : 1));
    const kept: KeptCast[] = [];
    for (const p of this.paused.values()) if (oldVms.has(p.vm)) kept.push(keptCast(p.cast, 'it is paused in a debugger'));
    return inFlight === 'restart' ? this.restartCasts(waiting, entry, kept) : this.continueCasts(waiting, entry, kept);
  }

  /** 'continue': each waiting cast resumes in the new code at the corresponding wait (cast-reload.ts), or keeps its code with a reason. */
  private continueCasts(waiting: readonly WaitingCast[], entry: LoadedSpells, kept: KeptCast[]): InFlightReport {
    const continued: CastId[] = [];
    const byVm = new Map<VM, WaitingCast[]>();
    for (const w of waiting) {
      const list = byVm.get(w.vm);
      if (list === undefined) byVm.set(w.vm, [w]);
      else list.push(w);
    }
    for (const [vm, casts] of byVm) {
      const { moved, kept: refused } = moveCasts(vm, entry.vm, new CodeCorrespondence(vm.module, entry.module), casts.map((w) => w.fiber));
      for (const w of casts) {
        const fiber = moved.get(w.fiber);
        const why = fiber === undefined ? (refused.get(w.fiber) ?? 'it could not be moved') : this.rewait(w, fiber, entry.vm);
        if (why === null) continued.push(w.cast.id!);
        else kept.push(keptCast(w.cast, why));
      }
    }
    this.compact();
    return { continued, restarted: [], kept };
  }

  /** A waiting cast goes on as `fiber` on `vm` (its new code): same context, id, wake time and place in the order. Null, or why it stays as it was. */
  private rewait(w: WaitingCast, fiber: Fiber, vm: VM): string | null {
    const memory = this.state.memory;
    const hold = memory.holdOf(fiber);
    memory.release(w.hold);
    if (!memory.tryHold(hold)) {
      memory.tryHold(w.hold);
      vm.cancel(fiber, 'Reload refused.');
      return `in the new code it would hold more than the world's heap has left (${memory.message()})`;
    }
    w.cancelled = true;
    this.cancelledInHeap++;
    this.untrack(w);
    w.vm.cancel(w.fiber, 'Moved to the reloaded code.');
    this.track({ fiber, vm, cast: w.cast, seq: w.seq, hold, cancelled: false });
    return null;
  }

  /** 'restart': each waiting cast ends (cast-cancelled) and is cast again, new code, same caster, target and arguments, same id. */
  private restartCasts(waiting: readonly WaitingCast[], entry: LoadedSpells, kept: KeptCast[]): InFlightReport {
    const restarted: CastId[] = [];
    for (const w of waiting) {
      const { spell, caster, rest, id } = w.cast;
      const why =
        !entry.arity.has(spell) ? `the new code has no spell '${spell}'`
        : rest === null ? 'its arguments were not kept (a save could not hold them)'
        : caster !== null && this.state.liveSlotOf(caster) === NONE ? 'its caster is gone'
        : null;
      if (why !== null) {
        kept.push(keptCast(w.cast, why));
        continue;
      }
      this.untrack(w);
      this.cancelWaiting(w, 'cancelled', 'Restarted by a reload.');
      const casterRef = caster === null ? null : this.state.refAt(this.state.liveSlotOf(caster));
      this.startCast(entry, spell, casterRef, rest!, id);
      restarted.push(id!);
    }
    this.compact();
    return { continued: [], restarted, kept };
  }

  /** A cast begins waiting: into the wake queue and its caster's list. */
  private track(fields: Omit<WaitingCast, 'wakeAt' | 'list'>): void {
    const list = this.listOf(fields.cast.caster);
    const { fiber, vm, cast, seq, hold, cancelled } = fields;
    const entry: WaitingCast = { fiber, vm, cast, seq, wakeAt: cast.wakeAt, hold, cancelled, list };
    this.waiting.push(entry);
    list?.push(entry);
  }

  /**
   * Run a module's top-level script, which defines its globals (addModule
   * does, unless a restore defers it until the world's entities are back).
   * WorldError when it fails or waits.
   */
  runScript(vm: VM, sourceName: string): void {
    const cast: WorldCastContext = { host: this.host, spell: SCRIPT, caster: null, wakeAt: 0, id: null, target: null, rest: null };
    const script = this.runIn(vm, cast, () => vm.runScript());
    if (script.state === 'failed') {
      throw new WorldError(`${sourceName}: the top-level script failed: ${script.error?.message ?? 'unknown error'}`);
    }
    if (script.state !== 'done') throw new WorldError(`${sourceName}: the top-level script may not wait.`);
  }

  /** A reload may not take away a spell a loaded breed names: say which breed and slot, and keep the old module. */
  private checkBreedsKeepTheirSpells(replaced: LoadedSpells, module: Module, sourceName: string): void {
    const breeds = this.state.breedRegistry;
    if (breeds === null) return;
    const defined = new Set(this.spellOwner.keys());
    for (const s of replaced.module.spells) defined.delete(s.name);
    for (const s of module.spells) defined.add(s.name);
    try {
      breeds.checkSpells(defined);
    } catch (error) {
      if (error instanceof BreedError) throw new WorldError(`Cannot reload ${sourceName}: ${error.message} The old spells stay loaded.`);
      throw error;
    }
  }

  /** A cast from the embedder: announced with a `cast` event, then run now until it finishes or waits. */
  castFromEmbedder(spell: string, caster: EntityId | null, target: EntityId | null, extra: readonly Value[] = []): StartedCast {
    const badName = nameArgumentProblem('spell name', spell);
    if (badName !== null) throw new WorldError(badName);
    const owner = this.spellOwner.get(spell);
    if (!owner) throw new WorldError(`Unknown spell ${quoted(spell)}.`);
    const casterRef = this.refForApi(caster, 'caster');
    if (casterRef !== null && this.state.mirror[this.state.slotOfRef(casterRef)] === 1) throw new WorldError(`The caster #${caster} belongs to another zone (a mirror): cast there.`);
    const targetRef = this.refForApi(target, 'target');
    this.state.push({ type: 'cast', tick: this.state.steps, spell, caster, target });
    return this.startCast(owner, spell, casterRef, [targetRef, ...extra]);
  }

  /** Run a spell as cast by `caster` with `rest` after it (the target, extra arguments), trimmed or padded with nil to its parameter count. */
  startCast(owner: LoadedSpells, spell: string, caster: EntityRef | null, rest: readonly (Value | null)[], id: CastId | null = null): StartedCast {
    const arity = owner.arity.get(spell) ?? 0;
    const fitted: Value[] = [];
    for (let i = 0; i < arity; i++) fitted.push((i === 0 ? caster : rest[i - 1]) ?? null);
    const target = rest.length > 0 ? targetIdOf(rest[0]!) : null;
    const cast: WorldCastContext = { host: this.host, spell, caster: caster?.id ?? null, wakeAt: 0, id, target, rest };
    // The VM was created with the world's budgets as its defaults, so the cast needs no overrides.
    const fiber = this.runIn(owner.vm, cast, () => owner.vm.cast(spell, fitted));
    this.settle(fiber, owner.vm, cast);
    return { fiber, id: cast.id };
  }

  /**
   * A cast the world makes for an entity (its tick spell, its AOI handlers):
   * `spell(self, second)` cast by `self` (whose id is `selfId`), the arguments trimmed or padded to the spell's
   * parameters. The fast path: it allocates nothing unless the spell waits,
   * pauses or fails (then it is kept or reported as startCast does).
   */
  castForEntity(target: SpellTarget, self: EntityRef, selfId: EntityId, second: Value): void {
    const { owner, spell } = target;
    const args = this.argumentsFor(target.arity, self, second);
    // The id comes from the world's flat arrays: reading self.id would touch the reference object.
    const cast = this.takeCast(spell, selfId);
    const vm = owner.vm;
    const before = vm.hostCast;
    const running = this.state.running;
    vm.hostCast = cast;
    this.state.running = cast;
    let outcome: RunOutcome;
    try {
      outcome = vm.castFast(spell, args);
    } finally {
      vm.hostCast = before;
      this.state.running = running;
    }
    for (let i = 0; i < args.length; i++) args[i] = null;
    if (!this.castKeepsContext(outcome, owner.vm, cast, second)) this.casts[this.spareCasts++] = cast;
  }

  /**
   * After a fast cast: nothing to do if it finished, a cast-error if it failed,
   * kept (waiting or paused) otherwise. Returns whether the cast keeps `cast`,
   * its context; if not, the caller may reuse it.
   */
  private castKeepsContext(outcome: RunOutcome, vm: VM, cast: WorldCast, second: Value): boolean {
    if (outcome.state === 'done') return false;
    if (outcome.state === 'failed') {
      this.reportFailure(outcome.error, cast);
      return false;
    }
    // Known only now, for a cast that is kept: what it was cast with, for the embedder's list and a 'restart'.
    cast.target = targetIdOf(second);
    cast.rest = [second];
    this.settle(outcome.fiber!, vm, cast);
    return true;
  }

  /**
   * A phase of casts for many entities in a row (the tick phase): between
   * beginPhase and endPhase (called in a `finally`), castInPhase does what
   * castForEntity does — same context, events and outcomes — at less cost
   * per cast: each spell runs through a cast loop of its VM (vm/fast-loop.ts),
   * and one cast context serves the casts that finish (a cast that waits or
   * pauses keeps it, and the phase takes another). `second` is every cast's
   * second argument.
   */
  beginPhase(second: Value): void {
    if (this.phaseCast !== null) throw new WorldError('A cast phase is already open.');
    this.phaseSecond = second;
    this.phaseCast = this.takeCast(SCRIPT, 0);
    this.phasePrevious = this.state.running;
    this.state.running = this.phaseCast;
  }

  /**
   * `spell(self, second)` cast by `self` in the open phase (see beginPhase).
   * The road of a cast that finishes, with its rare turns out of line (V8
   * inlines this into the tick loop, and what it inlines there counts
   * against one budget: with the cast loop's run inlined too, a cast is one
   * call shorter).
   */
  castInPhase(target: SpellTarget, self: EntityRef, selfId: EntityId): void {
    // A target's loop and argument array are opened and closed together (openPhaseLoop, endPhase).
    const loop = target.loop ?? this.openPhaseLoop(target);
    const cast = this.phaseCast!;
    // Stored only when it changes (a store of an object is a write barrier; one tick spell per breed is the rule).
    if (cast.spell !== target.spell) cast.spell = target.spell;
    cast.caster = selfId;
    // A cast that finished left it 0 (one that waits set it, and took this context with it).
    if (cast.wakeAt !== 0) cast.wakeAt = 0;
    // Null when the cast finished: the tick phase reads no results. A tick spell's usual (self, dt) goes without the array,
    // as one run of the phase's batch (the loop holds its fiber open between runs; endPhase closes it).
    const outcome = target.arity === 2 ? loop.runPairInBatch(self, this.phaseSecond) : this.runWithArguments(target, loop, self);
    if (outcome !== null) this.afterPhaseCast(outcome, target, cast);
  }

  /** A phase's cast of a spell whose arity is not 2: through the target's argument array, the second argument in place for the whole phase (the VM copies the arguments, never writes them). */
  private runWithArguments(target: SpellTarget, loop: FastLoop, self: EntityRef): RunOutcome | null {
    const args = target.phaseArgs!;
    if (args.length > 0) args[0] = self;
    return loop.runUnlessDone(args);
  }

  /** A phase's cast that reported an outcome: if it waits or paused with the phase's context, the phase goes on in a new one. */
  private afterPhaseCast(outcome: RunOutcome, target: SpellTarget, cast: WorldCast): void {
    if (outcome.state !== 'done' && this.castKeepsContext(outcome, target.owner.vm, cast, this.phaseSecond)) this.renewPhaseCast();
  }

  /** The phase's context was kept by a cast that waits or paused: the phase (its VMs, the world's running cast) goes on in a new one. */
  private renewPhaseCast(): void {
    const next = this.takeCast(SCRIPT, 0);
    this.phaseCast = next;
    this.state.running = next;
    for (const vm of this.phaseVms) vm.hostCast = next;
  }

  /** A target's first cast in the phase: open its VM's cast loop and give it an argument array, the second argument in place. */
  private openPhaseLoop(target: SpellTarget): FastLoop {
    const vm = target.owner.vm;
    this.pointPhaseVm(vm);
    const loop = vm.castLoop(target.spell);
    const args: Value[] = [];
    for (let i = 0; i < target.arity; i++) args.push(i === 1 ? this.phaseSecond : null);
    target.loop = loop;
    target.phaseArgs = args;
    this.phaseTargets.push(target);
    return loop;
  }

  /** A VM the phase casts on runs in the phase's context until endPhase puts back the one it had. */
  private pointPhaseVm(vm: VM): void {
    if (this.phaseVms.includes(vm)) return;
    this.phaseVms.push(vm);
    this.phaseVmCasts.push(vm.hostCast);
    vm.hostCast = this.phaseCast;
  }

  /** Close the phase: restore the context it replaced, close its cast loops, let go of its arguments. */
  endPhase(): void {
    const cast = this.phaseCast;
    if (cast === null) return;
    this.state.running = this.phasePrevious;
    for (let i = 0; i < this.phaseVms.length; i++) this.phaseVms[i]!.hostCast = this.phaseVmCasts[i];
    this.phaseVms.length = 0;
    this.phaseVmCasts.length = 0;
    this.phaseCast = null;
    this.phasePrevious = null;
    this.casts[this.spareCasts++] = cast;
    for (const target of this.phaseTargets) {
      target.loop?.close();
      target.loop = null;
      target.phaseArgs = null;
    }
    this.phaseTargets.length = 0;
    this.phaseSecond = null;
  }

  private argumentsFor(arity: number, first: Value, second: Value): Value[] {
    const args = argumentArray(this.argArrays, arity);
    if (arity > 0) args[0] = first;
    if (arity > 1) args[1] = second;
    return args;
  }

  private takeCast(spell: string, caster: EntityId): WorldCast {
    if (this.spareCasts === 0) return new WorldCast(this.host, spell, caster);
    const cast = this.casts[--this.spareCasts]!;
    cast.spell = spell;
    cast.caster = caster;
    cast.wakeAt = 0;
    cast.id = null;
    cast.target = null;
    cast.rest = null;
    return cast;
  }

  /** Resume the casts whose wait is over by `now` (those whose caster is gone are cancelled). */
  resumeDue(now: number): void {
    // Only casts that were already waiting when the step began: one that waits again (even wait(0))
    // gets a newer seq and resumes next step, so this loop always ends.
    const startedBefore = this.state.castSeq;
    while (this.waiting.size > 0) {
      const next = this.waiting.peek()!;
      if (next.cancelled) {
        this.waiting.pop();
        this.cancelledInHeap--;
        continue;
      }
      if (!(next.wakeAt <= now && next.seq < startedBefore)) break;
      this.waiting.pop();
      this.untrack(next);
      this.state.memory.release(next.hold);
      const { fiber, vm, cast } = next;
      // Casters that go cancel their casts at once (casterGone); this catches any other way one went.
      if (cast.caster !== null && this.state.liveSlotOf(cast.caster) === NONE) {
        this.end(vm, fiber, cast, 'caster-gone', this.casterGoneMessage(cast.caster));
        continue;
      }
      this.runIn(vm, cast, () => vm.resume(fiber));
      this.settle(fiber, vm, cast);
    }
  }

  /** An entity went (killed, despawned or recycled): cancel the casts it is waiting in, with an event each. */
  casterGone(caster: EntityId, reason: DespawnReason): void {
    const casts = this.waitingBy.get(caster);
    if (casts === undefined) return;
    this.waitingBy.delete(caster);
    for (const w of casts) this.cancelWaiting(w, 'caster-gone', CASTER_GONE[reason]);
    this.compact();
  }

  /** Continue a paused cast with a debugger command, in its cast context; false if it is not paused here, else its id. */
  continuePaused(fiber: Fiber, go: (fiber: Fiber) => void): CastId | null | false {
    const entry = this.paused.get(fiber);
    if (!entry || fiber.state !== 'paused') return false;
    this.paused.delete(fiber);
    this.runIn(entry.vm, entry.cast, () => go(fiber));
    this.settle(fiber, entry.vm, entry.cast);
    return entry.cast.id;
  }

  /** End a paused or waiting cast without a cast-error (a `cast-cancelled` event instead). Returns whether it was live here. */
  cancel(fiber: Fiber, message: string): boolean {
    const paused = this.paused.get(fiber);
    if (paused) {
      this.paused.delete(fiber);
      this.end(paused.vm, fiber, paused.cast, 'cancelled', message);
      return true;
    }
    // Rare (a Stop button, an interrupted channel): a scan is fine.
    const waiting = this.waiting.toArray().find((w) => w.fiber === fiber && !w.cancelled);
    if (!waiting) return false;
    this.untrack(waiting);
    this.cancelWaiting(waiting, 'cancelled', message);
    this.compact();
    return true;
  }

  private refForApi(id: EntityId | null, role: string): EntityRef | null {
    if (id === null) return null;
    const slot = this.state.liveSlotOf(id);
    if (slot === NONE) throw new WorldError(`The ${role} #${id} is not a living entity.`);
    return this.state.refAt(slot);
  }

  /** After a cast ran: park it if it waits, report it if it failed. */
  private settle(fiber: Fiber, vm: VM, cast: WorldCastContext): void {
    if ((fiber.state === 'suspended' || fiber.state === 'paused') && cast.id === null) cast.id = this.newCastId(cast.caster);
    if (fiber.state === 'suspended') {
      const caster = cast.caster;
      // A cast that killed (or despawned) its own caster, then waits: nobody is left to wait for.
      if (caster !== null && this.state.liveSlotOf(caster) === NONE) {
        this.end(vm, fiber, cast, 'caster-gone', this.casterGoneMessage(caster));
        return;
      }
      const hold = this.state.memory.holdOf(fiber);
      if (this.state.memory.tryHold(hold)) {
        this.track({ fiber, vm, cast, seq: this.state.castSeq++, hold, cancelled: false });
        return;
      }
      // Waiting would pass the world's heap budget: the cast ends here, reported like any failure.
      vm.cancel(fiber, this.state.memory.message(), 'heap');
    }
    if (fiber.state === 'paused') {
      this.paused.set(fiber, { vm, cast });
    } else if (fiber.state === 'failed') {
      this.reportFailure(fiber.error, cast);
    }
  }

  private reportFailure(error: SpellRuntimeError | null, cast: WorldCastContext): void {
    this.state.push({
      type: 'cast-error',
      tick: this.state.steps,
      id: cast.id,
      spell: cast.spell,
      caster: cast.caster,
      line: error?.line ?? 0,
      message: error?.message ?? 'The cast failed.',
      trace: error ? error.format() : 'The cast failed.',
    });
  }

  /** Mark a waiting cast cancelled (it stays in the heap until compacted or due), give back what it held, and end it. */
  private cancelWaiting(w: WaitingCast, reason: CastCancelReason, message: string): void {
    w.cancelled = true;
    this.cancelledInHeap++;
    this.state.memory.release(w.hold);
    this.end(w.vm, w.fiber, w.cast, reason, message);
  }

  /** End a suspended or paused cast and tell the observers why. */
  private end(vm: VM, fiber: Fiber, cast: WorldCastContext, reason: CastCancelReason, message: string): void {
    vm.cancel(fiber, message);
    this.state.push({ type: 'cast-cancelled', tick: this.state.steps, id: cast.id, spell: cast.spell, caster: cast.caster, reason, message });
  }

  /**
   * A waiting cast leaves the heap: forget it in its caster's list. A list left empty stays in the map
   * for the caster's next wait (a cast that wakes and waits again, every few steps, would otherwise
   * delete and add its caster's entry each time); casterGone and dropHandedOver remove it with the caster.
   */
  private untrack(w: WaitingCast): void {
    const list = w.list;
    if (list === null) return;
    if (list.length === 1 && list[0] === w) {
      list.pop();
      return;
    }
    const at = list.indexOf(w);
    if (at >= 0) list.splice(at, 1);
  }

  /** The list of casts `caster` waits in (made, empty, if it has none), or null for a cast without a caster. */
  private listOf(caster: EntityId | null): WaitingCast[] | null {
    if (caster === null) return null;
    let list = this.waitingBy.get(caster);
    if (list === undefined) {
      list = [];
      this.waitingBy.set(caster, list);
    }
    return list;
  }

  /** Drop cancelled casts from the heap once they are most of it, so they hold no memory for long. */
  private compact(): void {
    if (this.cancelledInHeap <= CANCELLED_SLACK || this.cancelledInHeap * 2 <= this.waiting.size) return;
    this.waiting.removeWhere((w) => w.cancelled);
    this.cancelledInHeap = 0;
  }

  /** Why a gone caster went, when its slot still says (marked this step), for the event's message. */
  private casterGoneMessage(caster: EntityId): string {
    const slot = this.state.slotById.get(caster);
    const entry = slot === undefined ? undefined : this.state.reapQueue.find((r) => r.slot === slot);
    return entry === undefined ? 'Its caster is gone.' : CASTER_GONE[entry.reason];
  }

  /** Run `body` (a VM's cast, resume or script) in `cast`: the VM hands it to host functions (HostContext.cast), the world's own reactions read it as `running`. */
  private runIn<T>(vm: VM, cast: CastContext, body: () => T): T {
    const before = vm.hostCast;
    const running = this.state.running;
    vm.hostCast = cast;
    this.state.running = cast;
    try {
      return body();
    } finally {
      vm.hostCast = before;
      this.state.running = running;
    }
  }

  private emitPrint(text: string): void {
    const cast = this.state.running;
    const inSpell = cast !== null && cast.spell !== SCRIPT;
    this.state.push({ type: 'print', tick: this.state.steps, text, spell: inSpell ? cast.spell : null, caster: inSpell ? cast.caster : null });
  }
}

export function castResult(fiber: Fiber, id: CastId | null = null): CastResult {
  const state = fiber.state === 'done' || fiber.state === 'suspended' || fiber.state === 'paused' ? fiber.state : 'failed';
  return { state, result: fiber.result, error: fiber.error, fiber, id: state === 'suspended' || state === 'paused' ? id : null };
}

/** A cast waiting for game time, as a snapshot sees it. */
export interface InFlightCast {
  readonly fiber: Fiber;
  readonly vm: VM;
  readonly spell: string;
  readonly caster: EntityId | null;
  readonly wakeAt: number;
  readonly seq: number;
  /** Null from a save that has none (the world gives it one). */
  readonly id: CastId | null;
  readonly target: EntityId | null;
  readonly rest: readonly Value[] | null;
}

function inFlight(w: WaitingCast): InFlightCast {
  const c = w.cast;
  return { fiber: w.fiber, vm: w.vm, spell: c.spell, caster: c.caster, wakeAt: c.wakeAt, seq: w.seq, id: c.id, target: c.target, rest: c.rest };
}

/** What a reload does to the casts in flight on the code it replaces (World.loadSpells' `inFlight`). */
export type InFlightPolicy = 'continue' | 'keep' | 'restart';

/** A cast in flight that kept its old code through a reload, and why. */
export interface KeptCast {
  readonly id: CastId;
  readonly spell: string;
  readonly caster: EntityId | null;
  readonly reason: string;
}

interface InFlightReport {
  readonly continued: readonly CastId[];
  readonly restarted: readonly CastId[];
  readonly kept: readonly KeptCast[];
}

const NO_CASTS: InFlightReport = { continued: [], restarted: [], kept: [] };

function keptCast(cast: WorldCastContext, reason: string): KeptCast {
  return { id: cast.id ?? '', spell: cast.spell, caster: cast.caster, reason };
}

/** What loading a module changed: every spell is added on a first load; a reload says what it added, removed and changed, and what became of the casts in flight on the old code. */
export interface SpellsReload {
  readonly sourceName: string;
  /** False on the first load of this sourceName. */
  readonly reloaded: boolean;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Spells in both whose own code (nested functions included) differs; a change only in a helper they call is not seen. */
  readonly changed: readonly string[];
  readonly unchanged: readonly string[];
  /** What the reload did to the casts in flight on the code it replaced (World.loadSpells' option). */
  readonly inFlight: InFlightPolicy;
  /** Casts that resume in the new code at the corresponding wait ('continue'). */
  readonly continued: readonly CastId[];
  /** Casts cancelled and cast again in the new code, with the same ids ('restart'). */
  readonly restarted: readonly CastId[];
  /** Casts that keep their old code, each with the reason ('continue' and 'restart' list those they could not take along). */
  readonly kept: readonly KeptCast[];
}

function reloadSummary(sourceName: string, before: Module | null, after: Module): Omit<SpellsReload, 'inFlight' | keyof InFlightReport> {
  const fingerprints = (m: Module) => new Map(m.spells.map((s) => [s.name, functionFingerprint(m, s.functionIndex)]));
  const now = fingerprints(after);
  if (before === null) return { sourceName, reloaded: false, added: [...now.keys()], removed: [], changed: [], unchanged: [] };
  const then = fingerprints(before);
  const added = [...now.keys()].filter((n) => !then.has(n));
  const removed = [...then.keys()].filter((n) => !now.has(n));
  const kept = [...now.keys()].filter((n) => then.has(n));
  return {
    sourceName,
    reloaded: true,
    added,
    removed,
    changed: kept.filter((n) => then.get(n) !== now.get(n)),
    unchanged: kept.filter((n) => then.get(n) === now.get(n)),
  };
}

/** The message of a cast cancelled because its caster went, by how it went. */
const CASTER_GONE: Readonly<Record<DespawnReason, string>> = {
  killed: 'Its caster died.',
  despawned: 'Its caster was despawned.',
  evicted: 'Its caster was recycled.',
  'handed-over': 'Its caster moved to another zone.',
};

/** Waiting casts resume in order of wake time, then of when they started waiting. */
function wakesBefore(a: WaitingCast, b: WaitingCast): boolean {
  return a.wakeAt < b.wakeAt || (a.wakeAt === b.wakeAt && a.seq < b.seq);
}
