/**
 * The VM: a clox-style stack machine running a Module's bytecode on fibers.
 * This file is its public face — loading a module, casting spells, calling
 * functions, fast loops, resuming and cancelling fibers — and the fibers'
 * bookkeeping. Cast loops run in vm/cast-loops.ts, which reaches the VM
 * through VM.LoopView. The instructions themselves are defined in vm/instructions/
 * and run by the interpreter generated from them (vm/generated/interpreter.ts,
 * written by vm/generator/).
 *
 * Speed rules (see bench/): code in an Int32Array; ip, base, sp, code, fuel
 * held in the interpreter's locals; frames in preallocated parallel arrays on
 * the fiber; globals resolved to slot indices; nothing allocated per
 * instruction or per call. Starting a run allocates nothing either: a fiber's
 * stack and frames are lent by the VM's FiberStoragePool (vm/fiber-pool.ts)
 * and go back when it ends, and callFast / castFast reuse fiber objects too.
 * Fuel is counted at loop back-edges and calls only, so an infinite budget
 * costs a subtraction and a compare per back-edge.
 *
 * Errors inside the loop are thrown as a light `Fault` and turned into a
 * SpellRuntimeError (with the call stack) in one catch at the bottom; the
 * failing fiber ends and the VM stays usable.
 */

import { DEFAULT_BUDGETS, budgetMessage, resolveBudgets, type Budgets, type RunKind } from './budgets.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import { quoted } from './bounded-text.js';
import { SpellRuntimeError, VerifyError, type BudgetLimit } from './errors.js';
import { Fiber, enterFrameZero } from './fiber.js';
import type { FastLoop } from './fast-loop.js';
import { CastLoopRunner, type CastLoopVM } from './cast-loops.js';
import { FiberStoragePool } from './fiber-pool.js';
import { type HostFunction } from './host.js';
import { VmHostContext } from './host-context.js';
import type { FunctionProto, Module } from './module.js';
import { ObjClosure, ObjFunction, ObjHostFunction } from './objects.js';
import { OPCODES, Op, instructionSize } from './opcodes.js';
import { nameArgumentProblem } from './name-argument.js';
import { RunOutcome } from './run-outcome.js';
import { VmRunState } from './vm-run-state.js';
import type { Tier, VMOptions } from './vm-options.js';
import { measureRestored } from './retained-heap.js';
import type { Value, VmObject } from './value.js';
import { interpret } from './generated/interpreter.js';
import type { BreakHandler, InterpreterVM } from './interpreter/interpreter-vm.js';
import { closeUpvalues } from './interpreter/upvalues.js';
import { UNDEFINED, flatConstants } from './interpreter/value-ops.js';
import { FunctionCompiler, canCompile, compiledDepthOf, type CompiledFunction } from './compiled/compile.js';
import { MAX_COMPILE_WORDS, compileWordsFor, fuelBeforeCompiling } from './compiled/statuses.js';

export type { Budgets } from './budgets.js';
export type { Tier, VMOptions } from './vm-options.js';
export { DEFAULT_BUDGETS } from './budgets.js';
export { Fiber } from './fiber.js';
export { RunOutcome } from './run-outcome.js';
export { FastLoop } from './fast-loop.js';

/** See VM.snapshotAccess. */
export interface VmSnapshotAccess {
  readonly globals: Value[];
  readonly defaults: Budgets;
  readonly undefinedValue: VmObject;
  readonly functions: readonly ObjFunction[];
  readonly hostImports: readonly ObjHostFunction[];
  trampoline(argc: number): ObjClosure;
  liveFibers(): number;
  adopt(fiber: Fiber): void;
  /** The globals came from a snapshot: the top-level script must not run again over them. */
  globalsRestored(): void;
}

export type { BreakHandler } from './interpreter/interpreter-vm.js';

