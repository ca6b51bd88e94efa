/**
 * A fiber: one run of spell code (the top-level script, a cast, a call) with
 * its own value stack and call frames, so a host function can suspend it
 * (`wait`) and the embedder resume it later while other fibers run.
 *
 * Frames are parallel arrays (typed arrays for ip and base, an array for
 * closures): calling a function allocates nothing.
 *
 * The stack and frame arrays are *storage* the VM lends from its
 * FiberStoragePool (vm/fiber-pool.ts) when the fiber starts and takes back
 * when it finishes (done or failed): starting a cast allocates no arrays, and
 * a finished fiber holds no storage (its arrays are the shared empty ones).
 *
 * What a suspended (or paused) fiber holds — its whole saved state, which is
 * what a snapshot of it must capture:
 *
 *   - `stack[0 .. sp)`: the value stack. Slot 0 is the VM's hidden entry
 *     trampoline (a closure whose function index is -1, see VM.trampoline),
 *     slot 1 the callee, then the frames' locals and temporaries. Slots at and
 *     above `sp` are scratch (null or stale; never read).
 *   - `frameClosures[0 .. frameCount)`, `frameIps[0 .. frameCount)`,
 *     `frameBases[0 .. frameCount)`: the call frames, outermost first. Frame 0
 *     is the trampoline. For every frame but the innermost, `frameIps[i]` is
 *     the return address (just after its CALL); for the innermost it is where
 *     execution continues (just after the host call that suspended it, whose
 *     result `VM.resume` pushes; or, when paused, the BREAK to run).
 *   - `openUpvalues`: the open upvalues pointing into `stack`, by decreasing slot.
 *   - `fuel`, `heapUsed`, `outputUsed`, `retained`, `budgets`, `spell`,
 *     `runKind`, `live`, `debugSkipBreak`, `userData`.
 *
 * Budgets bound a *slice*: the run from a start or a resume to the next
 * suspension (a `wait`) or the end. `VM.resume` gives the fiber its whole
 * fuel and output budgets again, and starts its heap count from `retained`,
 * what it kept alive across the wait (measured when it suspended:
 * vm/retained-heap.ts).
 *
 * To rebuild one (restoring a snapshot): `new Fiber(budgets, spell, runKind)`,
 * then `growStack(n)` / `growFrames(n)` to give it storage of its own (the
 * shared empty arrays are never written), fill the fields above and set
 * `state = 'suspended'`. When it finishes, the VM takes its storage into the
 * pool like any other fiber's.
 */

import type { Budgets, RunKind } from './budgets.js';
import type { SpellRuntimeError, TraceFrame } from './errors.js';
import type { ObjClosure, ObjUpvalue } from './objects.js';
import type { Value } from './value.js';

export type FiberState = 'running' | 'suspended' | 'done' | 'failed' | 'paused';

/** The storage of a fiber that has none (not started, or finished). Never written: growing replaces them. */
export const NO_STACK: Value[] = [];
export const NO_CLOSURES: (ObjClosure | null)[] = [];
export const NO_FRAMES = new Int32Array(0);

/** Frames a fiber's storage starts with when it has none. */
export const INITIAL_FRAMES = 16;

export class Fiber {
  /** 'running' only while the VM executes it (a host function may see it). */
  state: FiberState = 'running';
  /** What the entry function returned, once 'done'. */
  result: Value = null;
  /** Why the fiber failed, once 'failed'. */
  error: SpellRuntimeError | null = null;
  /** Free for the embedder (the world keeps the caster here, for example). */
  userData: unknown = undefined;
  /** The spell being cast, or null for the script and plain calls. */
  spell: string | null;
  /** What this fiber runs, for messages ("Out of fuel: the script ran …"). */
  runKind: RunKind;
  budgets: Readonly<Budgets>;

  /** Value stack; grows on call, never replaced while the fiber lives (open upvalues point into it). */
  stack: Value[] = NO_STACK;
  sp = 0;
  frameClosures: (ObjClosure | null)[] = NO_CLOSURES;
  frameIps: Int32Array = NO_FRAMES;
  frameBases: Int32Array = NO_FRAMES;
  frameCount = 0;
  /** Open upvalues, sorted by decreasing stack slot (clox's list). */
  openUpvalues: ObjUpvalue | null = null;

  /** Frames allowed: the call-depth budget plus the hidden entry trampoline. */
  frameBudget: number;
  /**
   * Fuel left this slice; the interpreter keeps it in a local while running and stores it back.
   * Initialised here, a number from the start: declared without a value, the field was first
   * `undefined`, V8 kept it as a tagged field, and every store of a fuel that is not a small
   * integer (`cantrip run`'s unlimited fuel is Infinity) allocated a heap number — several per call.
   */
  fuel = 0;
  /** Heap units (vm/costs.ts) counted against maxHeap this slice: what it kept across its last wait, plus what it allocated since. */
  heapUsed = 0;
  /** Heap units it kept alive across its last suspension, measured then (0 before it ever waited). */
  retained = 0;
  /**
   * Set when this fiber's heap budget counts what it retains rather than what
   * it allocates (a VM made with `heapCounts: 'retained'`, as `cantrip run`
   * does): the module's globals, measured with the fiber's own roots when
   * `heapUsed` reaches maxHeap (vm/retained-heap.ts `heapOverflow`). Null: by allocation.
   */
  retainedRoots: readonly Value[] | null = null;
  /** Characters of text sent out this slice (print, say, sound, particles), against budgets.maxOutput. */
  outputUsed = 0;
  /** Whether this fiber still counts against the VM's live-fiber budget. */
  live = true;

