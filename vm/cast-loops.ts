/**
 * How a VM runs its cast loops (vm/fast-loop.ts): CastLoopRunner is the
 * LoopRunner every FastLoop of one VM calls, and runs the loop's spell on the
 * loop's own fiber. It reaches the VM only through CastLoopVM, what it needs
 * of it (the VM builds one view of itself: vm/vm.ts, VM.LoopView).
 *
 * A loop's fiber is a spare fiber object of the VM's pool, entered without
 * the entry trampoline (frame 0 is the spell itself); between the runs of a
 * batch (a world's tick phase: FastLoop.runPairInBatch) it may be held open,
 * and a compiled spell entered through its loop entry (runHeldPair). Every
 * road a loop cannot take goes through the VM's `castFast`.
 */

import { resolveBudgets, type Budgets } from './budgets.js';
import { type Fiber, enterFrameZero } from './fiber.js';
import { FastLoop, type LoopRunner } from './fast-loop.js';
import type { FiberStoragePool } from './fiber-pool.js';
import type { ObjClosure, ObjFunction } from './objects.js';
import type { RunOutcome } from './run-outcome.js';
import type { Value } from './value.js';
import type { VmRunState } from './vm-run-state.js';
import { interpret } from './generated/interpreter.js';
import type { InterpreterVM } from './interpreter/interpreter-vm.js';
import type { FunctionCompiler, LoopEntry } from './compiled/compile.js';
import { runCompiledFromStart, runLoopEntry } from './compiled/run-compiled.js';

/** What a CastLoopRunner reads and changes of the VM it runs for (vm/vm.ts builds it once per VM). */
export interface CastLoopVM {
  /**
   * The fibers alive (a loop's fiber counts while it runs) and the break
   * handler (set by the debugger while attached: every loop run then takes
   * castFast's road), which the VM changes too.
   */
  readonly runState: VmRunState;
  /** Stacks and frame arrays lent to running fibers, and spare fiber objects: a loop's fiber is one of them. */
  readonly storage: FiberStoragePool;
  /** What the interpreter (and compiled code) reads of the VM: a loop's fiber runs on it. */
  readonly interpreter: InterpreterVM;
  /** The VM's one reused RunOutcome, which loop runs report in as castFast does. */
  readonly outcome: RunOutcome;
  /** The VM's budgets, which a loop's overrides change. */
  readonly defaults: Budgets;
  /** Every fiber's `retainedRoots`: the globals when the heap budget counts what is retained, else null. */
  readonly retainedRoots: readonly Value[] | null;
  /** Compiles a compiled spell's loop entry. */
  readonly compiler: FunctionCompiler;
  /** Functions the compiled tier could not compile, and why (VM.compileFailures). */
  readonly compileFailures: string[];
  /** Run the top-level script if it never ran: its fiber if that failed, else null. */
  ensureScript(): Fiber | null;
  /** VM.castFast: the general road of a loop run. */
  castFast(spell: string, args: readonly Value[], budgets?: Partial<Budgets>): RunOutcome;
  /** Copy how `fiber` ended into the outcome; a finished fiber goes back to the pool when `recycle`. */
  report(fiber: Fiber, recycle: boolean): RunOutcome;
  /** The entry trampoline for `argc` arguments (CALL argc; RETURN). */
  trampoline(argc: number): ObjClosure;
  /** The closure `fn`, a spell, is cast through. */
  spellClosure(fn: ObjFunction): ObjClosure;
}

/**
 * How FastLoop runs reach a VM (one per VM, made once). One class for
 * every VM, as VM.View is: a loop's calls into it then have one target
 * however many VMs a game runs (closures made per VM would make each such
 * call site polymorphic, then megamorphic).
 */
export class CastLoopRunner implements LoopRunner {
  // What every run reads, held here (one load away, on the object the runs' code already reads): the VM's.
  private readonly runState: VmRunState;
  private readonly interpreter: InterpreterVM;
  private readonly outcome: RunOutcome;

  constructor(private readonly vm: CastLoopVM) {
    this.runState = vm.runState;
    this.interpreter = vm.interpreter;
    this.outcome = vm.outcome;
  }