export class VM {
  /**
   * What the interpreter reads of a VM. One class for every VM, so the calls
   * the interpreter makes through it (finish, at the end of every run) have
   * one target: closures made per VM deoptimized it each time a second VM ran.
   */
  private static readonly View = class implements InterpreterVM {
    readonly constants: readonly (number | string)[];
    readonly globals: Value[];
    readonly globalNames: readonly string[];
    readonly functions: readonly ObjFunction[];
    readonly hostImports: readonly ObjHostFunction[];
    readonly ctx: VmHostContext;
    readonly printFn: (text: string) => void;

    constructor(private readonly owner: VM) {
      this.constants = owner.constants;
      this.globals = owner.globals;
      this.globalNames = owner.module.globals;
      this.functions = owner.functions;
      this.hostImports = owner.hostImports;
      this.ctx = owner.ctx;
      this.printFn = owner.printFn;
    }

    /** The debugger sets and clears the VM's breakHandler while attached. */
    get breakHandler(): BreakHandler | null {
      return this.owner.handler;
    }

    tierUp(fn: ObjFunction): boolean {
      return this.owner.tierUp(fn);
    }

    loopCode(fn: ObjFunction, header: number): CompiledFunction | null {
      return this.owner.loopCode(fn, header);
    }

    finish(fiber: Fiber, state: 'done' | 'failed'): void {
      this.owner.finish(fiber, state);
    }
  };

  readonly module: Module;
  /** Global values by slot (UNDEFINED until defined). */
  private readonly globals: Value[];
  private readonly functions: ObjFunction[];
  private readonly constants: readonly (number | string)[];
  /** Bound host functions, by host import index. */
  private readonly hostImports: ObjHostFunction[];
  private readonly defaults: Budgets;
  private readonly printFn: (text: string) => void;
  private readonly ctx = new VmHostContext();
  private readonly globalSlots = new Map<string, number>();
  private readonly spellIndex = new Map<string, number>();
  /** CALL argc; RETURN — how the VM enters any callable with arguments on a fresh fiber. */
  private readonly trampolines: ObjClosure[] = [];
  /** The closure each spell is cast through, by function index (spells capture nothing, so one serves every cast). */
  private readonly spellClosures: (ObjClosure | undefined)[] = [];
  /** Stacks and frame arrays lent to running fibers, and spare fiber objects for the fast runs. */
  private readonly storage = new FiberStoragePool();
  /** What the last callFast / castFast reported (reused). */
  private readonly outcome = new RunOutcome();
  private lastFastSpell: string | null = null;
  private lastFastClosure: ObjClosure | null = null;
  /** The fiber count and the break handler, which the cast-loop runner reads and changes too (vm/vm-run-state.ts). */
  private readonly runState = new VmRunState();
  private scriptRan = false;
  private readonly tier: Tier;
  private readonly compiler: FunctionCompiler;
  /** Every fiber's `retainedRoots`: the globals when the heap budget counts what is retained, else null. */
  private readonly retainedRoots: readonly Value[] | null;
  /** What the interpreter reads of this VM. */
  private readonly interpreterView: InterpreterVM;

  constructor(module: Module, options: VMOptions = {}) {
    this.module = module;
    this.constants = flatConstants(module.constants);
    this.defaults = resolveBudgets(DEFAULT_BUDGETS, options);
    this.printFn = options.print ?? ((text) => console.log(text));
    this.functions = module.functions.map((proto, i) => new ObjFunction(proto, i, countInstructions(proto)));
    this.globals = new Array<Value>(module.globals.length).fill(UNDEFINED);
    module.globals.forEach((name, slot) => {
      if (!this.globalSlots.has(name)) this.globalSlots.set(name, slot);
    });
    for (const spell of module.spells) this.spellIndex.set(spell.name, spell.functionIndex);
    this.hostImports = bindHostImports(module, options.hosts ?? CORE_HOST_FUNCTIONS);
    this.retainedRoots = options.heapCounts === 'retained' ? this.globals : null;
    this.interpreterView = new VM.View(this);
    this.tier = options.tier ?? 'auto';
    // One compile is bounded in words (vm/compiled/statuses.ts); on tier auto also by what a slice of the VM's
    // fuel may cost, since a compile is one stall of the call that asks for it (tier compiled compiles up front).
    this.compiler = new FunctionCompiler(module, this.tier === 'compiled' ? MAX_COMPILE_WORDS : compileWordsFor(this.defaults.fuel));
    if (this.tier === 'compiled') this.compileAll();
    else if (this.tier === 'auto') this.markRemembered();
  }

