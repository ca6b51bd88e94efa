/**
 * Debug casts on the live world. The cast runs on a VM of its own for the
 * editor's module with the VM's Debugger attached, inside the world's cast context
 * (so damage, nearby, wait … act on the world). A paused fiber waits for
 * Continue / Step; a fiber in `wait` is parked and resumed when the world's
 * game time reaches its wake time — so stepping works across `wait`.
 */
import { WORLD_HOST_FUNCTIONS, runInCast, type CastContext } from '../../../runtime/host-api.js';
import type { EntityId } from '../../../runtime/events.js';
import type { Fiber } from '../../../vm/fiber.js';
import type { Module } from '../../../vm/module.js';
import type { Value } from '../../../vm/value.js';
import { VM } from '../../../vm/vm.js';
import type { Reporter } from '../backend.js';
import { describeFailure, errorMessage } from '../engine.js';
import { WORLD_BUDGETS, type PlaygroundWorld } from '../world/playgroundWorld.js';
import { Debugger, type FrameView, type StepMode } from '../../../vm/debugger.js';

export type DebugState = 'idle' | 'paused' | 'running' | 'waiting';

export interface DebugView {
  readonly state: DebugState;
  readonly spell: string | null;
  /** Innermost first; empty unless paused. */
  readonly frames: readonly FrameView[];
  /** Game time the cast resumes at, when waiting. */
  readonly wakeAt: number | null;
}

interface DebugCast {
  readonly vm: VM;
  readonly debugger: Debugger;
  readonly fiber: Fiber;
  readonly cast: CastContext;
}

export class DebugSession {
  private current: DebugCast | null = null;

  constructor(
    private readonly world: PlaygroundWorld,
    private readonly reporter: () => Reporter,
    private readonly onChange: (view: DebugView) => void,
    /** The editor's breakpoint lines, read at every start and step (they can change while paused). */
    private readonly breakpoints: () => readonly number[],
  ) {}

  get active(): boolean {
    return this.current !== null;
  }

  /** Cast `spell` under the debugger; `into` pauses at its first line. */
  start(module: Module, spell: string, caster: EntityId | null, target: EntityId | null, mode: StepMode): void {
    this.stop();
    const world = this.world.world;
    if (!world) return;
    const reporter = this.reporter();
    try {
      const vm = new VM(module, { ...WORLD_BUDGETS, hosts: WORLD_HOST_FUNCTIONS, print: (text) => reporter.print(text) });
      const dbg = new Debugger(vm);
      dbg.setBreakpoints(this.breakpoints());
      dbg.attach();
      const script = runInCast({ host: world, spell: '<script>', caster: null, wakeAt: 0 }, () => vm.runScript());
      if (script.state !== 'done') {
        this.report(script, 'The script');
        dbg.detach();
        return;
      }
      const args: Value[] = [this.world.ref(caster), this.world.ref(target)];
      const arity = module.functions[module.spells.find((s) => s.name === spell)?.functionIndex ?? -1]?.arity ?? 2;
      const cast: CastContext = { host: world, spell, caster, wakeAt: 0 };
      dbg.startMode = mode;
      world.emit({ type: 'cast', tick: world.steps, spell, caster, target });
      const fiber = runInCast(cast, () => vm.cast(spell, args.slice(0, arity).concat(Array(Math.max(0, arity - 2)).fill(null)), WORLD_BUDGETS));
      this.current = { vm, debugger: dbg, fiber, cast };
      this.settle();
    } catch (e) {
      reporter.runtimeError(`Cannot debug ${spell}: ${errorMessage(e)}`, null);
      this.stop();
    }
  }

  continue(): void {
    this.step('run');
  }

  stepOver(): void {
    this.step('over');
  }

  stepInto(): void {
    this.step('into');
  }

  stepOut(): void {
    this.step('out');
  }

  private step(mode: StepMode): void {
    const c = this.current;
    if (!c || c.fiber.state !== 'paused') return;
    const dbg = c.debugger;
    dbg.setBreakpoints(this.breakpoints());
    runInCast(c.cast, () => {
      if (mode === 'run') dbg.continue(c.fiber);
      else if (mode === 'over') dbg.stepOver(c.fiber);
      else if (mode === 'into') dbg.stepInto(c.fiber);
      else dbg.stepOut(c.fiber);
    });
    this.settle();
  }

  /** After the world advanced: resume the debugged cast if its wait is over. */
  resumeDue(): void {
    const c = this.current;
    const world = this.world.world;
    if (!c || !world || c.fiber.state !== 'suspended' || c.cast.wakeAt > world.time + 1e-9) return;
    c.debugger.setBreakpoints(this.breakpoints());
    runInCast(c.cast, () => c.vm.resume(c.fiber));
    this.settle();
  }

  stop(): void {
    const c = this.current;
    if (c) {
      if (c.fiber.state === 'paused' || c.fiber.state === 'suspended') c.vm.cancel(c.fiber, 'Stopped in the debugger.');
      c.debugger.detach();
      this.current = null;
    }
    this.onChange({ state: 'idle', spell: null, frames: [], wakeAt: null });
  }

  private settle(): void {
    const c = this.current;
    if (!c) return;
    this.world.world?.flush();
    const fiber = c.fiber;
    if (fiber.state === 'paused') {
      this.onChange({ state: 'paused', spell: c.cast.spell, frames: c.debugger.callStack(fiber), wakeAt: null });
    } else if (fiber.state === 'suspended') {
      this.reporter().info(`${c.cast.spell} waits until t=${c.cast.wakeAt.toFixed(2)}s: press Play or Step tick; the debugger picks it up again.`);
      this.onChange({ state: 'waiting', spell: c.cast.spell, frames: [], wakeAt: c.cast.wakeAt });
    } else {
      this.report(fiber, c.cast.spell);
      c.debugger.detach();
      this.current = null;
      this.onChange({ state: 'idle', spell: null, frames: [], wakeAt: null });
    }
  }

  private report(fiber: Fiber, what: string): void {
    if (fiber.state === 'failed' && fiber.error) {
      const failure = describeFailure(fiber.error);
      this.reporter().runtimeError(failure.text, failure.line);
    } else if (fiber.state === 'done') {
      this.reporter().info(`${what} finished.`);
    }
  }
}