  /**
   * A loop that casts `spell` (the function `fn`, undefined when the module
   * has no such spell) again and again: VM.castLoop.
   */
  open(spell: string, fn: ObjFunction | undefined, budgets?: Partial<Budgets>): FastLoop {
    // A spell that cannot be cast on a loop leaves it without a closure: every run takes castFast's road and fails as it says.
    const resolved = budgets ? resolveBudgets(this.vm.defaults, budgets) : this.vm.defaults;
    // Entered directly (see run): a spell whose first call the budgets refuse takes the general road, which says why.
    const enterable =
      fn !== undefined && fn.proto.upvalues.length === 0 && 1 + fn.proto.maxStack <= resolved.maxStack && fn.callFuel <= resolved.fuel && resolved.maxFrames >= 1;
    const closure = enterable ? this.vm.spellClosure(fn) : null;
    return new FastLoop(this, spell, closure, fn?.arity ?? 0, resolved, budgets);
  }

  /**
   * One run of a FastLoop, on the loop's own fiber (see vm/fast-loop.ts),
   * reported in the VM's outcome: `runUnlessDone`, and a finished run's
   * result copied out.
   */
  run(loop: FastLoop, args: readonly Value[]): RunOutcome {
    const ended = this.runUnlessDone(loop, args);
    if (ended !== null) return ended;
    // Finished on the loop's own fiber (a run that finished keeps it: see runUnlessDone).
    const fiber = loop.fiber!;
    const out = this.outcome;
    out.state = 'done';
    out.result = fiber.result;
    out.error = null;
    out.fiber = null;
    fiber.result = null;
    return out;
  }

  /**
   * One run of a FastLoop: null when it finished on the loop's own fiber
   * (its result left in `fiber.result`: FastLoop.runUnlessDone drops it,
   * run reports it), else the outcome, as `run` reports it. A phase
   * of casts whose results nobody reads (a world's tick phase) skips the
   * outcome of every cast that finishes. Kept small so V8 inlines it into
   * the host's loop: the first run, the general road and a cast that goes on
   * are handled out of line.
   *
   * The fiber is entered without the entry trampoline: frame 0 is the spell
   * itself (stack[0] its closure, then the arguments), so a run is one
   * RETURN shorter. A fiber handed over (it waits or paused) is first given
   * the trampoline frame every other fiber has (enterThroughTrampoline).
   * Fields a finished run leaves as the next one wants them (no heap or
   * output used, stack[0] the closure) are compared, not stored again: a
   * store of an object is a write barrier.
   */
  runUnlessDone(loop: FastLoop, args: readonly Value[]): RunOutcome | null {
    const fiber = loop.fiber;
    const argc = args.length;
    if (fiber === null || !this.loopCanContinue(loop, argc)) return this.runSlowly(loop, args);
    const stack = fiber.stack;
    for (let i = 0; i < argc; i++) stack[1 + i] = args[i] === undefined ? null : args[i]!;
    return this.runFiber(loop, fiber, argc);
  }