  /**
   * Functions whose code the process compiled before, in another VM: they are compiled (from the
   * remembered source and function: compileRemembered) at their first call or loop back edge
   * rather than after paying for a compile in fuel on the interpreter. Fuel, results and every
   * budget are the same on either tier; only where the tiers switch moves.
   */
  private readonly remembered = new Set<ObjFunction>();

  /** Functions a loop of which the process compiled alone before, in another VM (markRemembered, loopCode). */
  private readonly rememberedLoops = new Set<ObjFunction>();

  private markRemembered(): void {
    for (const fn of this.functions) {
      const before = this.compiler.compiledBefore(fn);
      if (before === 'whole') {
        this.remembered.add(fn);
        fn.untilCompiled = 0; // the next count (a call, a sampled back edge) asks tierUp
      } else if (before === 'loop') {
        // Only a loop was compiled (a script's top level, a function called once: compileLoop): its first sampled
        // back edge asks for that loop's code (the source and function the process holds) where it waited for
        // ~900 iterations on the interpreter; its first call (or two) still does not compile the whole function.
        // Only what the process holds is taken then (loopCode): a spell gets no compile it did not pay for.
        this.rememberedLoops.add(fn);
        fn.untilCompiled = Math.min(fn.untilCompiled, 2 * fn.callFuel + 1);
      }
    }
  }

  /**
   * What the embedder runs this VM's fibers for, handed to every host call
   * as `HostContext.cast` (a World sets its cast here around each run and
   * puts the one before back after, so runs may nest). The VM only carries it.
   */
  get hostCast(): unknown {
    return this.ctx.cast;
  }

  set hostCast(cast: unknown) {
    this.ctx.cast = cast;
  }

  /** Set by the debugger while attached; BREAK opcodes only exist in code while it is, and every function runs on the interpreter. */
  get breakHandler(): BreakHandler | null {
    return this.handler;
  }

  set breakHandler(handler: BreakHandler | null) {
    this.handler = handler;
    if (handler !== null) {
      this.compiler.forgetLoops();
      this.remembered.clear();
      this.rememberedLoops.clear();
      for (const fn of this.functions) {
        fn.compiled = null;
        fn.compiledDepth = 0;
        fn.loopEntry = null;
        fn.untilCompiled = fuelBeforeCompiling(fn.original.length);
      }
    } else if (this.tier === 'compiled') this.compileAll();
  }

  /** Which tier this VM runs on: `'interpreter'` where the environment forbids compiling code. */
  get runningTier(): Tier {
    return this.tier !== 'interpreter' && canCompile() ? this.tier : 'interpreter';
  }

  /**
   * Time spent compiling (ms), bytecode words and characters of source compiled, functions compiled
   * whole, and compiles refused by the bounds of what a compile may take (vm/compiled/statuses.ts), so far.
   */
  get compileStats(): { readonly ms: number; readonly words: number; readonly functions: number; readonly chars: number; readonly refused: number } {
    return {
      ms: this.compiler.compileMs,
      words: this.compiler.compiledWords,
      functions: this.functions.filter((f) => f.compiled !== null).length,
      chars: this.compiler.compiledChars,
      refused: this.compiler.refusalCount,
    };
  }

  /** Why compiles were refused (the first 100): a function or loop too large to compile, or the VM's compiled code at its limit. */
  get compileRefusals(): readonly string[] {
    return this.compiler.refusals;
  }