  /**
   * Whether this fiber object belongs to the VM's pool of spare fibers (runs
   * started by callFast / castFast that nobody holds): its storage stays with
   * it between runs. False once it is handed to the embedder (it suspended or
   * paused), and for every fiber `call`, `cast` or a snapshot makes.
   */
  poolOwned = false;

  /**
   * Whether this fiber belongs to a FastLoop (vm/fast-loop.ts) between its
   * runs: a finished run leaves its storage as it is (the loop clears it when
   * closed). False once a cast on it waits or pauses and it is handed over.
   */
  loopOwned = false;

  /** Set when resuming from a debugger pause: the BREAK it paused at runs its original instruction (vm/debugger.ts). */
  debugSkipBreak = false;

  constructor(budgets: Readonly<Budgets>, spell: string | null, runKind: RunKind = spell === null ? 'call' : 'cast') {
    this.budgets = budgets;
    this.spell = spell;
    this.runKind = runKind;
    this.fuel = budgets.fuel;
    this.frameBudget = budgets.maxFrames + 1;
    // Every per-run field stored a second time, now. V8 treats a field stored only once (its
    // initializer) as constant and optimized code relies on that; the first store after it (the
    // first run's end: `release` clearing openUpvalues, `finish` setting result and live, the
    // first print's outputUsed) made the field mutable for every Fiber of the process and threw
    // away the code that had relied on it, the interpreter's and every compiled function's (fib's
    // was optimized during the first run of the language suite, deoptimized at its end, and its
    // next run waited for TurboFan again). Stored twice here, they are mutable before any of it is
    // optimized.
    this.reset(budgets, spell, runKind);
  }

  /**
   * Make this (finished) fiber object a fresh one for another run: the VM
   * reuses fiber objects for runs nobody holds a handle to (callFast,
   * castFast). Every per-run field is set here, as the constructor does: a
   * new per-run field must be reset here too (fiber-pool.test.ts checks the
   * budgets start afresh).
   */
  reset(budgets: Readonly<Budgets>, spell: string | null, runKind: RunKind): void {
    this.state = 'running';
    this.result = null;
    this.error = null;
    this.userData = undefined;
    this.spell = spell;
    this.runKind = runKind;
    this.budgets = budgets;
    this.fuel = budgets.fuel;
    this.frameBudget = budgets.maxFrames + 1;
    this.heapUsed = 0;
    this.retained = 0;
    this.retainedRoots = null;
    this.outputUsed = 0;
    this.live = true;
    this.debugSkipBreak = false;
    this.sp = 0;
    this.frameCount = 0;
    this.openUpvalues = null;
  }

  /** Whether the fiber can still run (suspended by a host function or paused by the debugger). */
  get isAlive(): boolean {
    return this.state === 'suspended' || this.state === 'paused' || this.state === 'running';
  }

  /** Make room for at least `needed` frames. */
  growFrames(needed: number): void {
    let capacity = Math.max(this.frameIps.length, INITIAL_FRAMES);
    while (capacity < needed) capacity *= 2;
    if (capacity === this.frameIps.length) return;
    const ips = new Int32Array(capacity);
    ips.set(this.frameIps);
    const bases = new Int32Array(capacity);
    bases.set(this.frameBases);
    this.frameIps = ips;
    this.frameBases = bases;
    if (this.frameClosures === NO_CLOSURES) this.frameClosures = [];
    while (this.frameClosures.length < capacity) this.frameClosures.push(null);
  }

  /**
   * Make the value stack at least `needed` slots long (doubling, so growth is
   * amortized). The interpreter writes only below `stack.length`, so the
   * length is also how much of the stack a run may have dirtied.
   */
  growStack(needed: number): void {
    // Built by push so the array is PACKED (no hole checks on every load).
    if (this.stack === NO_STACK) this.stack = [];
    const stack = this.stack;
    if (stack.length >= needed) return;
    const target = Math.max(needed, stack.length * 2);
    while (stack.length < target) stack.push(null);
  }

  /** The call stack innermost-first, from the saved frame ips (`topIp` for the innermost frame). */
  trace(topIp: number): TraceFrame[] {
    const frames: TraceFrame[] = [];
    for (let i = this.frameCount - 1; i >= 0; i--) {
      const closure = this.frameClosures[i];
      // Skip the VM's hidden entry trampolines (function index -1).
      if (!closure || closure.fn.index < 0) continue;
      const ip = i === this.frameCount - 1 ? topIp : this.frameIps[i]!;
      const fn = closure.fn;
      const line = fn.lines[Math.max(0, Math.min(ip - 1, fn.lines.length - 1))] ?? 0;
      frames.push({ functionName: fn.name, line });
    }
    return frames;
  }

  /** Whether the fiber holds storage (a stack and frames) of its own. */
  get hasStorage(): boolean {
    return this.stack !== NO_STACK;
  }

  /** Drop the storage (after the pool took it back, or to let it be collected): a finished fiber keeps nothing alive. */
  release(): void {
    this.stack = NO_STACK;
    this.frameClosures = NO_CLOSURES;
    this.frameIps = NO_FRAMES;
    this.frameBases = NO_FRAMES;
    this.frameCount = 0;
    this.sp = 0;
    this.openUpvalues = null;
  }
}