  /**
   * `runUnlessDone` with the two arguments passed as such (a tick
   * spell's `self, dt`): no argument array to fill, read and copy.
   */
  runPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
    const fiber = loop.fiber;
    if (fiber === null || !this.loopCanContinue(loop, 2)) return this.runSlowly(loop, [first, second]);
    const stack = fiber.stack;
    stack[1] = first === undefined ? null : first;
    stack[2] = second === undefined ? null : second;
    return this.runFiber(loop, fiber, 2);
  }

  /**
   * FastLoop.runPairInBatch: while the loop holds its fiber open (`holding`:
   * running and marked live, frame 0 in place, since the batch's last run
   * finished), a run resets what a finished run spent and enters the
   * spell's loop entry with its arguments; the checks made on every run
   * (loopCanContinue) are made here too. The VM counts the fiber among its
   * live fibers only while it runs, as for any run (a held fiber between
   * runs counts against no one's fiber budget, and liveFiberCount is what it
   * would be without batches). Any other case lets go of the fiber and takes
   * runPair's road, then holds the fiber again if that run finished.
   */
  runHeldPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
    const entry = loop.holding ? loop.closure!.fn.loopEntry : null;
    const state = this.runState;
    // Kept small, for V8 to inline into the host's loop: the other roads are out of line.
    if (entry === null || loop.busy || state.breakHandler !== null || state.liveFibers >= loop.maxFibers) return this.runHeldPairSlowly(loop, first, second);
    const fiber = loop.fiber!;
    fiber.fuel = loop.startFuel;
    if (fiber.heapUsed !== 0) fiber.heapUsed = 0;
    if (fiber.outputUsed !== 0) fiber.outputUsed = 0;
    fiber.sp = 3;
    state.liveFibers++;
    loop.busy = true;
    const ended = runLoopEntry(this.interpreter, fiber, loop.closure!, entry, first === undefined ? null : first, second === undefined ? null : second);
    loop.busy = false;
    if (ended !== null) return this.heldRunEnded(loop, ended);
    // Finished through the entry's return: uncounted again, still marked live for the next run.
    state.liveFibers--;
    return null;
  }

  /** runHeldPair when the held road is closed: the hold (if any, and not a nested run's: busy) let go, runPair's road, then the fiber held again if that run finished. */
  private runHeldPairSlowly(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
    // A nested run (busy) goes runPair's road, which sends it to castFast: the held fiber is the outer run's.
    if (loop.holding && !loop.busy) this.release(loop);
    const out = this.runPair(loop, first, second);
    if (out === null) {
      const fiber = loop.fiber!;
      if (fiber.result !== null) fiber.result = null;
      // A spell on the interpreter has no loop entry: no hold to try.
      if (loop.closure!.fn.compiled !== null) this.hold(loop);
    }
    return out;
  }

  /** A held run that did not end through its entry's return: the hold is over; a run the interpreter finished is held again. */
  private heldRunEnded(loop: FastLoop, fiber: Fiber): RunOutcome | null {
    loop.holding = false;
    if (fiber.state !== 'done') return this.loopOutcome(loop, fiber);
    if (fiber.result !== null) fiber.result = null;
    this.hold(loop);
    return null;
  }

  /**
   * Hold a loop's fiber open for the next runs of a batch (runHeldPair), when
   * the spell takes two arguments and has a loop entry (made now if the spell
   * is compiled): what runFiber and the interpreter set for a run, set once — the
   * fiber running and marked live (the VM counts it only while it runs),
   * frame 0 in place.
   */
  private hold(loop: FastLoop): void {
    const fiber = loop.fiber;
    if (fiber === null || loop.busy || loop.arity !== 2 || this.runState.breakHandler !== null) return;
    const closure = loop.closure!;
    if (closure.fn.loopEntry === null && !this.makeLoopEntry(closure.fn)) return;
    fiber.state = 'running';
    fiber.live = true;
    if (fiber.stack[0] !== closure) fiber.stack[0] = closure;
    fiber.frameIps[0] = 0;
    fiber.frameCount = 1;
    fiber.sp = 3;
    loop.holding = true;
  }

  /** Let go of a held loop's fiber (not during a run): what vm.finish leaves of a loop's fiber that finished (its RETURN closed its upvalues; no result kept; not counted live between runs). */
  release(loop: FastLoop): void {
    const fiber = loop.fiber!;
    loop.holding = false;
    fiber.state = 'done';
    fiber.live = false;
    fiber.frameCount = 0;
    fiber.sp = 0;
  }

  /** Make `fn`'s loop entry (vm/compiled/compile.ts, compileEntry) once it is compiled; false when it is not, or cannot be. */
  private makeLoopEntry(fn: ObjFunction): boolean {
    if (fn.compiled === null || this.noLoopEntry.has(fn)) return false;
    let entry: LoopEntry | null = null;
    try {
      entry = this.vm.compiler.compileEntry(fn);
    } catch (error) {
      this.vm.compileFailures.push(`${fn.name} (loop entry): ${error instanceof Error ? error.message : String(error)}`);
    }
    if (entry === null) {
      this.noLoopEntry.add(fn);
      return false;
    }
    fn.loopEntry = entry;
    return true;
  }

  /** Functions whose loop entry could not be made (not tried again). */
  private readonly noLoopEntry = new WeakSet<ObjFunction>();

  /** Whether a loop that has a fiber (and so a closure: runSlowly makes the fiber only then) can run on it now: loopCanEnter, written out. */
  private loopCanContinue(loop: FastLoop, argc: number): boolean {
    const state = this.runState;
    return !loop.busy && state.breakHandler === null && argc === loop.arity && state.liveFibers < loop.maxFibers;
  }

  /** Run the loop's fiber, its arguments in place (stack[1 ..= argc]): what a finished run changed is set again first. */
  private runFiber(loop: FastLoop, fiber: Fiber, argc: number): RunOutcome | null {
    const closure = loop.closure!;
    // What a finished run changed; the rest (spell, budgets, frame budget, storage) is the loop's.
    // (The interpreter sets the state to 'running' as it starts.)
    fiber.fuel = loop.startFuel;
    if (fiber.heapUsed !== 0) fiber.heapUsed = 0;
    if (fiber.outputUsed !== 0) fiber.outputUsed = 0;
    fiber.live = true;
    this.runState.liveFibers++;
    const stack = fiber.stack;
    if (stack[0] !== closure) stack[0] = closure;
    // Frame 0's closure and base are the loop's for as long as it owns the fiber (set when it was made: runSlowly).
    fiber.frameIps[0] = 0;
    fiber.frameCount = 1;
    fiber.sp = 1 + argc;
    // The interpreter catches whatever the spell throws: nothing escapes between these two lines.
    loop.busy = true;
    const ended = (closure.fn.compiled !== null ? runCompiledFromStart(this.interpreter, fiber, closure) : interpret(this.interpreter, fiber)).state;
    loop.busy = false;
    return ended === 'done' ? null : this.loopOutcome(loop, fiber);
  }

  /** run's first run (the loop's fiber is made) and its general road (castFast: see vm/fast-loop.ts). */
  private runSlowly(loop: FastLoop, args: readonly Value[]): RunOutcome {
    const vm = this.vm;
    const before = vm.ensureScript();
    if (before) return vm.report(before, false);
    if (!this.loopCanEnter(loop, args)) return vm.castFast(loop.spell, args, loop.overrides);
    // A spare fiber object of the pool (close gives it back): one made now would be young while the loop runs
    // (a World makes its loops anew every step), and every host call's store of the fiber into the (old) host
    // context took the write barrier's slow road.
    const fiber = vm.storage.fiber(loop.budgets, loop.spell, 'cast');
    fiber.poolOwned = false;
    // No trampoline frame: the spell's own frames are the budget.
    fiber.frameBudget = loop.budgets.maxFrames;
    fiber.loopOwned = true;
    fiber.retainedRoots = vm.retainedRoots;
    vm.storage.lend(fiber, 1 + loop.closure!.fn.maxStack);
    // Frame 0 is the spell, entered directly, for every run on this fiber (runFiber sets only what a run changes).
    enterFrameZero(fiber, loop.closure!, 0);
    loop.fiber = fiber;
    return this.run(loop, args);
  }

  /** Whether a loop run can take the short road (the script has run; see vm/fast-loop.ts for the rest). */
  private loopCanEnter(loop: FastLoop, args: readonly Value[]): boolean {
    return loop.closure !== null && this.loopCanContinue(loop, args.length);
  }

  /** How a loop run that did not finish ended: failed (the loop keeps its fiber), or waiting or paused (the cast takes it). */
  private loopOutcome(loop: FastLoop, fiber: Fiber): RunOutcome {
    const out = this.outcome;
    const state = fiber.state;
    out.result = fiber.result;
    out.error = fiber.error;
    if (state === 'suspended' || state === 'paused') {
      // The cast goes on with this fiber: it is the embedder's now, and the loop makes a new one next run.
      out.state = state;
      out.fiber = fiber;
      fiber.loopOwned = false;
      loop.fiber = null;
      enterThroughTrampoline(fiber, this.vm.trampoline(loop.arity));
    } else {
      out.state = 'failed';
      out.fiber = null;
      fiber.result = null;
      fiber.error = null;
    }
    return out;
  }

  /** FastLoop.close: the loop's fiber gives its storage back to the pool, cleared. */
  close(loop: FastLoop): void {
    const fiber = loop.fiber;
    if (fiber === null || loop.busy) return;
    loop.fiber = null;
    fiber.loopOwned = false;
    // Back to the pool as a spare fiber object (runSlowly took it from there), its storage cleared.
    fiber.poolOwned = true;
    this.vm.storage.reclaim(fiber);
    this.vm.storage.recycle(fiber);
  }
}

