/**
 * Debug casts on the live world. The cast is a real cast of the world
 * (`world.cast`): it runs on the world's own VM for the editor's spells, with
 * the world's globals, and the VM's Debugger attached to that VM. The world
 * keeps a cast the debugger paused; Continue / Step go through
 * `world.continuePaused`. A cast in `wait` is parked by the world like any
 * other and resumed when game time reaches its wake time, where it pauses
 * again at the next line or breakpoint — so stepping works across `wait`.
 *
 * Only the cast the designer started stops: the other casts on the same VM
 * (e.g. trolls' tick spells, when the editor defines them) run through the
 * breakpoints without pausing, so the world keeps making sense.
 */
import { runningCast, type CastContext } from '../../../runtime/host/host-api.js';
import type { EntityId } from '../../../runtime/events/events.js';
import type { CastResult, World } from '../../../runtime/world/world.js';
import type { Fiber } from '../../../vm/fiber.js';
import type { ObjFunction } from '../../../vm/objects.js';
import type { BreakHandler, VM } from '../../../vm/vm.js';
import { Debugger, type FrameView, type StepMode } from '../../../vm/debugger.js';
import type { Reporter } from '../backend.js';
import { errorMessage } from '../engine.js';
import type { PlaygroundWorld } from '../world/playgroundWorld.js';
import { lineMoves, type LineMoves } from './lineMoves.js';

export type DebugState = 'idle' | 'paused' | 'running' | 'waiting';

export interface DebugView {
  readonly state: DebugState;
  readonly spell: string | null;
  /** Innermost first; empty unless paused. */
  readonly frames: readonly FrameView[];
  /** Game time the cast resumes at, when waiting. */
  readonly wakeAt: number | null;
}

const IDLE: DebugView = { state: 'idle', spell: null, frames: [], wakeAt: null };

/**
 * Lets the Debugger decide only for the debugged cast's fiber. While the
 * world runs that cast (`arming`), the first fiber of the spell that reaches
 * a line is it: world.cast runs that one fiber and nothing else.
 */
class OneCastFilter implements BreakHandler {
  fiber: Fiber | null = null;
  /** The world's context of the debugged cast: wait() sets its wakeAt. */
  context: CastContext | null = null;
  arming = false;

  constructor(
    private readonly inner: Debugger,
    private readonly spell: string,
    private readonly vm: VM,
  ) {}

  shouldPause(fiber: Fiber, fn: ObjFunction, pc: number, depth: number): boolean {
    if (this.fiber === null && this.arming && fiber.spell === this.spell) {
      this.fiber = fiber;
      this.context = runningCast(this.vm);
    }
    return fiber === this.fiber && this.inner.shouldPause(fiber, fn, pc, depth);
  }
}

interface DebugCast {
  readonly world: World;
  readonly vm: VM;
  readonly debugger: Debugger;
  readonly filter: OneCastFilter;
  readonly fiber: Fiber;
  readonly spell: string;
  /** Set when the editor's text was reloaded with the same code on other lines: how its lines map to the running code's. */
  moves: LineMoves | null;
}

export class DebugSession {
  private current: DebugCast | null = null;

  constructor(
    private readonly world: PlaygroundWorld,
    private readonly reporter: () => Reporter,
    private readonly onChange: (view: DebugView) => void,
    /** The editor's breakpoint lines, read at every start and step (they can change while paused). */
    private readonly breakpoints: () => readonly number[],
  ) {
    // A rebuilt world (new breeds, Reset) has no fiber of ours any more.
    world.onRebuild(() => {
      if (this.current) {
        this.reporter().info(`The world was rebuilt: the debugged cast of ${this.current.spell} was dropped.`);
        this.stop();
      }
    });
    // New code in the running world: the paused cast would go on running the old code, which the
    // editor and the bytecode panel no longer show. Drop it, as a rebuild does — unless only comments
    // or blank lines changed (the same code on other lines): then it goes on, its lines translated.
    world.onReload(() => {
      const c = this.current;
      if (!c) return;
      const reloaded = c.world.spellVm(c.spell)?.module ?? null;
      const moves = reloaded === null ? null : lineMoves(c.vm.module, reloaded);
      if (moves !== null) {
        c.moves = moves;
        c.debugger.setBreakpoints(this.codeBreakpoints(c));
        this.reporter().info(`Only comments or blank lines changed: the debugged cast of ${c.spell} goes on.`);
        this.settle();
        return;
      }
      this.reporter().info(`The code changed: the debugged cast of ${c.spell} ran the old code, so it was dropped. Cast again to debug the new code.`);
      this.stop();
    });
  }

