/**
 * The VM: a clox-style stack machine running a Module's bytecode on fibers.
 * This file is its public face — loading a module, casting spells, calling
 * functions, fast loops, resuming and cancelling fibers — and the fibers'
 * bookkeeping. The instructions themselves are defined in vm/instructions/
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
import { Fiber } from './fiber.js';
import { FastLoop, type LoopRunner } from './fast-loop.js';
import { FiberStoragePool } from './fiber-pool.js';
import { type HostFunction } from './host.js';
import { VmHostContext } from './host-context.js';
import type { FunctionProto, Module } from './module.js';
import { ObjClosure, ObjFunction, ObjHostFunction } from './objects.js';
import { OPCODES, Op, instructionSize } from './opcodes.js';
import { nameArgumentProblem } from './name-argument.js';
import { RunOutcome } from './run-outcome.js';
import type { Tier, VMOptions } from './vm-options.js';
import { measureRestored } from './retained-heap.js';
import type { Value, VmObject } from './value.js';
import { interpret } from './generated/interpreter.js';
import type { BreakHandler, InterpreterVM } from './interpreter/interpreter-vm.js';
import { closeUpvalues } from './interpreter/upvalues.js';
import { UNDEFINED, flatConstants } from './interpreter/value-ops.js';
import { FunctionCompiler, canCompile, type CompiledFunction, type LoopEntry } from './compiled/compile.js';
import { fuelBeforeCompiling } from './compiled/statuses.js';
import { runCompiledFromStart, runLoopEntry } from './compiled/run-compiled.js';

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
  private liveFibers = 0;
  private scriptRan = false;
  /** Set by the debugger while attached; BREAK opcodes only exist in code while it is. */
  private handler: BreakHandler | null = null;
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
    this.compiler = new FunctionCompiler(module);
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

  private markRemembered(): void {
    for (const fn of this.functions) {
      if (!this.compiler.wasCompiled(fn)) continue;
      this.remembered.add(fn);
      fn.untilCompiled = 0; // the next count (a call, a sampled back edge) asks tierUp
    }
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
      for (const fn of this.functions) {
        fn.compiled = null;
        fn.loopEntry = null;
        fn.untilCompiled = fuelBeforeCompiling(fn.original.length);
      }
    } else if (this.tier === 'compiled') this.compileAll();
  }

  /** Which tier this VM runs on: `'interpreter'` where the environment forbids compiling code. */
  get runningTier(): Tier {
    return this.tier !== 'interpreter' && canCompile() ? this.tier : 'interpreter';
  }

  /** Time spent compiling (ms) and bytecode words compiled, so far. */
  get compileStats(): { readonly ms: number; readonly words: number; readonly functions: number } {
    return { ms: this.compiler.compileMs, words: this.compiler.compiledWords, functions: this.functions.filter((f) => f.compiled !== null).length };
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
      fn.untilCompiled = Infinity;
      return false;
    }
    fn.compiled = compiled;
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
      try {
        loop = this.compiler.compileLoop(fn, header);
      } catch {
        // tierUp reports why (compileFailures).
      }
      if (loop !== null) return loop;
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
    // A spell that cannot be cast on a loop leaves it without a closure: every run takes castFast's road and fails as it says.
    const resolved = budgets ? resolveBudgets(this.defaults, budgets) : this.defaults;
    // Entered directly (see runLoop): a spell whose first call the budgets refuse takes the general road, which says why.
    const enterable =
      fn !== undefined && fn.proto.upvalues.length === 0 && 1 + fn.proto.maxStack <= resolved.maxStack && fn.callFuel <= resolved.fuel && resolved.maxFrames >= 1;
    const closure = enterable ? this.spellClosure(fn) : null;
    return new FastLoop(this.loopRunner, spell, closure, fn?.arity ?? 0, resolved, budgets);
  }

  /**
   * How FastLoop runs reach this VM (one per VM, made once). One class for
   * every VM, as View is: a loop's calls into it then have one target
   * however many VMs a game runs (closures made per VM would make each such
   * call site polymorphic, then megamorphic).
   */
  private static readonly Runner = class implements LoopRunner {
    constructor(private readonly owner: VM) {}

    run(loop: FastLoop, args: readonly Value[]): RunOutcome {
      return this.owner.runLoop(loop, args);
    }

    runUnlessDone(loop: FastLoop, args: readonly Value[]): RunOutcome | null {
      return this.owner.runLoopUnlessDone(loop, args);
    }

    runPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
      return this.owner.runLoopPair(loop, first, second);
    }

    runHeldPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
      return this.owner.runHeldPair(loop, first, second);
    }

    release(loop: FastLoop): void {
      this.owner.releaseLoop(loop);
    }

    close(loop: FastLoop): void {
      this.owner.closeLoop(loop);
    }
  };

  private readonly loopRunner: LoopRunner = new VM.Runner(this);

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

  /**
   * One run of a FastLoop, on the loop's own fiber (see vm/fast-loop.ts),
   * reported in the VM's outcome: `runLoopUnlessDone`, and a finished run's
   * result copied out.
   */
  private runLoop(loop: FastLoop, args: readonly Value[]): RunOutcome {
    const ended = this.runLoopUnlessDone(loop, args);
    if (ended !== null) return ended;
    // Finished on the loop's own fiber (a run that finished keeps it: see runLoopUnlessDone).
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
   * runLoop reports it), else the outcome, as `runLoop` reports it. A phase
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
  private runLoopUnlessDone(loop: FastLoop, args: readonly Value[]): RunOutcome | null {
    const fiber = loop.fiber;
    const argc = args.length;
    if (fiber === null || !this.loopCanContinue(loop, argc)) return this.runLoopSlowly(loop, args);
    const stack = fiber.stack;
    for (let i = 0; i < argc; i++) stack[1 + i] = args[i] === undefined ? null : args[i]!;
    return this.runLoopFiber(loop, fiber, argc);
  }

  /**
   * `runLoopUnlessDone` with the two arguments passed as such (a tick
   * spell's `self, dt`): no argument array to fill, read and copy.
   */
  private runLoopPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
    const fiber = loop.fiber;
    if (fiber === null || !this.loopCanContinue(loop, 2)) return this.runLoopSlowly(loop, [first, second]);
    const stack = fiber.stack;
    stack[1] = first === undefined ? null : first;
    stack[2] = second === undefined ? null : second;
    return this.runLoopFiber(loop, fiber, 2);
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
   * runLoopPair's road, then holds the fiber again if that run finished.
   */
  private runHeldPair(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
    const entry = loop.holding ? loop.closure!.fn.loopEntry : null;
    // Kept small, for V8 to inline into the host's loop: the other roads are out of line.
    if (entry === null || loop.busy || this.handler !== null || this.liveFibers >= loop.maxFibers) return this.runHeldPairSlowly(loop, first, second);
    const fiber = loop.fiber!;
    fiber.fuel = loop.startFuel;
    if (fiber.heapUsed !== 0) fiber.heapUsed = 0;
    if (fiber.outputUsed !== 0) fiber.outputUsed = 0;
    fiber.sp = 3;
    this.liveFibers++;
    loop.busy = true;
    const ended = runLoopEntry(this.interpreterView, fiber, loop.closure!, entry, first === undefined ? null : first, second === undefined ? null : second);
    loop.busy = false;
    if (ended !== null) return this.heldRunEnded(loop, ended);
    // Finished through the entry's return: uncounted again, still marked live for the next run.
    this.liveFibers--;
    return null;
  }

  /** runHeldPair when the held road is closed: the hold (if any, and not a nested run's: busy) let go, runLoopPair's road, then the fiber held again if that run finished. */
  private runHeldPairSlowly(loop: FastLoop, first: Value, second: Value): RunOutcome | null {
    // A nested run (busy) goes runLoopPair's road, which sends it to castFast: the held fiber is the outer run's.
    if (loop.holding && !loop.busy) this.releaseLoop(loop);
    const out = this.runLoopPair(loop, first, second);
    if (out === null) {
      const fiber = loop.fiber!;
      if (fiber.result !== null) fiber.result = null;
      // A spell on the interpreter has no loop entry: no hold to try.
      if (loop.closure!.fn.compiled !== null) this.holdLoop(loop);
    }
    return out;
  }

  /** A held run that did not end through its entry's return: the hold is over; a run the interpreter finished is held again. */
  private heldRunEnded(loop: FastLoop, fiber: Fiber): RunOutcome | null {
    loop.holding = false;
    if (fiber.state !== 'done') return this.loopOutcome(loop, fiber);
    if (fiber.result !== null) fiber.result = null;
    this.holdLoop(loop);
    return null;
  }

  /**
   * Hold a loop's fiber open for the next runs of a batch (runHeldPair), when
   * the spell takes two arguments and has a loop entry (made now if the spell
   * is compiled): what runLoopFiber and run() set for a run, set once — the
   * fiber running and marked live (the VM counts it only while it runs),
   * frame 0 in place.
   */
  private holdLoop(loop: FastLoop): void {
    const fiber = loop.fiber;
    if (fiber === null || loop.busy || loop.arity !== 2 || this.handler !== null) return;
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
  private releaseLoop(loop: FastLoop): void {
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
      entry = this.compiler.compileEntry(fn);
    } catch (error) {
      this.compileFailures.push(`${fn.name} (loop entry): ${error instanceof Error ? error.message : String(error)}`);
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

  /** Whether a loop that has a fiber (and so a closure: runLoopSlowly makes the fiber only then) can run on it now: loopCanEnter, written out. */
  private loopCanContinue(loop: FastLoop, argc: number): boolean {
    return !loop.busy && this.handler === null && argc === loop.arity && this.liveFibers < loop.maxFibers;
  }

  /** Run the loop's fiber, its arguments in place (stack[1 ..= argc]): what a finished run changed is set again first. */
  private runLoopFiber(loop: FastLoop, fiber: Fiber, argc: number): RunOutcome | null {
    const closure = loop.closure!;
    // What a finished run changed; the rest (spell, budgets, frame budget, storage) is the loop's.
    // (run() sets the state to 'running' as it starts.)
    fiber.fuel = loop.startFuel;
    if (fiber.heapUsed !== 0) fiber.heapUsed = 0;
    if (fiber.outputUsed !== 0) fiber.outputUsed = 0;
    fiber.live = true;
    this.liveFibers++;
    const stack = fiber.stack;
    if (stack[0] !== closure) stack[0] = closure;
    // Frame 0's closure and base are the loop's for as long as it owns the fiber (set when it was made: runLoopSlowly).
    fiber.frameIps[0] = 0;
    fiber.frameCount = 1;
    fiber.sp = 1 + argc;
    // run() catches whatever the spell throws: nothing escapes between these two lines.
    loop.busy = true;
    const ended = (closure.fn.compiled !== null ? runCompiledFromStart(this.interpreterView, fiber, closure) : this.run(fiber)).state;
    loop.busy = false;
    return ended === 'done' ? null : this.loopOutcome(loop, fiber);
  }

  /** runLoop's first run (the loop's fiber is made) and its general road (castFast: see vm/fast-loop.ts). */
  private runLoopSlowly(loop: FastLoop, args: readonly Value[]): RunOutcome {
    if (!this.scriptRan) {
      const before = this.ensureScript();
      if (before) return this.report(before, false);
    }
    if (!this.loopCanEnter(loop, args)) return this.castFast(loop.spell, args, loop.overrides);
    // A spare fiber object of the pool (closeLoop gives it back): one made now would be young while the loop runs
    // (a World makes its loops anew every step), and every host call's store of the fiber into the (old) host
    // context took the write barrier's slow road.
    const fiber = this.storage.fiber(loop.budgets, loop.spell, 'cast');
    fiber.poolOwned = false;
    // No trampoline frame: the spell's own frames are the budget.
    fiber.frameBudget = loop.budgets.maxFrames;
    fiber.loopOwned = true;
    fiber.retainedRoots = this.retainedRoots;
    this.storage.lend(fiber, 1 + loop.closure!.fn.maxStack);
    // Frame 0 is the spell, entered directly, for every run on this fiber (runLoop sets only what a run changes).
    enterFrameZero(fiber, loop.closure!, 0);
    loop.fiber = fiber;
    return this.runLoop(loop, args);
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
      enterThroughTrampoline(fiber, this.trampoline(loop.arity));
    } else {
      out.state = 'failed';
      out.fiber = null;
      fiber.result = null;
      fiber.error = null;
    }
    return out;
  }

  /** FastLoop.close: the loop's fiber gives its storage back to the pool, cleared. */
  private closeLoop(loop: FastLoop): void {
    const fiber = loop.fiber;
    if (fiber === null || loop.busy) return;
    loop.fiber = null;
    fiber.loopOwned = false;
    // Back to the pool as a spare fiber object (runLoopSlowly took it from there), its storage cleared.
    fiber.poolOwned = true;
    this.storage.reclaim(fiber);
    this.storage.recycle(fiber);
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

/** A fresh run's only frame: `entry` from its first instruction, its slots from stack slot 0 up to `sp`. */
function enterFrameZero(fiber: Fiber, entry: ObjClosure, sp: number): void {
  fiber.sp = sp;
  fiber.frameClosures[0] = entry;
  fiber.frameIps[0] = 0;
  fiber.frameBases[0] = 0;
  fiber.frameCount = 1;
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
