/**
 * The spells a World can cast and the casts in flight: loading modules (one
 * VM each, bound to the world's host API and budgets), starting a cast with
 * its arguments fitted to the spell, and settling it afterwards — parked
 * until game time passes if it waits, kept if a debugger paused it, reported
 * as a `cast-error` event if it failed. A waiting cast whose caster goes
 * (killed, despawned, recycled) is cancelled at once, as is one cancelled by
 * the embedder: a `cast-cancelled` event says which and why.
 */

import { quoted } from '../vm/bounded-text.js';
import type { Fiber } from '../vm/fiber.js';
import type { Module } from '../vm/module.js';
import type { SpellRuntimeError } from '../vm/errors.js';
import type { Value } from '../vm/value.js';
import { VM, type RunOutcome } from '../vm/vm.js';
import type { EntityRef } from './entity-ref.js';
import { WorldError } from './errors.js';
import type { CastCancelReason, DespawnReason, EntityId } from './events.js';
import { WORLD_HOST_FUNCTIONS, currentCast, enterCast, leaveCast, runInCast, type CastContext, type GameHost } from './host-api.js';
import { MinHeap } from './min-heap.js';
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
}

interface WaitingCast {
  readonly fiber: Fiber;
  readonly vm: VM;
  readonly cast: CastContext;
  readonly seq: number;
  /** Heap units it holds against the world's budget while it waits (runtime/world-memory.ts). */
  readonly hold: number;
  /** Cancelled while in the heap: skipped when it reaches the top (or dropped when many are). */
  cancelled: boolean;
}

/** Cancelled casts the heap may hold before it is compacted (beyond half its size). */
const CANCELLED_SLACK = 64;

/** A cast stopped by a debugger at a breakpoint or step: kept until the debugger continues or cancels it. */
interface PausedCast {
  readonly vm: VM;
  readonly cast: CastContext;
}

/** The cast name of a module's top-level script. */
const SCRIPT = '<script>';

/** A CastContext the world reuses for its own casts once they finish (one that waits or pauses keeps it). */
class WorldCast implements CastContext {
  wakeAt = 0;
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
  private readonly waiting = new MinHeap<WaitingCast>(wakesBefore);
  /** Waiting casts by caster, in the order they began waiting: cancelled when their caster goes. */
  private readonly waitingBy = new Map<EntityId, WaitingCast[]>();
  private cancelledInHeap = 0;
  private readonly paused = new Map<Fiber, PausedCast>();
  /** Spare contexts for the world's own casts (a stack, `spareCasts` deep). */
  private readonly casts: WorldCast[] = [];
  private spareCasts = 0;
  /** Argument arrays by length, reused: the VM copies the arguments onto the fiber's stack before the spell runs. */
  private readonly argArrays: Value[][] = [];

  constructor(
    private readonly state: WorldState,
    /** The World, as the host the casts' host functions act on. */
    private readonly host: GameHost,
  ) {}