  get active(): boolean {
    return this.current !== null;
  }

  /** Cast `spell` on the world under the debugger; `into` pauses at its first line. */
  start(spell: string, caster: EntityId | null, target: EntityId | null, mode: StepMode): void {
    this.stop();
    const world = this.world.world;
    const vm = world?.spellVm(spell) ?? null;
    if (!world || !vm) {
      this.reporter().runtimeError(`Cannot debug ${spell}: the world has no such spell.`, null);
      return;
    }
    const dbg = new Debugger(vm);
    const filter = new OneCastFilter(dbg, spell, vm);
    dbg.setBreakpoints(this.breakpoints());
    dbg.startMode = mode;
    dbg.attach();
    vm.breakHandler = filter;
    let result: CastResult;
    try {
      filter.arming = true;
      result = world.cast(spell, caster, target);
    } catch (e) {
      this.release(vm, dbg);
      this.reporter().runtimeError(`Cannot debug ${spell}: ${errorMessage(e)}`, null);
      return;
    } finally {
      filter.arming = false;
    }
    // A spell with no code of its own may finish before any line event: adopt its fiber anyway.
    filter.fiber ??= result.fiber;
    this.current = { world, vm, debugger: dbg, filter, fiber: result.fiber, spell, moves: null };
    this.settle();
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
    dbg.setBreakpoints(this.codeBreakpoints(c));
    c.world.continuePaused(c.fiber, (fiber) => {
      if (mode === 'run') dbg.continue(fiber);
      else if (mode === 'over') dbg.stepOver(fiber);
      else if (mode === 'into') dbg.stepInto(fiber);
      else dbg.stepOut(fiber);
    });
    this.settle();
  }

  /** After the world advanced: the world resumes a waiting cast itself; show where it got to. */
  afterWorldStep(): void {
    const c = this.current;
    if (!c || c.fiber.state === 'suspended') return;
    this.settle();
  }

  /** The editor's breakpoints changed: they apply at once, also to a cast the world resumes after a wait. */
  refreshBreakpoints(): void {
    const c = this.current;
    c?.debugger.setBreakpoints(this.codeBreakpoints(c));
  }

  /** The editor's breakpoints as lines of the code the cast runs. */
  private codeBreakpoints(c: DebugCast): number[] {
    const lines = this.breakpoints();
    return c.moves === null ? [...lines] : lines.flatMap((line) => c.moves!.toCode(line));
  }

  stop(): void {
    const c = this.current;
    if (c) {
      c.world.cancelCast(c.fiber, 'Stopped in the debugger.');
      c.world.flush(); // the cast-cancelled line now, not at the next step
      this.release(c.vm, c.debugger);
      this.current = null;
    }
    this.onChange(IDLE);
  }

  private release(vm: VM, dbg: Debugger): void {
    dbg.detach();
    vm.breakHandler = null;
  }

  private settle(): void {
    const c = this.current;
    if (!c) return;
    c.world.flush();
    const fiber = c.fiber;
    if (fiber.state === 'paused') {
      const frames = c.debugger.callStack(fiber);
      const moves = c.moves;
      this.onChange({ state: 'paused', spell: c.spell, frames: moves === null ? frames : frames.map((f) => ({ ...f, line: moves.toEditor(f.line) })), wakeAt: null });
    } else if (fiber.state === 'suspended') {
      const wakeAt = c.filter.context?.wakeAt ?? null;
      const until = wakeAt === null ? '' : ` until t=${wakeAt.toFixed(2)}s`;
      this.reporter().info(`${c.spell} waits${until}: press Play or Step tick; the debugger picks it up again.`);
      this.onChange({ state: 'waiting', spell: c.spell, frames: [], wakeAt });
    } else {
      // A failure was reported by the world (a cast-error event, with its line); say only that it finished.
      if (fiber.state === 'done') this.reporter().info(`${c.spell} finished.`);
      this.release(c.vm, c.debugger);
      this.current = null;
      this.onChange(IDLE);
    }
  }
}
