/**
 * The interpreter: a clox-style stack machine running a Module's bytecode on
 * fibers.
 *
 * Speed rules (see bench/): ONE `run` function with ONE `switch` over numeric
 * opcodes; code in an Int32Array; ip, base, sp, code, fuel held in locals;
 * frames in preallocated parallel arrays on the fiber; globals resolved to
 * slot indices; nothing allocated per instruction or per call. Starting a
 * run allocates nothing either: a fiber's stack and frames are lent by the
 * VM's FiberStoragePool (vm/fiber-pool.ts) and go back when it ends, and
 * callFast / castFast reuse fiber objects too. Fuel is
 * counted at loop back-edges and calls only, so an infinite budget costs a
 * subtraction and a compare per back-edge.
 *
 * The case labels are numeric literals (checked against the opcode table by
 * vm/opcode-numbers.test.ts): V8 compiles the switch to a jump table only
 * when it sees constant case values. Measured (CPU ms, fib(30) / 10M-step
 * loop): `case O.ADD` through a namespace import 323 / 1344, named imports
 * 355 / 1437, a local `const O = Op` 231 / 944, module-local `const ADD = 22`
 * 150 / 650 once fully optimized but ~420 in OSR or re-optimized code, where
 * literals stay at ~245.
 *
 * Errors inside the loop are thrown as a light `Fault` and turned into a
 * SpellRuntimeError (with the call stack) in one catch at the bottom; the
 * failing fiber ends and the VM stays usable.
 */

import { BudgetExceeded, DEFAULT_BUDGETS, budgetMessage, resolveBudgets, type Budgets, type RunKind } from './budgets.js';
import { CORE_HOST_FUNCTIONS } from './builtins.js';
import { displayBounded, displayValue } from './display.js';
import { quoted } from './bounded-text.js';
import { HEAP_COST } from './costs.js';
import { HostError, SpellRuntimeError, VerifyError, type BudgetLimit } from './errors.js';
import { Fiber } from './fiber.js';
import { FastLoop, type LoopRunner } from './fast-loop.js';
import { FiberStoragePool } from './fiber-pool.js';
import { hostArityMessage, type HostFunction } from './host.js';
import { VmHostContext } from './host-context.js';
import type { FunctionProto, Module } from './module.js';
import {
  ObjBoundMethod,
  ObjClass,
  ObjClosure,
  ObjFunction,
  ObjHostFunction,
  ObjInstance,
  ObjList,
  ObjUpvalue,
  describeType,
  isHostObject,
  matchesParam,
} from './objects.js';
import type { MethodRow } from './builtin-method.js';
import { ObjMap, mapKeyProblem } from './map-object.js';
import { missingKeyMessage } from './map-methods.js';
import { callMethod, methodsOf } from './method-dispatch.js';
import { templateText } from './template.js';
import { OPCODES, Op, instructionSize } from './opcodes.js';
import { nameArgumentProblem } from './name-argument.js';
import { RunOutcome } from './run-outcome.js';
import { heapOverflow, measureAtWait, measureRestored } from './retained-heap.js';
import type { HostObject, Value, VmObject } from './value.js';

export type { Budgets } from './budgets.js';
export { DEFAULT_BUDGETS } from './budgets.js';
export { Fiber } from './fiber.js';
export { RunOutcome } from './run-outcome.js';
export { FastLoop } from './fast-loop.js';

export interface VMOptions extends Partial<Budgets> {
  /** Host functions the module may import; default CORE_HOST_FUNCTIONS. Embedders pass [...CORE_HOST_FUNCTIONS, ...theirs]. */
  hosts?: readonly HostFunction[];
  /** Where `print` goes; default console.log. */
  print?: (text: string) => void;
  /**
   * What `maxHeap` counts: `'allocated'` (the default) — what a slice
   * allocates, on top of what the cast kept across its last wait; or
   * `'retained'` — what a fiber keeps alive, globals included: reaching
   * `maxHeap` measures it (charged as fuel), and only more than `maxHeap`
   * kept ends the run. `cantrip run` uses `'retained'`, so a script that
   * allocates much and keeps little runs to the end.
   */
  heapCounts?: 'allocated' | 'retained';
}

/** A runtime error raised inside the VM, before the call stack is attached. Not an Error: nothing to capture. */
class Fault {
  constructor(
    readonly message: string,
    readonly limit: BudgetLimit | null = null,
  ) {}
}


/** The value of a global slot that was never defined. */
const UNDEFINED: VmObject = Object.freeze({ objectType: 'undefined' });

/** Pseudo-opcodes the interpreter re-dispatches to internally; never in bytecode. */
const PUSH_FRAME = -1;
const CALL_VALUE = -2;

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

/** Decides, at a BREAK, whether the fiber pauses there (vm/debugger.ts). */
export interface BreakHandler {
  shouldPause(fiber: Fiber, fn: ObjFunction, pc: number, depth: number): boolean;
}

export class VM {
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
  breakHandler: BreakHandler | null = null;
  /** Every fiber's `retainedRoots`: the globals when the heap budget counts what is retained, else null. */
  private readonly retainedRoots: readonly Value[] | null;

  constructor(module: Module, options: VMOptions = {}) {
    this.module = module;
    this.constants = module.constants;
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
  }

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