  /** The loaded modules, in load order. */
  get loaded(): readonly LoadedSpells[] {
    return this.modules;
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

  /** The loaded module defining a spell. */
  ownerOf(spell: string): LoadedSpells | undefined {
    return this.spellOwner.get(spell);
  }

  /** The spell resolved for castForEntity, if it is loaded. */
  targetOf(spell: string): SpellTarget | undefined {
    return this.targets.get(spell);
  }

  /** Create a module's VM and run its top-level script (WorldError if a spell is defined twice, or the script fails or waits). */
  addModule(module: Module, sourceName: string, source: string | null): void {
    for (const s of module.spells) {
      if (this.spellOwner.has(s.name)) throw new WorldError(`Spell '${s.name}' is defined twice (again in ${sourceName}).`);
    }
    const vm = new VM(module, {
      ...this.state.options.budgets,
      hosts: WORLD_HOST_FUNCTIONS,
      print: (text) => this.emitPrint(text),
    });
    const arity = new Map(module.spells.map((s) => [s.name, module.functions[s.functionIndex]?.arity ?? 0]));
    const entry: LoadedSpells = { vm, module, sourceName, source, arity };
    const cast: CastContext = { host: this.host, spell: SCRIPT, caster: null, wakeAt: 0 };
    const script = runInCast(cast, () => vm.runScript());
    if (script.state === 'failed') {
      throw new WorldError(`${sourceName}: the top-level script failed: ${script.error?.message ?? 'unknown error'}`);
    }
    if (script.state !== 'done') throw new WorldError(`${sourceName}: the top-level script may not wait.`);
    this.modules.push(entry);
    for (const s of module.spells) {
      this.spellOwner.set(s.name, entry);
      this.targets.set(s.name, { owner: entry, spell: s.name, arity: arity.get(s.name) ?? 0 });
    }
  }

  /** A cast from the embedder: announced with a `cast` event, then run now until it finishes or waits. */
  castFromEmbedder(spell: string, caster: EntityId | null, target: EntityId | null): Fiber {
    const owner = this.spellOwner.get(spell);
    if (!owner) throw new WorldError(`Unknown spell ${quoted(spell)}.`);
    const casterRef = this.refForApi(caster, 'caster');
    const targetRef = this.refForApi(target, 'target');
    this.state.push({ type: 'cast', tick: this.state.steps, spell, caster, target });
    return this.startCast(owner, spell, casterRef, [casterRef, targetRef]);
  }

  /** Run a spell as cast by `caster`, its arguments trimmed or padded with nil to its parameter count. */
  startCast(owner: LoadedSpells, spell: string, caster: EntityRef | null, args: readonly (Value | null)[]): Fiber {
    const arity = owner.arity.get(spell) ?? 0;
    const fitted: Value[] = [];
    for (let i = 0; i < arity; i++) fitted.push(args[i] ?? null);
    const cast: CastContext = { host: this.host, spell, caster: caster?.id ?? null, wakeAt: 0 };
    // The VM was created with the world's budgets as its defaults, so the cast needs no overrides.
    const fiber = runInCast(cast, () => owner.vm.cast(spell, fitted));
    this.settle(fiber, owner.vm, cast);
    return fiber;
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
    const previous = enterCast(cast);
    let outcome: RunOutcome;
    try {
      outcome = owner.vm.castFast(spell, args);
    } finally {
      leaveCast(previous);
    }
    for (let i = 0; i < args.length; i++) args[i] = null;
    if (outcome.state === 'done') {
      this.casts[this.spareCasts++] = cast;
      return;
    }
    if (outcome.state === 'failed') {
      this.reportFailure(outcome.error, cast);
      this.casts[this.spareCasts++] = cast;
      return;
    }
    this.settle(outcome.fiber!, owner.vm, cast);
  }

  private argumentsFor(arity: number, first: Value, second: Value): Value[] {
    let args = this.argArrays[arity];
    if (args === undefined) {
      args = [];
      for (let i = 0; i < arity; i++) args.push(null);
      this.argArrays[arity] = args;
    }
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
      if (!(next.cast.wakeAt <= now && next.seq < startedBefore)) break;
      this.waiting.pop();
      this.untrack(next);
      this.state.memory.release(next.hold);
      const { fiber, vm, cast } = next;
      // Casters that go cancel their casts at once (casterGone); this catches any other way one went.
      if (cast.caster !== null && this.state.liveSlotOf(cast.caster) === NONE) {
        this.end(vm, fiber, cast, 'caster-gone', this.casterGoneMessage(cast.caster));
        continue;
      }
      runInCast(cast, () => vm.resume(fiber));
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

  /** Continue a paused cast with a debugger command, in its cast context; false if it is not paused here. */
  continuePaused(fiber: Fiber, go: (fiber: Fiber) => void): boolean {
    const entry = this.paused.get(fiber);
    if (!entry || fiber.state !== 'paused') return false;
    this.paused.delete(fiber);
    runInCast(entry.cast, () => go(fiber));
    this.settle(fiber, entry.vm, entry.cast);
    return true;
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
  private settle(fiber: Fiber, vm: VM, cast: CastContext): void {
    if (fiber.state === 'suspended') {
      const caster = cast.caster;
      // A cast that killed (or despawned) its own caster, then waits: nobody is left to wait for.
      if (caster !== null && this.state.liveSlotOf(caster) === NONE) {
        this.end(vm, fiber, cast, 'caster-gone', this.casterGoneMessage(caster));
        return;
      }
      const hold = this.state.memory.holdOf(fiber);
      if (this.state.memory.tryHold(hold)) {
        const entry: WaitingCast = { fiber, vm, cast, seq: this.state.castSeq++, hold, cancelled: false };
        this.waiting.push(entry);
        if (caster !== null) {
          const list = this.waitingBy.get(caster);
          if (list === undefined) this.waitingBy.set(caster, [entry]);
          else list.push(entry);
        }
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

  private reportFailure(error: SpellRuntimeError | null, cast: CastContext): void {
    this.state.push({
      type: 'cast-error',
      tick: this.state.steps,
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
  private end(vm: VM, fiber: Fiber, cast: CastContext, reason: CastCancelReason, message: string): void {
    vm.cancel(fiber, message);
    this.state.push({ type: 'cast-cancelled', tick: this.state.steps, spell: cast.spell, caster: cast.caster, reason, message });
  }

  /** A waiting cast leaves the heap: forget it in its caster's list. */
  private untrack(w: WaitingCast): void {
    const caster = w.cast.caster;
    if (caster === null) return;
    const list = this.waitingBy.get(caster);
    if (list === undefined) return;
    const at = list.indexOf(w);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) this.waitingBy.delete(caster);
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

  private emitPrint(text: string): void {
    const cast = currentCast();
    const inSpell = cast !== null && cast.host === this.host && cast.spell !== SCRIPT;
    this.state.push({ type: 'print', tick: this.state.steps, text, spell: inSpell ? cast.spell : null, caster: inSpell ? cast.caster : null });
  }
}

export function castResult(fiber: Fiber): CastResult {
  const state = fiber.state === 'done' || fiber.state === 'suspended' || fiber.state === 'paused' ? fiber.state : 'failed';
  return { state, result: fiber.result, error: fiber.error, fiber };
}

/** The message of a cast cancelled because its caster went, by how it went. */
const CASTER_GONE: Readonly<Record<DespawnReason, string>> = {
  killed: 'Its caster died.',
  despawned: 'Its caster was despawned.',
  evicted: 'Its caster was recycled.',
};

/** Waiting casts resume in order of wake time, then of when they started waiting. */
function wakesBefore(a: WaitingCast, b: WaitingCast): boolean {
  return a.cast.wakeAt < b.cast.wakeAt || (a.cast.wakeAt === b.cast.wakeAt && a.seq < b.seq);
}