  /** `fn` is hot (or called from compiled code): compile it, unless this VM stays on the interpreter. */
  private tierUp(fn: ObjFunction): boolean {
    if (fn.compiled !== null) return true;
    if (this.tier === 'interpreter' || this.handler !== null) {
      fn.untilCompiled = this.handler !== null ? fuelBeforeCompiling(fn.original.length) : Infinity;
      return false;
    }
    let compiled: CompiledFunction | null = null;
    if (this.remembered.delete(fn)) {
      try {
        compiled = this.compiler.compileRemembered(fn);
      } catch {
        // compile() below reports it, once the function has paid for it.
      }
      if (compiled === null) {
        // Not remembered after all (another code with the same hash, or dropped from the caches): count as usual.
        fn.untilCompiled = fuelBeforeCompiling(fn.original.length);
        return false;
      }
    }
    try {
      compiled ??= this.compiler.compile(fn);
    } catch (error) {
      this.compileFailures.push(`${fn.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (compiled === null) {
      // Past a bound of what a compile may take (vm/compiled/statuses.ts): whole, it stays on the interpreter,
      // and its fuel counts again, so that its loops may still be compiled alone (each within the bound).
      fn.untilCompiled = this.compiler.lastRefused ? fuelBeforeCompiling(fn.original.length) : Infinity;
      return false;
    }
    fn.compiled = compiled;
    fn.compiledDepth = compiledDepthOf(compiled);
    // Below zero for good: the interpreter's one test at a call or back edge ("hot now, or compiled") holds.
    fn.untilCompiled = Number.NEGATIVE_INFINITY;
    return true;
  }

  /** A hot loop of `fn`, which runs on the interpreter: its compiled code (vm/compiled/compile.ts), or the whole function's. */
  private loopCode(fn: ObjFunction, header: number): CompiledFunction | null {
    // A function compiled whole before, in another VM, is entered whole at the loop's header.
    if (this.remembered.has(fn)) return this.tierUp(fn) ? fn.compiled : null;
    if (fn.compiled === null && this.tier !== 'interpreter' && this.handler === null) {
      let loop: CompiledFunction | null = null;
      const remembered = this.rememberedLoops.delete(fn);
      try {
        loop = this.compiler.compileLoop(fn, header, remembered);
      } catch {
        // tierUp reports why (compileFailures).
      }
      if (loop !== null) return loop;
      if (remembered) {
        // Not held after all (another loop's header, another code with the same hash, dropped from the caches): count as usual.
        fn.untilCompiled = fuelBeforeCompiling(fn.original.length);
        return null;
      }
    }
    return this.tierUp(fn) ? fn.compiled : null;
  }

  private compileAll(): void {
    for (const fn of this.functions) this.tierUp(fn);
  }

  /** Functions the compiled tier could not compile, and why (a bug if ever non-empty: they stay on the interpreter). */
  readonly compileFailures: string[] = [];

  /** The ObjFunctions the interpreter runs (the debugger patches their `code`). */
  get runtimeFunctions(): readonly ObjFunction[] {
    return this.functions;
  }

  spellNames(): string[] {
    return this.module.spells.map((s) => s.name);
  }

  /** The current value of a global, or undefined if it was never defined. */
  getGlobal(name: string): Value | undefined {
    const slot = this.globalSlots.get(name);
    if (slot === undefined) return undefined;
    const v = this.globals[slot]!;
    return v === UNDEFINED ? undefined : v;
  }

  /** The pool of fiber storage (for tests and tools: `isClean()`, `pooled`). */
  get fiberStorage(): FiberStoragePool {
    return this.storage;
  }

  /** Fibers alive (running, suspended or paused). */
  get liveFiberCount(): number {
    return this.liveFibers;
  }

  /** Fibers alive (running, suspended or paused): kept in runState. */
  private get liveFibers(): number {
    return this.runState.liveFibers;
  }

  private set liveFibers(count: number) {
    this.runState.liveFibers = count;
  }

  /** Set by the debugger while attached; BREAK opcodes only exist in code while it is: kept in runState. */
  private get handler(): BreakHandler | null {
    return this.runState.breakHandler;
  }

  private set handler(handler: BreakHandler | null) {
    this.runState.breakHandler = handler;
  }

  /** Run the top-level script (defining the globals). */
  runScript(budgets?: Partial<Budgets>): Fiber {
    this.scriptRan = true;
    const script = this.functions[0];
    if (script === undefined) return this.failedFiber('The module has no script.', null, budgets);
    return this.start(new ObjClosure(script, []), [], budgets, null, 'script');
  }

  /** Cast a spell on a new fiber; runs until it is done, suspended, paused or failed. Runs the script first if it never ran. */
  cast(spell: string, args: readonly Value[], budgets?: Partial<Budgets>): Fiber {
    const badName = nameArgumentProblem('spell name', spell);
    if (badName !== null) return this.failedFiber(badName, null, budgets);
    const index = this.spellIndex.get(spell);
    const fn = index === undefined ? undefined : this.functions[index];
    if (fn === undefined) return this.failedFiber(`Undefined spell ${quoted(spell)}.`, spell, budgets);
    if (fn.proto.upvalues.length > 0) return this.failedFiber(`Spell ${quoted(spell)} cannot be cast.`, spell, budgets);
    const before = this.ensureScript();
    if (before) return before;
    return this.start(this.spellClosure(fn), args, budgets, spell, 'cast');
  }

  /** Call the function (or class, or any callable) held by a global. Runs the script first if it never ran. */
  call(fnGlobalName: string, args: readonly Value[], budgets?: Partial<Budgets>): Fiber {
    const before = this.ensureScript();
    if (before) return before;
    const badName = nameArgumentProblem('global name', fnGlobalName);
    if (badName !== null) return this.failedFiber(badName, null, budgets);
    const callee = this.getGlobal(fnGlobalName);
    if (callee === undefined) return this.failedFiber(`Undefined variable ${quoted(fnGlobalName)}.`, null, budgets);
    return this.start(callee, args, budgets, null, 'call');
  }

  /**
   * `call` for hot paths (a host calling a function per entity per frame): a
   * run that finishes leaves no Fiber — its stack came from the VM's pool and
   * went back — and reports in the VM's one reused RunOutcome (read it before
   * the next fast run). A run that suspends or pauses hands over its fiber in
   * `outcome.fiber`, to resume as any other.
   */
  callFast(fnGlobalName: string, args: readonly Value[], budgets?: Partial<Budgets>): RunOutcome {
    if (!this.scriptRan) {
      const before = this.ensureScript();
      if (before) return this.report(before, false);
    }
    const badName = nameArgumentProblem('global name', fnGlobalName);
    if (badName !== null) return this.reportFailure(badName, null, null);
    const callee = this.getGlobal(fnGlobalName);
    if (callee === undefined) return this.reportFailure(`Undefined variable ${quoted(fnGlobalName)}.`, null, null);
    return this.startFast(callee, args, budgets, null, 'call');
  }

  /** `cast` for hot paths (tick spells): reports as `callFast` does. */
  castFast(spell: string, args: readonly Value[], budgets?: Partial<Budgets>): RunOutcome {
    // A world casts the same tick spell for every entity: remember the last one looked up.
    // (The closure test: before any fast cast, lastFastSpell is null, and so may be a JS caller's name.)
    if (spell !== this.lastFastSpell || this.lastFastClosure === null) {
      const badName = nameArgumentProblem('spell name', spell);
      if (badName !== null) return this.reportFailure(badName, null, null);
      const index = this.spellIndex.get(spell);
      const fn = index === undefined ? undefined : this.functions[index];
      if (fn === undefined) return this.reportFailure(`Undefined spell ${quoted(spell)}.`, spell, null);
      if (fn.proto.upvalues.length > 0) return this.reportFailure(`Spell ${quoted(spell)} cannot be cast.`, spell, null);
      this.lastFastSpell = spell;
      this.lastFastClosure = this.spellClosure(fn);
    }
    if (!this.scriptRan) {
      const before = this.ensureScript();
      if (before) return this.report(before, false);
    }
    return this.startFast(this.lastFastClosure!, args, budgets, spell, 'cast');
  }

  /**
   * A loop that casts `spell` again and again (vm/fast-loop.ts): for a host
   * that casts one spell for many entities in a row, each run cheaper than a
   * `castFast`. Runs report as `castFast` does; `close()` the loop when the
   * batch is over (its stack is cleared then, not after every cast).
   */
  castLoop(spell: string, budgets?: Partial<Budgets>): FastLoop {
    const index = this.spellIndex.get(spell);
    const fn = index === undefined ? undefined : this.functions[index];
    return this.castLoops().open(spell, fn, budgets);
  }

  /** The runner of this VM's cast loops (vm/cast-loops.ts), made at the first castLoop (once every field it reads is set). */
  private castLoops(): CastLoopRunner {
    return (this.loopRunner ??= new CastLoopRunner(new VM.LoopView(this)));
  }

  private loopRunner: CastLoopRunner | null = null;

  /**
   * What the cast-loop runner reads and changes of a VM (vm/cast-loops.ts).
   * One class for every VM, as View is: the runner's reads through it then
   * have one shape however many VMs a game runs. What every run reads and
   * changes (the fiber count, the break handler) is not read through it but
   * in runState, which the runner holds itself.
   */
  private static readonly LoopView = class implements CastLoopVM {
    readonly runState: VmRunState;
    readonly storage: FiberStoragePool;
    readonly interpreter: InterpreterVM;
    readonly outcome: RunOutcome;
    readonly defaults: Budgets;
    readonly retainedRoots: readonly Value[] | null;
    readonly compiler: FunctionCompiler;
    readonly compileFailures: string[];

    constructor(private readonly owner: VM) {
      this.runState = owner.runState;
      this.storage = owner.storage;
      this.interpreter = owner.interpreterView;
      this.outcome = owner.outcome;
      this.defaults = owner.defaults;
      this.retainedRoots = owner.retainedRoots;
      this.compiler = owner.compiler;
      this.compileFailures = owner.compileFailures;
    }

    ensureScript(): Fiber | null {
      return this.owner.ensureScript();
    }

    castFast(spell: string, args: readonly Value[], budgets?: Partial<Budgets>): RunOutcome {
      return this.owner.castFast(spell, args, budgets);
    }

    report(fiber: Fiber, recycle: boolean): RunOutcome {
      return this.owner.report(fiber, recycle);
    }

    trampoline(argc: number): ObjClosure {
      return this.owner.trampoline(argc);
    }

    spellClosure(fn: ObjFunction): ObjClosure {
      return this.owner.spellClosure(fn);
    }
  };

  /**
   * Continue a suspended fiber; `value` becomes the result of the host call
   * that suspended it. A new slice: the fiber's fuel and output budgets are
   * whole again, and its heap count starts from what it kept across the wait.
   */
  resume(fiber: Fiber, value: Value = null): Fiber {
    if (fiber.state !== 'suspended') return fiber;
    fiber.fuel = fiber.budgets.fuel;
    fiber.heapUsed = fiber.retained;
    fiber.outputUsed = 0;
    fiber.stack[fiber.sp++] = value === undefined ? null : value;
    return this.run(fiber);
  }

  /** Continue a fiber paused by the debugger (vm/debugger.ts sets the stepping mode first). */
  continuePaused(fiber: Fiber): Fiber {
    if (fiber.state !== 'paused') return fiber;
    fiber.debugSkipBreak = true;
    return this.run(fiber);
  }

  /** End a suspended or paused fiber (e.g. its caster despawned; `limit` when a budget ended it). */
  cancel(fiber: Fiber, message = 'Cast cancelled.', limit: BudgetLimit | null = null): void {
    if (fiber.state !== 'suspended' && fiber.state !== 'paused') return;
    const trace = fiber.trace(fiber.frameIps[fiber.frameCount - 1] ?? 0);
    this.finish(fiber, 'failed');
    fiber.error = new SpellRuntimeError(message, trace, limit, fiber.spell);
  }

  /**
   * What vm/fiber-snapshot.ts reads and writes to save and restore suspended
   * fibers with the heap: the globals (live), functions, host imports, entry
   * trampolines, and adopting a rebuilt fiber as live. Not for other use.
   */
  snapshotAccess(): VmSnapshotAccess {
    return {
      globals: this.globals,
      defaults: this.defaults,
      undefinedValue: UNDEFINED,
      functions: this.functions,
      hostImports: this.hostImports,
      trampoline: (argc) => this.trampoline(argc),
      liveFibers: () => this.liveFibers,
      adopt: (fiber) => {
        // What it keeps is measured from the restored heap (the host restoring pays, not the cast); a saved count is a floor.
        fiber.retained = Math.max(fiber.retained, measureRestored(fiber));
        fiber.live = true;
        this.liveFibers++;
        this.scriptRan = true;
      },
      globalsRestored: () => {
        this.scriptRan = true;
      },
    };
  }

  // ---------------------------------------------------------------- starting fibers

  private ensureScript(): Fiber | null {
    if (this.scriptRan) return null;
    const script = this.runScript();
    return script.state === 'failed' ? script : null;
  }

  private start(
    callee: Value,
    args: readonly Value[],
    overrides: Partial<Budgets> | undefined,
    spell: string | null,
    runKind: RunKind,
  ): Fiber {
    const budgets = overrides ? resolveBudgets(this.defaults, overrides) : this.defaults;
    if (this.liveFibers >= budgets.maxFibers) {
      return this.failedFiber(budgetMessage('fibers', budgets, runKind), spell, overrides, 'fibers');
    }
    return this.launch(new Fiber(budgets, spell, runKind), callee, args);
  }

  /** `start` for the fast runs: a pooled fiber object, reported in the outcome and recycled once it finishes. */
  private startFast(
    callee: Value,
    args: readonly Value[],
    overrides: Partial<Budgets> | undefined,
    spell: string | null,
    runKind: RunKind,
  ): RunOutcome {
    const budgets = overrides ? resolveBudgets(this.defaults, overrides) : this.defaults;
    if (this.liveFibers >= budgets.maxFibers) return this.reportFailure(budgetMessage('fibers', budgets, runKind), spell, 'fibers');
    // With a debugger attached, fibers are keys of its per-fiber state: never reuse one there.
    const pooled = this.breakHandler === null;
    const fiber = pooled ? this.storage.fiber(budgets, spell, runKind) : new Fiber(budgets, spell, runKind);
    this.launch(fiber, callee, args);
    return this.report(fiber, pooled && this.breakHandler === null);
  }

  /** Copy how `fiber` ended into the outcome; a finished fiber goes back to the pool when `recycle`. */
  private report(fiber: Fiber, recycle: boolean): RunOutcome {
    const out = this.outcome;
    const state = fiber.state;
    out.state = state === 'running' ? 'failed' : state;
    out.result = fiber.result;
    out.error = fiber.error;
    if (state === 'suspended' || state === 'paused') {
      out.fiber = fiber;
      this.storage.handOver(fiber);
    } else {
      out.fiber = null;
      if (recycle) this.storage.recycle(fiber);
    }
    return out;
  }

  private reportFailure(message: string, spell: string | null, limit: BudgetLimit | null): RunOutcome {
    const out = this.outcome;
    out.state = 'failed';
    out.result = null;
    out.error = new SpellRuntimeError(message, [], limit, spell);
    out.fiber = null;
    return out;
  }

  /** Count the fiber live, give it storage, put the trampoline, callee and arguments on its stack, and run it. */
  private launch(fiber: Fiber, callee: Value, args: readonly Value[]): Fiber {
    this.liveFibers++;
    fiber.retainedRoots = this.retainedRoots;
    const argc = args.length;
    const trampoline = this.trampoline(argc);
    this.storage.lend(fiber, argc + 2 + trampoline.fn.maxStack);
    const stack = fiber.stack;
    stack[0] = trampoline;
    stack[1] = callee;
    for (let i = 0; i < argc; i++) stack[2 + i] = args[i] === undefined ? null : args[i]!;
    enterFrameZero(fiber, trampoline, 2 + argc);
    return this.run(fiber);
  }

  private spellClosure(fn: ObjFunction): ObjClosure {
    let closure = this.spellClosures[fn.index];
    if (closure === undefined) {
      closure = new ObjClosure(fn, []);
      this.spellClosures[fn.index] = closure;
    }
    return closure;
  }

  private trampoline(argc: number): ObjClosure {
    let closure = this.trampolines[argc];
    if (closure === undefined) {
      const proto: FunctionProto = {
        name: '',
        kind: 'function',
        arity: argc,
        upvalues: [],
        code: Int32Array.of(Op.CALL, argc, Op.RETURN),
        lines: new Int32Array(3),
        maxStack: argc + 2,
        locals: [],
      };
      closure = new ObjClosure(new ObjFunction(proto, -1, 0), []);
      this.trampolines[argc] = closure;
    }
    return closure;
  }

  private failedFiber(message: string, spell: string | null, overrides?: Partial<Budgets>, limit: BudgetLimit | null = null): Fiber {
    const fiber = new Fiber(overrides ? resolveBudgets(this.defaults, overrides) : this.defaults, spell);
    fiber.live = false;
    fiber.state = 'failed';
    fiber.error = new SpellRuntimeError(message, [], limit, spell);
    fiber.release();
    return fiber;
  }

  private finish(fiber: Fiber, state: 'done' | 'failed'): void {
    fiber.state = state;
    if (fiber.live) {
      fiber.live = false;
      this.liveFibers--;
    }
    if (fiber.openUpvalues !== null) closeUpvalues(fiber, 0);
    if (fiber.loopOwned) {
      // A FastLoop's fiber between runs (what reclaim does for it, without the call): its storage stays with it.
      fiber.frameCount = 0;
      fiber.sp = 0;
    } else {
      this.storage.reclaim(fiber);
    }
  }

  /** Run `fiber` from its saved state until it is done, suspended, paused or failed (vm/generated/interpreter.ts). */
  private run(fiber: Fiber): Fiber {
    return interpret(this.interpreterView, fiber);
  }
}

// -------------------------------------------------------------------- helpers

function countInstructions(proto: FunctionProto): number {
  let count = 0;
  const code = proto.code;
  for (let ip = 0; ip < code.length; count++) {
    const op = code[ip]!;
    ip += op >= 0 && op < OPCODES.length ? instructionSize(op) : 1;
  }
  return Math.max(1, count);
}

/** Bind each host import by name to the host table; a missing name or an arity the host does not accept is a VerifyError. */
function bindHostImports(module: Module, hosts: readonly HostFunction[]): ObjHostFunction[] {
  const byName = new Map<string, HostFunction>();
  for (const h of hosts) if (!byName.has(h.name)) byName.set(h.name, h);
  return module.hostImports.map((imp) => {
    const host = byName.get(imp.name);
    if (host === undefined) throw new VerifyError(`Host function '${imp.name}' is not provided by this host.`);
    const bound = new ObjHostFunction(host);
    for (const arity of imp.arities) {
      if (arity < bound.minArity || arity > bound.maxArity) {
        throw new VerifyError(
          `Host function '${imp.name}' takes ${arityRange(bound)} arguments but the module calls it with ${arity}.`,
        );
      }
    }
    return bound;
  });
}

function arityRange(host: ObjHostFunction): string {
  return host.minArity === host.maxArity ? `${host.maxArity}` : `${host.minArity} to ${host.maxArity}`;
}