  /** How FastLoop runs reach the interpreter (one object per VM, made once). */
  private readonly loopRunner: LoopRunner = {
    run: (loop, args) => this.runLoop(loop, args),
    close: (loop) => this.closeLoop(loop),
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

  /**
   * One run of a FastLoop, on the loop's own fiber (see vm/fast-loop.ts).
   * Kept small so V8 inlines it into the host's loop: the first run, the
   * general road and a cast that goes on are handled out of line.
   *
   * The fiber is entered without the entry trampoline: frame 0 is the spell
   * itself (stack[0] its closure, then the arguments), so a run is one
   * RETURN shorter. A fiber handed over (it waits or paused) is first given
   * the trampoline frame every other fiber has (enterThroughTrampoline).
   */
  private runLoop(loop: FastLoop, args: readonly Value[]): RunOutcome {
    const fiber = loop.fiber;
    if (fiber === null || !this.loopCanEnter(loop, args)) return this.runLoopSlowly(loop, args);
    const closure = loop.closure!;
    // What a finished run changed; the rest (spell, budgets, frame budget, storage) is the loop's.
    // (run() sets the state to 'running' as it starts.)
    fiber.fuel = loop.startFuel;
    fiber.heapUsed = 0;
    fiber.outputUsed = 0;
    fiber.live = true;
    this.liveFibers++;
    const stack = fiber.stack;
    const argc = args.length;
    stack[0] = closure;
    for (let i = 0; i < argc; i++) stack[1 + i] = args[i] === undefined ? null : args[i]!;
    // Frame 0's closure and base are the loop's for as long as it owns the fiber (set when it was made: runLoopSlowly).
    fiber.frameIps[0] = 0;
    fiber.frameCount = 1;
    fiber.sp = 1 + argc;
    // run() catches whatever the spell throws: nothing escapes between these two lines.
    loop.busy = true;
    const ended = this.run(fiber).state;
    loop.busy = false;
    if (ended !== 'done') return this.loopOutcome(loop, fiber);
    const out = this.outcome;
    out.state = 'done';
    out.result = fiber.result;
    out.error = null;
    out.fiber = null;
    fiber.result = null;
    return out;
  }

  /** runLoop's first run (the loop's fiber is made) and its general road (castFast: see vm/fast-loop.ts). */
  private runLoopSlowly(loop: FastLoop, args: readonly Value[]): RunOutcome {
    if (!this.scriptRan) {
      const before = this.ensureScript();
      if (before) return this.report(before, false);
    }
    if (!this.loopCanEnter(loop, args)) return this.castFast(loop.spell, args, loop.overrides);
    const fiber = new Fiber(loop.budgets, loop.spell, 'cast');
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
    return (
      loop.closure !== null &&
      !loop.busy &&
      this.breakHandler === null &&
      args.length === loop.arity &&
      this.liveFibers < loop.budgets.maxFibers
    );
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
    this.storage.reclaim(fiber);
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

  // ---------------------------------------------------------------- the interpreter

  /** Run `fiber` from its saved state until it is done, suspended, paused or failed. */
  private run(fiber: Fiber): Fiber {
    const constants = this.constants;
    const globals = this.globals;
    const functions = this.functions;
    const stack = fiber.stack;
    let frameIps = fiber.frameIps;
    let frameBases = fiber.frameBases;
    let frameClosures = fiber.frameClosures;
    let fc = fiber.frameCount;
    let frameLimit = Math.min(frameIps.length, fiber.frameBudget);
    let closure = frameClosures[fc - 1]!;
    let fn = closure.fn;
    let code = fn.code;
    let ip = frameIps[fc - 1]!;
    let base = frameBases[fc - 1]!;
    let sp = fiber.sp;
    let fuel = fiber.fuel;
    // Operands of the PUSH_FRAME / CALL_VALUE pseudo-opcodes.
    let callTarget: ObjClosure = closure;
    let callArgc = 0;
    fiber.state = 'running';

    try {
      for (;;) {
        let op = code[ip++]!;
        // The inner loop exists only so a case can re-dispatch (`continue dispatch`) to another
        // case: the pseudo-opcodes, and BREAK running the instruction it replaced.
        dispatch: for (;;) {
          switch (op) {
            case 0 /* CONSTANT */:
              stack[sp++] = constants[code[ip++]!]!;
              break;
            case 1 /* NIL */:
              stack[sp++] = null;
              break;
            case 2 /* TRUE */:
              stack[sp++] = true;
              break;
            case 3 /* FALSE */:
              stack[sp++] = false;
              break;
            case 4 /* POP */:
              sp--;
              break;
            case 5 /* DUP */:
              stack[sp] = stack[sp - 1]!;
              sp++;
              break;
            case 6 /* DUP2 */:
              stack[sp] = stack[sp - 2]!;
              stack[sp + 1] = stack[sp - 1]!;
              sp += 2;
              break;
            case 7 /* GET_LOCAL */:
              stack[sp++] = stack[base + code[ip++]!]!;
              break;
            case 8 /* SET_LOCAL */:
              stack[base + code[ip++]!] = stack[sp - 1]!;
              break;
            case 9 /* GET_GLOBAL */: {
              const slot = code[ip++]!;
              const value = globals[slot]!;
              if (value === UNDEFINED) throw new Fault(`Undefined variable ${quoted(this.module.globals[slot] ?? '')}.`);
              stack[sp++] = value;
              break;
            }
            case 10 /* DEFINE_GLOBAL */:
              globals[code[ip++]!] = stack[--sp]!;
              break;
            case 11 /* SET_GLOBAL */: {
              const slot = code[ip++]!;
              if (globals[slot] === UNDEFINED) throw new Fault(`Undefined variable ${quoted(this.module.globals[slot] ?? '')}.`);
              globals[slot] = stack[sp - 1]!;
              break;
            }
            case 12 /* GET_UPVALUE */: {
              const upvalue = closure.upvalues[code[ip++]!]!;
              stack[sp++] = upvalue.cells[upvalue.index]!;
              break;
            }
            case 13 /* SET_UPVALUE */: {
              const upvalue = closure.upvalues[code[ip++]!]!;
              upvalue.cells[upvalue.index] = stack[sp - 1]!;
              break;
            }
            case 14 /* GET_PROPERTY */: {
              const object = stack[sp - 1]!;
              if (object instanceof ObjInstance) {
                // Inline cache hit: this instruction saw this shape before; the field is in that slot.
                if (object.shape === fn.icShape[ip]) stack[sp - 1] = object.values[fn.icSlot[ip]!]!;
                else {
                  const value = getInstanceProperty(fn, ip, object, constants[code[ip]!] as string);
                  if (value instanceof ObjBoundMethod) fuel -= chargeHeap(fiber, HEAP_COST.boundMethod, fuel);
                  stack[sp - 1] = value;
                }
              } else {
                const value = getOtherProperty(object, constants[code[ip]!] as string);
                if (value instanceof ObjBoundMethod) fuel -= chargeHeap(fiber, HEAP_COST.boundMethod, fuel);
                stack[sp - 1] = value;
              }
              ip++;
              break;
            }
            case 15 /* SET_PROPERTY */: {
              const value = stack[--sp]!;
              const object = stack[sp - 1]!;
              if (object instanceof ObjInstance && object.shape === fn.icShape[ip]) {
                // Inline cache hit: store in the cached slot (appending when the cache is a transition).
                const slot = fn.icSlot[ip]!;
                if (slot < object.values.length) object.values[slot] = value;
                else {
                  object.values.push(value);
                  fuel -= chargeHeap(fiber, HEAP_COST.field, fuel);
                }
                object.shape = fn.icNext[ip]!;
              } else {
                // A new field, a new shape or a switch to dictionary mode is work and memory: charge both.
                const cost = setProperty(fn, ip, object, constants[code[ip]!] as string, value);
                if (cost > 0) {
                  fuel -= cost;
                  if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
                  fuel -= chargeHeap(fiber, cost, fuel);
                }
              }
              stack[sp - 1] = value;
              ip++;
              break;
            }
            case 16 /* GET_SUPER */: {
              const name = constants[code[ip++]!] as string;
              const superclass = stack[--sp]!;
              if (!(superclass instanceof ObjClass)) throw new Fault('Superclass must be a class.');
              const method = superclass.methods.get(name);
              if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
              fuel -= chargeHeap(fiber, HEAP_COST.boundMethod, fuel);
              stack[sp - 1] = new ObjBoundMethod(stack[sp - 1]!, method);
              break;
            }
            case 17 /* GET_INDEX */: {
              const index = stack[--sp]!;
              const list = stack[sp - 1]!;
              if (list instanceof ObjList && typeof index === 'number' && (index | 0) === index && index >= 0 && index < list.items.length) {
                stack[sp - 1] = list.items[index]!;
              } else {
                stack[sp - 1] = list instanceof ObjList ? list.items[checkIndex(list, index)]! : getMapEntry(list, index);
              }
              break;
            }
            case 18 /* SET_INDEX */: {
              const value = stack[--sp]!;
              const index = stack[--sp]!;
              const list = stack[sp - 1]!;
              if (list instanceof ObjList) list.items[checkIndex(list, index)] = value;
              else if (setMapEntry(list, index, value)) fuel -= chargeHeap(fiber, HEAP_COST.mapEntry, fuel);
              stack[sp - 1] = value;
              break;
            }
            case 19 /* EQUAL */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              // Two distinct strings of one length are compared char by char: charge for long ones, or a
              // loop of `==` on megabyte strings runs for minutes within its fuel (found by tests/sandbox).
              if (typeof a === 'string' && typeof b === 'string' && a.length > 64 && a.length === b.length) {
                fuel -= a.length >> 6;
                if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              }
              stack[sp - 1] = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b));
              break;
            }
            case 20 /* GREATER */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              stack[sp - 1] = a > b;
              break;
            }
            case 21 /* LESS */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              stack[sp - 1] = a < b;
              break;
            }
            case 22 /* ADD */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              if (typeof a === 'number' && typeof b === 'number') {
                stack[sp - 1] = a + b;
              } else if (typeof a === 'string' && typeof b === 'string') {
                fuel -= chargeHeap(fiber, a.length + b.length, fuel);
                stack[sp - 1] = concatStrings(a, b);
              } else {
                throw new Fault('Operands must be two numbers or two strings.');
              }
              break;
            }
            case 23 /* SUBTRACT */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              stack[sp - 1] = a - b;
              break;
            }
            case 24 /* MULTIPLY */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              stack[sp - 1] = a * b;
              break;
            }
            case 25 /* DIVIDE */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              stack[sp - 1] = a / b;
              break;
            }
            case 26 /* MODULO */: {
              const b = stack[--sp]!;
              const a = stack[sp - 1]!;
              if (typeof a !== 'number' || typeof b !== 'number') throw new Fault('Operands must be numbers.');
              stack[sp - 1] = a % b;
              break;
            }
            case 27 /* NOT */: {
              const v = stack[sp - 1]!;
              stack[sp - 1] = v === null || v === false;
              break;
            }
            case 28 /* NEGATE */: {
              const v = stack[sp - 1]!;
              if (typeof v !== 'number') throw new Fault('Operand must be a number.');
              stack[sp - 1] = -v;
              break;
            }
            case 29 /* PRINT */: {
              const value = stack[--sp]!;
              let text: string;
              if (typeof value === 'object' && value !== null) {
                // Printing a big (or self-nesting) list is work: bound it by the fuel left.
                const shown = displayBounded(value, fuel);
                if (shown === null) {
                  fuel = -1; // it walked all the text the fuel could pay for: all of it is spent
                  throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
                }
                text = shown;
              } else {
                text = displayValue(value);
              }
              // Text sent out costs 1 fuel per character and counts against the output budget (the newline too).
              fuel -= text.length;
              if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              chargeOutput(fiber, text.length + 1);
              this.printFn(text);
              break;
            }
            case 30 /* JUMP */:
              ip = code[ip]!;
              break;
            case 31 /* JUMP_IF_FALSE */: {
              const target = code[ip++]!;
              const v = stack[sp - 1]!;
              if (v === null || v === false) ip = target;
              break;
            }
            case 32 /* LOOP */: {
              const target = code[ip]!;
              fuel -= ip + 1 - target;
              if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              ip = target;
              break;
            }
            case 33 /* CALL */: {
              const argc = code[ip++]!;
              const callee = stack[sp - 1 - argc]!;
              if (!(callee instanceof ObjClosure)) {
                callArgc = argc;
                op = CALL_VALUE;
                continue dispatch;
              }
              // The hot path (a closure) pushes its frame right here; PUSH_FRAME repeats this for the other callers.
              const target = callee.fn;
              if (argc !== target.arity) throw new Fault(`Expected ${target.arity} arguments but got ${argc}.`);
              if (fc >= frameLimit) {
                frameLimit = this.growFrames(fiber, fc);
                frameIps = fiber.frameIps;
                frameBases = fiber.frameBases;
                frameClosures = fiber.frameClosures;
              }
              fuel -= target.callFuel;
              if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              const newBase = sp - 1 - argc;
              if (newBase + target.maxStack > stack.length) fuel = this.growStackCharged(fiber, newBase + target.maxStack, fuel);
              frameIps[fc - 1] = ip;
              frameClosures[fc] = callee;
              frameBases[fc] = newBase;
              fc++;
              closure = callee;
              fn = target;
              code = target.code;
              ip = 0;
              base = newBase;
              break;
            }
            case -1 /* PUSH_FRAME */: {
              const argc = callArgc;
              const target = callTarget.fn;
              if (argc !== target.arity) throw new Fault(`Expected ${target.arity} arguments but got ${argc}.`);
              if (fc >= frameLimit) {
                frameLimit = this.growFrames(fiber, fc);
                frameIps = fiber.frameIps;
                frameBases = fiber.frameBases;
                frameClosures = fiber.frameClosures;
              }
              fuel -= target.callFuel;
              if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              const newBase = sp - 1 - argc;
              if (newBase + target.maxStack > stack.length) fuel = this.growStackCharged(fiber, newBase + target.maxStack, fuel);
              frameIps[fc - 1] = ip;
              frameClosures[fc] = callTarget;
              frameBases[fc] = newBase;
              fc++;
              closure = callTarget;
              fn = target;
              code = target.code;
              ip = 0;
              base = newBase;
              break;
            }
            case -2 /* CALL_VALUE */: {
              // Calling anything but a plain closure; the callee sits below callArgc arguments.
              const argc = callArgc;
              const calleeSlot = sp - 1 - argc;
              const callee = stack[calleeSlot]!;
              if (callee instanceof ObjClosure) {
                callTarget = callee;
                op = PUSH_FRAME;
                continue dispatch;
              }
              if (callee instanceof ObjBoundMethod) {
                stack[calleeSlot] = callee.receiver;
                if (callee.method instanceof ObjClosure) {
                  callTarget = callee.method;
                  op = PUSH_FRAME;
                  continue dispatch;
                }
                fiber.fuel = fuel;
                const result = this.callBuiltinMethod(fiber, callee.method, callee.receiver, calleeSlot + 1, argc);
                fuel = fiber.fuel;
                sp = calleeSlot;
                stack[sp++] = result;
                break;
              }
              if (callee instanceof ObjClass) {
                fuel -= chargeHeap(fiber, HEAP_COST.instance, fuel);
                stack[calleeSlot] = new ObjInstance(callee);
                if (callee.initializer !== null) {
                  callTarget = callee.initializer;
                  op = PUSH_FRAME;
                  continue dispatch;
                }
                if (argc !== 0) throw new Fault(`Expected 0 arguments but got ${argc}.`);
                break;
              }
              if (callee instanceof ObjHostFunction) {
                if (argc < callee.minArity || argc > callee.maxArity) throw new Fault(hostArityMessage(callee.host, argc));
                fiber.fuel = fuel;
                this.ctx.fn = fn;
                this.ctx.ip = ip;
                const result = this.callHost(fiber, callee, calleeSlot + 1, argc);
                fuel = fiber.fuel;
                sp = calleeSlot;
                if (this.ctx.suspendRequested) {
                  this.ctx.suspendRequested = false;
                  return this.suspend(fiber, 'suspended', fc, ip, sp, fuel);
                }
                stack[sp++] = result;
                break;
              }
              throw new Fault('Can only call functions and classes.');
            }
            case 34 /* INVOKE */: {
              const name = constants[code[ip++]!] as string;
              const argc = code[ip++]!;
              const receiverSlot = sp - 1 - argc;
              const receiver = stack[receiverSlot]!;
              if (receiver instanceof ObjInstance) {
                // Inline cache hit: this shape has no field of that name, and its class has the method.
                if (receiver.shape === fn.icShape[ip - 2]) {
                  callTarget = fn.icMethod[ip - 2]!;
                  callArgc = argc;
                  op = PUSH_FRAME;
                  continue dispatch;
                }
                const field = receiver.getField(name);
                if (field !== undefined) {
                  // A field holding a function shadows a method of the same name (clox).
                  stack[receiverSlot] = field;
                  callArgc = argc;
                  op = CALL_VALUE;
                  continue dispatch;
                }
                const method = receiver.klass.methods.get(name);
                if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
                if (!receiver.isDictionary) {
                  fn.icShape[ip - 2] = receiver.shape;
                  fn.icMethod[ip - 2] = method;
                }
                callTarget = method;
                callArgc = argc;
                op = PUSH_FRAME;
                continue dispatch;
              }
              fiber.fuel = fuel;
              this.ctx.fn = fn;
              this.ctx.ip = ip;
              const result = this.invokeOther(fiber, receiver, name, receiverSlot + 1, argc);
              fuel = fiber.fuel;
              sp = receiverSlot;
              if (this.ctx.suspendRequested) {
                this.ctx.suspendRequested = false;
                return this.suspend(fiber, 'suspended', fc, ip, sp, fuel);
              }
              stack[sp++] = result;
              break;
            }
            case 35 /* SUPER_INVOKE */: {
              const name = constants[code[ip++]!] as string;
              const argc = code[ip++]!;
              const superclass = stack[--sp]!;
              if (!(superclass instanceof ObjClass)) throw new Fault('Superclass must be a class.');
              const method = superclass.methods.get(name);
              if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
              callTarget = method;
              callArgc = argc;
              op = PUSH_FRAME;
              continue dispatch;
            }
            case 36 /* CALL_HOST */: {
              const host = this.hostImports[code[ip++]!]!;
              const argc = code[ip++]!;
              const argBase = sp - argc;
              fiber.fuel = fuel;
              this.ctx.fn = fn;
              this.ctx.ip = ip;
              const result = this.callHost(fiber, host, argBase, argc);
              fuel = fiber.fuel;
              sp = argBase;
              if (this.ctx.suspendRequested) {
                this.ctx.suspendRequested = false;
                return this.suspend(fiber, 'suspended', fc, ip, sp, fuel);
              }
              stack[sp++] = result;
              break;
            }
            case 37 /* HOST_FUNCTION */:
              stack[sp++] = this.hostImports[code[ip++]!]!;
              break;
            case 38 /* CLOSURE */: {
              const target = functions[code[ip++]!]!;
              const count = target.proto.upvalues.length;
              // Charged by the upvalues captured, the new upvalue objects and the open-upvalue entries walked (captureUpvalues).
              fuel -= chargeHeap(fiber, HEAP_COST.closure + count, fuel);
              let upvalues = NO_UPVALUES;
              if (count > 0) {
                upvalues = captureUpvalues(fiber, target, closure, base);
                fuel -= chargeHeap(fiber, HEAP_COST.upvalue * captureCreated, fuel);
                fuel -= count + captureWalk;
                if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              }
              stack[sp++] = new ObjClosure(target, upvalues);
              break;
            }
            case 39 /* CLOSE_UPVALUE */:
              closeUpvalues(fiber, sp - 1);
              sp--;
              break;
            case 40 /* RETURN */: {
              const result = stack[sp - 1]!;
              if (fiber.openUpvalues !== null) closeUpvalues(fiber, base);
              fc--;
              if (fc === 0) {
                fiber.result = result;
                fiber.fuel = fuel;
                this.finish(fiber, 'done');
                return fiber;
              }
              sp = base;
              stack[sp++] = result;
              closure = frameClosures[fc - 1]!;
              fn = closure.fn;
              code = fn.code;
              ip = frameIps[fc - 1]!;
              base = frameBases[fc - 1]!;
              break;
            }
            case 41 /* CLASS */:
              // A class is a method table and a shape tree: charged as work as well as memory.
              fuel -= HEAP_COST.class;
              if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              fuel -= chargeHeap(fiber, HEAP_COST.class, fuel);
              stack[sp++] = new ObjClass(constants[code[ip++]!] as string);
              break;
            case 42 /* INHERIT */: {
              const superclass = stack[sp - 2]!;
              const subclass = stack[sp - 1]!;
              if (!(superclass instanceof ObjClass)) throw new Fault('Superclass must be a class.');
              if (subclass instanceof ObjClass) {
                // Copying the method table is work and memory in proportion to its size: charged before copying.
                const copied = superclass.methods.size;
                fuel -= copied;
                if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
                fuel -= chargeHeap(fiber, copied * HEAP_COST.method, fuel);
                inherit(subclass, superclass);
              }
              sp--;
              break;
            }
            case 43 /* METHOD */: {
              const name = constants[code[ip++]!] as string;
              const method = stack[sp - 1]!;
              const klass = stack[sp - 2]!;
              if (klass instanceof ObjClass && method instanceof ObjClosure) {
                fuel -= chargeHeap(fiber, HEAP_COST.method, fuel);
                klass.methods.set(name, method);
                if (name === 'init') klass.initializer = method;
              }
              sp--;
              break;
            }
            case 44 /* BUILD_LIST */: {
              const count = code[ip++]!;
              fuel -= chargeHeap(fiber, HEAP_COST.list + count, fuel);
              const items = stack.slice(sp - count, sp);
              sp -= count;
              stack[sp++] = new ObjList(items);
              break;
            }
            case 45 /* FOR_ITER */: {
              const slot = base + code[ip++]!;
              const target = code[ip++]!;
              const iterable = stack[slot]!;
              const index = stack[slot + 1]!;
              let list: ObjList;
              if (iterable instanceof ObjList) list = iterable;
              else {
                // A map is iterated over a snapshot of its keys taken as the loop starts: the body may
                // add or remove entries and the loop stays deterministic. The snapshot is a list on the heap.
                if (!(iterable instanceof ObjMap)) throw new Fault('Can only iterate over a list or a map.');
                fuel -= chargeHeap(fiber, HEAP_COST.list + iterable.size, fuel);
                fuel -= iterable.size;
                if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
                stack[slot] = list = new ObjList(iterable.keys());
              }
              // Lists never hold `undefined`, so a missing element (past the end, or a bogus
              // index from hand-made bytecode) ends the loop.
              const item = typeof index === 'number' ? list.items[index] : undefined;
              if (item !== undefined) {
                stack[sp++] = item;
                stack[slot + 1] = (index as number) + 1;
              } else {
                ip = target;
              }
              break;
            }
            case 47 /* BUILD_MAP */: {
              const count = code[ip++]!;
              const first = sp - 2 * count;
              const map = new ObjMap();
              for (let i = first; i < sp; i += 2) setMapEntry(map, stack[i]!, stack[i + 1]!);
              fuel -= chargeHeap(fiber, HEAP_COST.map + HEAP_COST.mapEntry * map.size, fuel);
              sp = first;
              stack[sp++] = map;
              break;
            }
            case 48 /* TEMPLATE */: {
              const count = code[ip++]!;
              const first = sp - count;
              // Converting is work and the text is heap, as str() and `+` charge them.
              const text = templateText(stack, first, count, fuel);
              if (text === null) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              fuel -= count + text.length;
              if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              fuel -= chargeHeap(fiber, text.length, fuel);
              sp = first;
              stack[sp++] = text;
              break;
            }
            // ---- superinstructions (vm/superinstructions.ts): the common case in one dispatch, else
            // the first instruction alone (`op = …; continue dispatch`) and the rest as plain code.
            case 64 /* S_SET_LOCAL_POP */:
              stack[base + code[ip]!] = stack[--sp]!;
              ip += 2;
              break;
            case 65 /* S_SET_PROPERTY_POP */: {
              const object = stack[sp - 2]!;
              if (!(object instanceof ObjInstance) || object.shape !== fn.icShape[ip]) {
                op = 15 /* SET_PROPERTY */;
                continue dispatch;
              }
              const slot = fn.icSlot[ip]!;
              if (slot < object.values.length) object.values[slot] = stack[sp - 1]!;
              else {
                object.values.push(stack[sp - 1]!);
                fuel -= chargeHeap(fiber, HEAP_COST.field, fuel);
              }
              object.shape = fn.icNext[ip]!;
              sp -= 2;
              ip += 2;
              break;
            }
            case 66 /* S_GET_LOCAL2 */:
              stack[sp] = stack[base + code[ip]!]!;
              stack[sp + 1] = stack[base + code[ip + 2]!]!;
              sp += 2;
              ip += 3;
              break;
            case 67 /* S_GET_LOCAL_CONSTANT */:
              stack[sp] = stack[base + code[ip]!]!;
              stack[sp + 1] = constants[code[ip + 2]!]!;
              sp += 2;
              ip += 3;
              break;
            case 68 /* S_GET_LOCAL_PROPERTY */: {
              const object = stack[base + code[ip]!]!;
              if (object instanceof ObjInstance && object.shape === fn.icShape[ip + 2]) {
                stack[sp++] = object.values[fn.icSlot[ip + 2]!]!;
                ip += 3;
                break;
              }
              op = 7 /* GET_LOCAL */;
              continue dispatch;
            }
            case 69 /* S_POP_GET_LOCAL */:
              stack[sp - 1] = stack[base + code[ip + 1]!]!;
              ip += 2;
              break;
            case 70 /* S_LESS_JUMP */: {
              const b = stack[sp - 1]!;
              const a = stack[sp - 2]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 21 /* LESS */;
                continue dispatch;
              }
              sp -= 2;
              // Not taken skips the JUMP_IF_FALSE and its POP; taken skips the POP at the target
              // too (the condition was never pushed).
              ip = a < b ? ip + 3 : code[ip + 1]! + 1;
              break;
            }
            case 71 /* S_JUMP_IF_FALSE_POP */: {
              const v = stack[--sp]!;
              ip = v === null || v === false ? code[ip]! + 1 : ip + 2;
              break;
            }
            case 72 /* S_ADD_LOCAL_CONSTANT */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp++] = a + b;
              ip += 4;
              break;
            }
            case 73 /* S_SUBTRACT_LOCAL_CONSTANT */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp++] = a - b;
              ip += 4;
              break;
            }
            case 74 /* S_POP_JUMP */:
              sp--;
              ip = code[ip + 1]!;
              break;
            case 75 /* S_POP_LOOP */: {
              sp--;
              const target = code[ip + 1]!;
              fuel -= ip + 2 - target;
              if (fuel < 0) {
                ip += 2; // report the LOOP's line, as plain code would
                throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              }
              ip = target;
              break;
            }
            case 76 /* S_ADD_LOCAL_LOCAL */: {
              const a = stack[base + code[ip]!]!;
              const b = stack[base + code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp++] = a + b;
              ip += 4;
              break;
            }
            case 77 /* S_RETURN_LOCAL */:
              stack[sp++] = stack[base + code[ip]!]!;
              ip += 2;
              op = 40 /* RETURN */;
              continue dispatch;
            case 78 /* S_EQUAL_JUMP */: {
              const b = stack[sp - 1]!;
              const a = stack[sp - 2]!;
              if (typeof a === 'string' && typeof b === 'string' && a.length > 64 && a.length === b.length) {
                // Long strings take the plain EQUAL, which charges fuel for comparing them (tests/sandbox/budgets).
                op = 19 /* EQUAL */;
                continue dispatch;
              }
              sp -= 2;
              ip = a === b || (isHostObject(a) && isHostObject(b) && hostEquals(a, b)) ? ip + 3 : code[ip + 1]! + 1;
              break;
            }
            case 79 /* S_GREATER_JUMP */: {
              const b = stack[sp - 1]!;
              const a = stack[sp - 2]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 20 /* GREATER */;
                continue dispatch;
              }
              sp -= 2;
              ip = a > b ? ip + 3 : code[ip + 1]! + 1;
              break;
            }
            // Compare-and-branch on a local and a local or constant. Not taken (true) falls through past
            // the POP and follows a JUMP there (a for loop's jump over its increment); taken (false)
            // skips the POP at the target. Anything but numbers runs the GET_LOCAL alone.
            case 80 /* S_LL_LESS_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = stack[base + code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              if (a < b) {
                ip += 7;
                if (code[ip] === 30 /* JUMP */) ip = code[ip + 1]!;
              } else ip = code[ip + 5]! + 1;
              break;
            }
            case 81 /* S_LK_LESS_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              if (a < b) {
                ip += 7;
                if (code[ip] === 30 /* JUMP */) ip = code[ip + 1]!;
              } else ip = code[ip + 5]! + 1;
              break;
            }
            case 82 /* S_LL_GREATER_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = stack[base + code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              if (a > b) {
                ip += 7;
                if (code[ip] === 30 /* JUMP */) ip = code[ip + 1]!;
              } else ip = code[ip + 5]! + 1;
              break;
            }
            case 83 /* S_LK_GREATER_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              if (a > b) {
                ip += 7;
                if (code[ip] === 30 /* JUMP */) ip = code[ip + 1]!;
              } else ip = code[ip + 5]! + 1;
              break;
            }
            // Equality: host objects (their own equals) and long equal-length strings (EQUAL charges
            // fuel for comparing them) run the GET_LOCAL alone.
            case 84 /* S_LL_EQUAL_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = stack[base + code[ip + 2]!]!;
              if (!plainEquality(a, b)) {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              ip = a === b ? ip + 7 : code[ip + 5]! + 1;
              break;
            }
            case 85 /* S_LK_EQUAL_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (!plainEquality(a, b)) {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              ip = a === b ? ip + 7 : code[ip + 5]! + 1;
              break;
            }
            case 86 /* S_LL_NOT_EQUAL_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = stack[base + code[ip + 2]!]!;
              if (!plainEquality(a, b)) {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              ip = a !== b ? ip + 8 : code[ip + 6]! + 1;
              break;
            }
            case 87 /* S_LK_NOT_EQUAL_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (!plainEquality(a, b)) {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              ip = a !== b ? ip + 8 : code[ip + 6]! + 1;
              break;
            }
            case 88 /* S_INC_LOCAL */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[base + code[ip + 5]!] = a + b;
              ip += 7;
              break;
            }
            case 89 /* S_INC_LOCAL_LOOP */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[base + code[ip + 5]!] = a + b;
              // The LOOP's charge, as plain LOOP at ip + 7 would take it.
              const target = code[ip + 8]!;
              fuel -= ip + 9 - target;
              if (fuel < 0) {
                ip += 8;
                throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              }
              ip = target;
              break;
            }
            case 90 /* S_LOOP_INC_LOOP */: {
              // This LOOP's charge first, then the increment and its LOOP as S_INC_LOCAL_LOOP.
              const inc = code[ip]!;
              fuel -= ip + 1 - inc;
              if (fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              const a = stack[base + code[inc + 1]!]!;
              const b = constants[code[inc + 3]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                ip = inc;
                break;
              }
              stack[base + code[inc + 6]!] = a + b;
              const target = code[inc + 9]!;
              fuel -= inc + 10 - target;
              if (fuel < 0) {
                ip = inc + 9;
                throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              }
              ip = target;
              break;
            }
            // Stack top (op) a constant or a local; anything but numbers runs the push alone.
            case 91 /* S_K_ADD */: {
              const a = stack[sp - 1]!;
              const b = constants[code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 0 /* CONSTANT */;
                continue dispatch;
              }
              stack[sp - 1] = a + b;
              ip += 2;
              break;
            }
            case 92 /* S_K_SUBTRACT */: {
              const a = stack[sp - 1]!;
              const b = constants[code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 0 /* CONSTANT */;
                continue dispatch;
              }
              stack[sp - 1] = a - b;
              ip += 2;
              break;
            }
            case 93 /* S_K_MULTIPLY */: {
              const a = stack[sp - 1]!;
              const b = constants[code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 0 /* CONSTANT */;
                continue dispatch;
              }
              stack[sp - 1] = a * b;
              ip += 2;
              break;
            }
            case 94 /* S_K_MODULO */: {
              const a = stack[sp - 1]!;
              const b = constants[code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 0 /* CONSTANT */;
                continue dispatch;
              }
              stack[sp - 1] = a % b;
              ip += 2;
              break;
            }
            case 95 /* S_L_ADD */: {
              const a = stack[sp - 1]!;
              const b = stack[base + code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp - 1] = a + b;
              ip += 2;
              break;
            }
            case 96 /* S_L_SUBTRACT */: {
              const a = stack[sp - 1]!;
              const b = stack[base + code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp - 1] = a - b;
              ip += 2;
              break;
            }
            case 97 /* S_L_MULTIPLY */: {
              const a = stack[sp - 1]!;
              const b = stack[base + code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp - 1] = a * b;
              ip += 2;
              break;
            }
            case 98 /* S_INC_LOCAL_JUMP */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[base + code[ip + 5]!] = a + b;
              // JUMP only goes forward (the verifier insists): no fuel to charge.
              ip = code[ip + 8]!;
              break;
            }
            case 99 /* S_LOCAL_LOCAL_PROPERTY */: {
              const object = stack[base + code[ip + 2]!]!;
              if (object instanceof ObjInstance && object.shape === fn.icShape[ip + 4]) {
                stack[sp] = stack[base + code[ip]!]!;
                stack[sp + 1] = object.values[fn.icSlot[ip + 4]!]!;
                sp += 2;
                ip += 5;
                break;
              }
              op = 7 /* GET_LOCAL */;
              continue dispatch;
            }
            case 100 /* S_MODULO_LOCAL_CONSTANT */: {
              const a = stack[base + code[ip]!]!;
              const b = constants[code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp++] = a % b;
              ip += 4;
              break;
            }
            case 101 /* S_ADD_SET_LOCAL_POP */: {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 22 /* ADD */;
                continue dispatch;
              }
              sp -= 2;
              stack[base + code[ip + 1]!] = a + b;
              ip += 3;
              break;
            }
            case 102 /* S_K_MODULO_SET_LOCAL_POP */: {
              const a = stack[sp - 1]!;
              const b = constants[code[ip]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 0 /* CONSTANT */;
                continue dispatch;
              }
              sp--;
              stack[base + code[ip + 3]!] = a % b;
              ip += 5;
              break;
            }
            case 103 /* S_ADD_SET_PROPERTY_POP */: {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              const object = stack[sp - 3]!;
              if (
                typeof a !== 'number' ||
                typeof b !== 'number' ||
                !(object instanceof ObjInstance) ||
                object.shape !== fn.icShape[ip + 1]
              ) {
                op = 22 /* ADD */;
                continue dispatch;
              }
              const slot = fn.icSlot[ip + 1]!;
              if (slot < object.values.length) object.values[slot] = a + b;
              else {
                object.values.push(a + b);
                fuel -= chargeHeap(fiber, HEAP_COST.field, fuel);
              }
              object.shape = fn.icNext[ip + 1]!;
              sp -= 3;
              ip += 3;
              break;
            }
            case 104 /* S_LOCAL_PROPERTY_ADD */: {
              const object = stack[base + code[ip]!]!;
              const a = stack[sp - 1]!;
              if (typeof a === 'number' && object instanceof ObjInstance && object.shape === fn.icShape[ip + 2]) {
                const b = object.values[fn.icSlot[ip + 2]!]!;
                if (typeof b === 'number') {
                  stack[sp - 1] = a + b;
                  ip += 4;
                  break;
                }
              }
              op = 7 /* GET_LOCAL */;
              continue dispatch;
            }
            case 105 /* S_ADD_UPVALUE_LOCAL */: {
              const from = closure.upvalues[code[ip]!]!;
              const a = from.cells[from.index]!;
              const b = stack[base + code[ip + 2]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                op = 12 /* GET_UPVALUE */;
                continue dispatch;
              }
              const to = closure.upvalues[code[ip + 5]!]!;
              to.cells[to.index] = a + b;
              ip += 7;
              break;
            }
            case 106 /* S_RETURN_UPVALUE */: {
              const upvalue = closure.upvalues[code[ip]!]!;
              stack[sp++] = upvalue.cells[upvalue.index]!;
              ip += 2;
              op = 40 /* RETURN */;
              continue dispatch;
            }
            case 107 /* S_RETURN_LOCAL_PROPERTY */: {
              const object = stack[base + code[ip]!]!;
              if (object instanceof ObjInstance && object.shape === fn.icShape[ip + 2]) {
                stack[sp++] = object.values[fn.icSlot[ip + 2]!]!;
                ip += 4;
                op = 40 /* RETURN */;
                continue dispatch;
              }
              op = 7 /* GET_LOCAL */;
              continue dispatch;
            }
            case 108 /* S_INC_FIELD */: {
              // The same local twice, a field read and written back in place (no new field, no shape change).
              const object = stack[base + code[ip]!]!;
              if (
                code[ip] === code[ip + 2] &&
                object instanceof ObjInstance &&
                object.shape === fn.icShape[ip + 4] &&
                object.shape === fn.icShape[ip + 9] &&
                object.shape === fn.icNext[ip + 9]
              ) {
                const a = object.values[fn.icSlot[ip + 4]!]!;
                const b = constants[code[ip + 6]!]!;
                if (typeof a === 'number' && typeof b === 'number') {
                  object.values[fn.icSlot[ip + 9]!] = a + b;
                  ip += 11;
                  break;
                }
              }
              op = 7 /* GET_LOCAL */;
              continue dispatch;
            }
            case 109 /* S_INVOKE_LOCAL */: {
              stack[sp++] = stack[base + code[ip]!]!;
              const argc = code[ip + 3]!;
              const receiver = stack[sp - 1 - argc]!;
              const method = fn.icMethod[ip + 2]!;
              if (!(receiver instanceof ObjInstance) || receiver.shape !== fn.icShape[ip + 2] || argc !== method.fn.arity) {
                // Anything but a cached method of the right arity: INVOKE itself (errors included).
                ip += 2;
                op = 34 /* INVOKE */;
                continue dispatch;
              }
              ip += 4;
              callTarget = method;
              callArgc = argc;
              op = PUSH_FRAME;
              continue dispatch;
            }
            case 110 /* S_GLOBAL_SUB_LOCAL_CONSTANT */: {
              const callee = globals[code[ip]!]!;
              const a = stack[base + code[ip + 2]!]!;
              const b = constants[code[ip + 4]!]!;
              if (callee === UNDEFINED || typeof a !== 'number' || typeof b !== 'number') {
                op = 9 /* GET_GLOBAL */;
                continue dispatch;
              }
              stack[sp] = callee;
              stack[sp + 1] = a - b;
              sp += 2;
              ip += 6;
              break;
            }
            case 111 /* S_SET_FIELD_LOCAL */:
            case 112 /* S_SET_FIELD_CONSTANT */: {
              const object = stack[base + code[ip]!]!;
              if (!(object instanceof ObjInstance) || object.shape !== fn.icShape[ip + 4]) {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              const value = op === 111 ? stack[base + code[ip + 2]!]! : constants[code[ip + 2]!]!;
              const slot = fn.icSlot[ip + 4]!;
              if (slot < object.values.length) object.values[slot] = value;
              else {
                object.values.push(value);
                fuel -= chargeHeap(fiber, HEAP_COST.field, fuel);
              }
              object.shape = fn.icNext[ip + 4]!;
              ip += 6;
              break;
            }
            // `x == nil` is `x === null` for every value (a host object's equals only meets other host objects).
            case 113 /* S_NIL_EQUAL_JUMP */:
              ip = stack[--sp] === null ? ip + 4 : code[ip + 2]! + 1;
              break;
            case 114 /* S_NIL_NOT_EQUAL_JUMP */:
              ip = stack[--sp] !== null ? ip + 5 : code[ip + 3]! + 1;
              break;
            case 115 /* S_POP_LOOP_INC_LOOP */: {
              // The POP and its LOOP's charge (as S_POP_LOOP), then the increment and its LOOP (as S_LOOP_INC_LOOP).
              sp--;
              const inc = code[ip + 1]!;
              fuel -= ip + 2 - inc;
              if (fuel < 0) {
                ip += 2;
                throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              }
              const a = stack[base + code[inc + 1]!]!;
              const b = constants[code[inc + 3]!]!;
              if (typeof a !== 'number' || typeof b !== 'number') {
                ip = inc;
                break;
              }
              stack[base + code[inc + 6]!] = a + b;
              const target = code[inc + 9]!;
              fuel -= inc + 10 - target;
              if (fuel < 0) {
                ip = inc + 9;
                throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
              }
              ip = target;
              break;
            }
            case 116 /* S_INVOKE_LOCAL_PROPERTY */: {
              const object = stack[base + code[ip]!]!;
              if (!(object instanceof ObjInstance) || object.shape !== fn.icShape[ip + 2]) {
                op = 7 /* GET_LOCAL */;
                continue dispatch;
              }
              stack[sp++] = object.values[fn.icSlot[ip + 2]!]!;
              const argc = code[ip + 5]!;
              const receiver = stack[sp - 1 - argc]!;
              const method = fn.icMethod[ip + 4]!;
              if (!(receiver instanceof ObjInstance) || receiver.shape !== fn.icShape[ip + 4] || argc !== method.fn.arity) {
                // The field is pushed: INVOKE itself does the rest (errors included).
                ip += 4;
                op = 34 /* INVOKE */;
                continue dispatch;
              }
              ip += 6;
              callTarget = method;
              callArgc = argc;
              op = PUSH_FRAME;
              continue dispatch;
            }
            case 117 /* S_ADD_ADD_LOCAL */: {
              const a = stack[sp - 2]!;
              const b = stack[sp - 1]!;
              const c = stack[base + code[ip + 1]!]!;
              if (typeof a !== 'number' || typeof b !== 'number' || typeof c !== 'number') {
                op = 22 /* ADD */;
                continue dispatch;
              }
              stack[sp - 2] = a + b + c;
              sp--;
              ip += 3;
              break;
            }
            case 46 /* BREAK */: {
              const handler = this.breakHandler;
              const pc = ip - 1;
              if (handler !== null && !fiber.debugSkipBreak) {
                frameIps[fc - 1] = pc;
                fiber.frameCount = fc;
                fiber.sp = sp;
                if (handler.shouldPause(fiber, fn, pc, fc)) return this.suspend(fiber, 'paused', fc, pc, sp, fuel);
              }
              fiber.debugSkipBreak = false;
              op = fn.original[pc]!;
              continue dispatch;
            }
            default:
              throw new Fault(`Unknown opcode ${op}.`);
          }
          break;
        }
      }
    } catch (error) {
      return this.fail(fiber, error, fc, ip, sp, fuel);
    }
  }

  /**
   * Save the interpreter's locals into the fiber and leave the loop. A fiber
   * that waits ('suspended') ends its slice: what it keeps across the wait is
   * measured, paid from its fuel (vm/retained-heap.ts; a budget error, thrown
   * to run()'s catch, when it cannot pay or keeps more than maxHeap).
   */
  private suspend(fiber: Fiber, state: 'suspended' | 'paused', fc: number, ip: number, sp: number, fuel: number): Fiber {
    fiber.frameIps[fc - 1] = ip;
    fiber.frameCount = fc;
    fiber.sp = sp;
    fiber.fuel = state === 'suspended' ? measureAtWait(fiber, fuel) : fuel;
    fiber.state = state;
    return fiber;
  }

  private fail(fiber: Fiber, error: unknown, fc: number, ip: number, sp: number, fuel: number): Fiber {
    fiber.frameCount = fc;
    fiber.sp = sp;
    // A host function that threw may have charged fiber.fuel past the loop's copy: fuel only goes down.
    fiber.fuel = Math.min(fuel, fiber.fuel);
    const trace = fiber.trace(ip);
    const { message, limit } = describeFailure(error, fiber);
    this.finish(fiber, 'failed');
    fiber.error = new SpellRuntimeError(message, trace, limit, fiber.spell);
    return fiber;
  }

  /** Make room for one more frame, or fail with "Stack overflow.". Returns the new frame limit. */
  private growFrames(fiber: Fiber, fc: number): number {
    if (fc >= fiber.frameBudget) throw new Fault(budgetMessage('call depth', fiber.budgets, fiber.runKind), 'call depth');
    fiber.growFrames(fc + 1);
    return Math.min(fiber.frameIps.length, fiber.frameBudget);
  }

  /**
   * growStack for a call: growing the value stack is work in proportion to the slots added,
   * charged as fuel. Returns the fuel left. Out of line, so the CALL paths stay short (the
   * inline version cost fib ~8%).
   */
  private growStackCharged(fiber: Fiber, needed: number, fuel: number): number {
    const before = fiber.stack.length;
    this.growStack(fiber, needed);
    const left = fuel - (fiber.stack.length - before);
    if (left < 0) {
      fiber.fuel = left; // fail() keeps the lower of this and the loop's copy
      throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
    }
    return left;
  }

  private growStack(fiber: Fiber, needed: number): void {
    if (needed > fiber.budgets.maxStack) throw new Fault(budgetMessage('stack', fiber.budgets, fiber.runKind), 'stack');
    fiber.growStack(Math.min(needed, fiber.budgets.maxStack));
  }

  // ---------------------------------------------------------------- host calls and other slow paths

  /** Check the arguments against the spec, call the implementation, and turn whatever it throws into a Fault. */
  private callHost(fiber: Fiber, host: ObjHostFunction, argBase: number, argc: number): Value {
    const stack = fiber.stack;
    if (!host.unchecked) {
      const checks = host.checks;
      for (let i = 0; i < argc; i++) {
        if (!matchesParam(checks[i] as 0, stack[argBase + i]!)) {
          const param = host.host.params[i]!;
          throw new Fault(`Argument ${i + 1} of ${host.name}() must be ${describeType(param.type)}.`);
        }
      }
    }
    if (host.chargesBefore) chargeBeforeHost(fiber, host, stack, argBase, argc);
    const ctx = this.ctx;
    const savedFiber = ctx.fiber;
    const savedFn = ctx.fn;
    const savedIp = ctx.ip;
    ctx.fiber = fiber;
    ctx.suspendRequested = false;
    const impl = host.impl;
    let result: Value;
    try {
      switch (argc) {
        case 0:
          result = impl(ctx);
          break;
        case 1:
          result = impl(ctx, stack[argBase]!);
          break;
        case 2:
          result = impl(ctx, stack[argBase]!, stack[argBase + 1]!);
          break;
        case 3:
          result = impl(ctx, stack[argBase]!, stack[argBase + 1]!, stack[argBase + 2]!);
          break;
        case 4:
          result = impl(ctx, stack[argBase]!, stack[argBase + 1]!, stack[argBase + 2]!, stack[argBase + 3]!);
          break;
        default:
          result = impl(ctx, ...stack.slice(argBase, argBase + argc));
      }
    } catch (error) {
      ctx.suspendRequested = false;
      ctx.fiber = savedFiber;
      ctx.fn = savedFn;
      ctx.ip = savedIp;
      throw hostFault(error, `Host function '${host.name}' failed`);
    }
    ctx.fiber = savedFiber;
    ctx.fn = savedFn;
    ctx.ip = savedIp;
    const budgets = fiber.budgets;
    if (fiber.fuel < 0 || fiber.heapUsed > budgets.maxHeap || fiber.outputUsed > budgets.maxOutput) checkBudgetsAfterHost(fiber);
    return typeof result === 'number' ? result : checkHostResult(result, host.name);
  }

  /** INVOKE on something other than an instance: string / list / map methods, host object methods. */
  private invokeOther(fiber: Fiber, receiver: Value, name: string, argBase: number, argc: number): Value {
    const methods = methodsOf(receiver);
    if (methods !== null) {
      const method = methods.get(name);
      if (method === undefined) throw new Fault(noSuchMethod(receiver, name, 'methods'));
      return this.callBuiltinMethod(fiber, method, receiver, argBase, argc);
    }
    if (isHostObject(receiver)) {
      const ctx = this.ctx;
      const savedFiber = ctx.fiber;
      ctx.fiber = fiber;
      ctx.suspendRequested = false;
      let result: Value | undefined;
      try {
        result = receiver.invokeMethod(name, fiber.stack.slice(argBase, argBase + argc), ctx);
      } catch (error) {
        ctx.suspendRequested = false;
        throw hostFault(error, `Method '${name}' of ${receiver.hostType} failed`);
      } finally {
        ctx.fiber = savedFiber;
      }
      if (result === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
      checkBudgetsAfterHost(fiber);
      return checkHostResult(result, name);
    }
    throw new Fault('Only instances have methods.');
  }

  /** A built-in method of a string, list or map (vm/method-dispatch.ts), charged like a host call. */
  private callBuiltinMethod(fiber: Fiber, method: MethodRow<never>, receiver: Value, argBase: number, argc: number): Value {
    const stack = fiber.stack;
    const ctx = this.ctx;
    const savedFiber = ctx.fiber;
    ctx.fiber = fiber;
    let result: Value;
    try {
      result = callMethod(ctx, method, receiver, argc, argc > 0 ? stack[argBase]! : undefined, argc > 1 ? stack[argBase + 1]! : undefined);
    } catch (error) {
      throw hostFault(error, `Method '${method.name}' failed`);
    } finally {
      ctx.fiber = savedFiber;
    }
    checkBudgetsAfterHost(fiber);
    return result;
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

/** The upvalues of a closure with none: shared, never written. */
const NO_UPVALUES: ObjUpvalue[] = [];

/** Open-upvalue entries the last captureUpvalues walked past (CLOSURE charges them as fuel). */
let captureWalk = 0;
/** Upvalue objects the last captureUpvalues created (CLOSURE charges them as heap). */
let captureCreated = 0;

/**
 * CLOSURE's captures. The open-upvalue list is sorted by decreasing stack slot, so the
 * locals are captured in that order (`captureOrder`) in ONE walk down the list: a
 * closure over n locals costs O(n + the frame's open upvalues), never n² (each capture
 * restarting the walk, as clox does, was quadratic). New upvalue objects are heap.
 */
function captureUpvalues(fiber: Fiber, target: ObjFunction, enclosing: ObjClosure, base: number): ObjUpvalue[] {
  const descriptors = target.proto.upvalues;
  const upvalues = new Array<ObjUpvalue>(descriptors.length);
  const order = target.captureOrder;
  let previous: ObjUpvalue | null = null;
  let cursor = fiber.openUpvalues;
  let walked = 0;
  let created = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const slot = base + descriptors[i]!.index;
    while (cursor !== null && cursor.index > slot) {
      previous = cursor;
      cursor = cursor.next;
      walked++;
    }
    if (cursor === null || cursor.index !== slot) {
      created++;
      const fresh = new ObjUpvalue(fiber.stack, slot);
      fresh.next = cursor;
      if (previous === null) fiber.openUpvalues = fresh;
      else previous.next = fresh;
      cursor = fresh;
    }
    upvalues[i] = cursor;
  }
  for (let i = 0; i < descriptors.length; i++) {
    const d = descriptors[i]!;
    if (!d.isLocal) upvalues[i] = enclosing.upvalues[d.index]!;
  }
  captureWalk = walked;
  captureCreated = created;
  return upvalues;
}

/**
 * Charge the heap budget for an allocation the interpreter makes. Returns the fuel a
 * retained-heap budget spent measuring (0 but in that rare case), for the caller to take
 * from its `fuel` — subtracted, never assigned from the call: a `fuel` local merged with a
 * call's result at every allocation lost its unboxed form, and programs that allocate
 * ran ~10% slower.
 */
function chargeHeap(fiber: Fiber, units: number, fuel: number): number {
  fiber.heapUsed += units;
  return fiber.heapUsed > fiber.budgets.maxHeap ? heapOverflow(fiber, fuel) : 0;
}

/** Charge the output budget for text sent out (print). */
function chargeOutput(fiber: Fiber, chars: number): void {
  fiber.outputUsed += chars;
  if (fiber.outputUsed > fiber.budgets.maxOutput) throw new Fault(budgetMessage('output', fiber.budgets, fiber.runKind), 'output');
}

/** Close every open upvalue at or above stack slot `last`. */
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

function closeUpvalues(fiber: Fiber, last: number): void {
  let upvalue = fiber.openUpvalues;
  while (upvalue !== null && upvalue.index >= last) {
    const next: ObjUpvalue | null = upvalue.next;
    upvalue.close();
    upvalue.next = null;
    upvalue = next;
  }
  fiber.openUpvalues = upvalue;
}

/** INHERIT: copy the superclass's methods down (clox), so lookups never walk the chain. */
function inherit(subclass: ObjClass, superclass: ObjClass): void {
  for (const [name, method] of superclass.methods) subclass.methods.set(name, method);
  subclass.superclass = superclass;
  subclass.initializer = superclass.initializer;
}

/** A valid list index, or a Fault explaining why not. */
function checkIndex(list: ObjList, index: Value): number {
  if (typeof index !== 'number') throw new Fault('List index must be a number.');
  if (!Number.isInteger(index)) throw new Fault('List index must be a whole number.');
  if (index < 0 || index >= list.items.length) throw new Fault('List index out of range.');
  return index;
}

function indexError(_value: Value): never {
  throw new Fault('Only lists and maps can be indexed.');
}

/** `map[key]`: the value, or a Fault naming the missing key (docs/decisions.md: why not nil). */
function getMapEntry(map: Value, key: Value): Value {
  if (!(map instanceof ObjMap)) indexError(map);
  const value = map.get(key);
  if (value !== undefined) return value;
  const problem = mapKeyProblem(key);
  throw new Fault(problem ?? missingKeyMessage(key));
}

/** `map[key] = value` (and map literals): true when the key is new (one more entry of heap). */
function setMapEntry(map: Value, key: Value, value: Value): boolean {
  if (!(map instanceof ObjMap)) indexError(map);
  const problem = mapKeyProblem(key);
  if (problem !== null) throw new Fault(problem);
  return map.set(key, value);
}

/** GET_PROPERTY on an instance, missing the inline cache: look up, then cache a field hit. */
function getInstanceProperty(fn: ObjFunction, at: number, object: ObjInstance, name: string): Value {
  const shape = object.shape;
  if (!object.isDictionary) {
    const slot = shape.slotOf(name);
    if (slot >= 0) {
      fn.icShape[at] = shape;
      fn.icSlot[at] = slot;
      return object.values[slot]!;
    }
  } else {
    const field = object.getField(name);
    if (field !== undefined) return field;
  }
  const method = object.klass.methods.get(name);
  if (method === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
  return new ObjBoundMethod(object, method);
}

/**
 * SET_PROPERTY missing the inline cache: store, then cache the (shape, slot, next shape) it took.
 * Returns the cost of the store (ObjInstance.setField): 0 for an existing field.
 */
function setProperty(fn: ObjFunction, at: number, object: Value, name: string, value: Value): number {
  if (!(object instanceof ObjInstance)) {
    setOtherProperty(object, name, value);
    return 0;
  }
  const before = object.shape;
  const cost = object.setField(name, value);
  if (object.isDictionary) return cost;
  fn.icShape[at] = before;
  fn.icSlot[at] = before.slotOf(name) >= 0 ? before.slotOf(name) : object.shape.slotOf(name);
  fn.icNext[at] = object.shape;
  return cost;
}

function getOtherProperty(object: Value, name: string): Value {
  if (isHostObject(object)) {
    let value: Value | undefined;
    try {
      value = object.getProperty(name);
    } catch (error) {
      throw hostFault(error, `Property '${name}' of ${object.hostType} failed`);
    }
    if (value === undefined) throw new Fault(`Undefined property ${quoted(name)}.`);
    return checkHostResult(value, name);
  }
  const methods = methodsOf(object);
  if (methods !== null) {
    const method = methods.get(name);
    if (method !== undefined) return new ObjBoundMethod(object, method);
    throw new Fault(noSuchMethod(object, name, 'properties'));
  }
  throw new Fault('Only instances have properties.');
}

/**
 * An unknown name on a string keeps the book's message ("Only instances have
 * properties.": Lox's field/get_on_string test); lists and maps say which name.
 */
function noSuchMethod(receiver: Value, name: string, what: 'methods' | 'properties'): string {
  return typeof receiver === 'string' ? `Only instances have ${what}.` : `Undefined property ${quoted(name)}.`;
}

function setOtherProperty(object: Value, name: string, value: Value): void {
  if (!isHostObject(object)) throw new Fault('Only instances have fields.');
  try {
    object.setProperty(name, value);
  } catch (error) {
    throw hostFault(error, `Property '${name}' of ${object.hostType} failed`);
  }
}

/**
 * `a + b` for strings. V8 makes a rope (ConsString) of any result of 13 characters or more, and
 * comparing a rope calls into the runtime every time (string_equality ran 4-8x slower than Lua's
 * interned strings). Short results are flattened once here instead; long ones stay ropes, so
 * building a long string piece by piece stays linear.
 */
function concatStrings(a: string, b: string): string {
  const s = a + b;
  // Reading a rope as a number flattens it in place; the store keeps the optimizer from dropping it.
  if (s.length <= FLAT_CONCAT_LIMIT) flattenSink = Number(s);
  return s;
}

const FLAT_CONCAT_LIMIT = 256;
let flattenSink = 0;

/**
 * Whether `a == b` is plain `===` that EQUAL would compute without charging fuel: no host objects
 * (they have their own equals) and not two long strings of one length (EQUAL charges for those).
 */
function plainEquality(a: Value, b: Value): boolean {
  if (typeof a === 'string') return typeof b !== 'string' || a.length <= 64 || a.length !== b.length;
  return !isHostObject(a) && !isHostObject(b);
}

function hostEquals(a: HostObject, b: HostObject): boolean {
  try {
    return a.equals(b) === true;
  } catch (error) {
    throw hostFault(error, `Comparing ${a.hostType} failed`);
  }
}

/** Host functions must return spell values; `undefined` means nil. Anything else JS-only is refused. */
function checkHostResult(result: Value | undefined, name: string): Value {
  if (result === undefined || result === null) return null;
  const type = typeof result;
  if (type === 'number' || type === 'string' || type === 'boolean') return result;
  if (type === 'object' && typeof (result as VmObject).objectType === 'string') return result;
  throw new Fault(`Host function '${name}' returned a value spells cannot use.`);
}

/** A host function may swallow the budget error it caused; the budget is still spent. */
function checkBudgetsAfterHost(fiber: Fiber): void {
  if (fiber.fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
  if (fiber.heapUsed > fiber.budgets.maxHeap) throw new Fault(budgetMessage('heap', fiber.budgets, fiber.runKind), 'heap');
  if (fiber.outputUsed > fiber.budgets.maxOutput) throw new Fault(budgetMessage('output', fiber.budgets, fiber.runKind), 'output');
}

/**
 * Before a host call: its base fuel (the spec's `fuel`), and 1 fuel per character of its string
 * arguments (it may hash, copy or scan them).
 */
function chargeBeforeHost(fiber: Fiber, host: ObjHostFunction, stack: readonly Value[], argBase: number, argc: number): void {
  let chars = host.baseFuel;
  if (host.takesText) {
    for (let i = 0; i < argc; i++) {
      const arg = stack[argBase + i];
      if (typeof arg === 'string') chars += arg.length;
    }
  }
  fiber.fuel -= chars;
  if (fiber.fuel < 0) throw new Fault(budgetMessage('fuel', fiber.budgets, fiber.runKind), 'fuel');
}

function hostFault(error: unknown, context: string): Fault {
  if (error instanceof Fault) return error;
  if (error instanceof BudgetExceeded) return new Fault(error.message, error.limit);
  if (error instanceof HostError) return new Fault(error.message);
  if (error instanceof SpellRuntimeError) return new Fault(error.message, error.limit);
  return new Fault(`${context}: ${safeMessage(error)}`);
}

function safeMessage(error: unknown): string {
  try {
    if (error instanceof Error) return error.message;
    return String(error);
  } catch {
    return 'unknown error';
  }
}

function describeFailure(error: unknown, fiber: Fiber): { message: string; limit: BudgetLimit | null } {
  if (error instanceof Fault) return { message: error.message, limit: error.limit };
  if (error instanceof BudgetExceeded) return { message: error.message, limit: error.limit };
  if (error instanceof RangeError && /call stack|string length|array length/i.test(error.message)) {
    // The JS engine's own limits (a huge string, a runaway host): report them as the heap budget.
    return { message: budgetMessage('heap', fiber.budgets, fiber.runKind), limit: 'heap' };
  }
  return { message: `Internal error: ${safeMessage(error)}`, limit: null };
}