/**
 * Give a fiber a FastLoop entered directly (frame 0 the spell, stack[0] its
 * closure) the shape every other fiber has: the entry trampoline in frame 0
 * and stack slot 0, everything else one slot and one frame up — so resuming,
 * debugging and snapshots (vm/fiber-snapshot.ts) see one kind of fiber.
 */
function enterThroughTrampoline(fiber: Fiber, trampoline: ObjClosure): void {
  const sp = fiber.sp;
  fiber.growStack(sp + 1);
  const stack = fiber.stack;
  for (let i = sp; i > 0; i--) stack[i] = stack[i - 1]!;
  stack[0] = trampoline;
  fiber.sp = sp + 1;
  for (let u = fiber.openUpvalues; u !== null; u = u.next) u.index++;
  const fc = fiber.frameCount;
  fiber.growFrames(fc + 1);
  const { frameClosures, frameIps, frameBases } = fiber;
  for (let k = fc; k > 0; k--) {
    frameClosures[k] = frameClosures[k - 1]!;
    frameIps[k] = frameIps[k - 1]!;
    frameBases[k] = frameBases[k - 1]! + 1;
  }
  frameClosures[0] = trampoline;
  // Just after the trampoline's CALL: the spell returns into its RETURN.
  frameIps[0] = 2;
  frameBases[0] = 0;
  fiber.frameCount = fc + 1;
  fiber.frameBudget++;
}
