/**
 * A fiber: one run of spell code (the top-level script, a cast, a call) with
 * its own value stack and call frames, so a host function can suspend it
 * (`wait`) and the embedder resume it later while other fibers run.
 *
 * Frames are parallel preallocated arrays (typed arrays for ip and base, an
 * array for closures): calling a function allocates nothing.
 */

import type { Budgets, RunKind } from './budgets.js';
import type { SpellRuntimeError, TraceFrame } from './errors.js';
import type { ObjClosure, ObjUpvalue } from './objects.js';
import type { Value } from './value.js';

export type FiberState = 'running' | 'suspended' | 'done' | 'failed' | 'paused';

const INITIAL_FRAMES = 16;
const INITIAL_STACK = 256;

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
  readonly spell: string | null;
  /** What this fiber runs, for messages ("Out of fuel: the script ran …"). */
  readonly runKind: RunKind;
  readonly budgets: Readonly<Budgets>;

  /** Value stack; grows on call, never replaced (open upvalues point into it). */
  readonly stack: Value[];
  sp = 0;
  frameClosures: (ObjClosure | null)[];
  frameIps: Int32Array;
  frameBases: Int32Array;
  frameCount = 0;
  /** Open upvalues, sorted by decreasing stack slot (clox's list). */
  openUpvalues: ObjUpvalue | null = null;

  /** Frames allowed: the call-depth budget plus the hidden entry trampoline. */
  readonly frameBudget: number;
  /** Fuel left; the interpreter keeps it in a local while running and stores it back. */
  fuel: number;
  /** Heap units (vm/costs.ts) allocated so far. */
  heapUsed = 0;
  /** Characters of text sent out so far (print, say, sound, particles), against budgets.maxOutput. */
  outputUsed = 0;
  /** Whether this fiber still counts against the VM's live-fiber budget. */
  live = true;

  /** Set when resuming from a debugger pause: the BREAK it paused at runs its original instruction (vm/debugger.ts). */
  debugSkipBreak = false;

  constructor(budgets: Readonly<Budgets>, spell: string | null, runKind: RunKind = spell === null ? 'call' : 'cast') {
    this.budgets = budgets;
    this.spell = spell;
    this.runKind = runKind;
    this.fuel = budgets.fuel;
    this.frameBudget = budgets.maxFrames + 1;
    // Built by push so the array is PACKED (no hole checks on every load).
    this.stack = [];
    for (let i = 0; i < INITIAL_STACK; i++) this.stack.push(null);
    this.frameClosures = [];
    for (let i = 0; i < INITIAL_FRAMES; i++) this.frameClosures.push(null);
    this.frameIps = new Int32Array(INITIAL_FRAMES);
    this.frameBases = new Int32Array(INITIAL_FRAMES);
  }

  /** Whether the fiber can still run (suspended by a host function or paused by the debugger). */
  get isAlive(): boolean {
    return this.state === 'suspended' || this.state === 'paused' || this.state === 'running';
  }

  /** Make room for at least `needed` frames. */
  growFrames(needed: number): void {
    let capacity = this.frameIps.length;
    while (capacity < needed) capacity *= 2;
    const ips = new Int32Array(capacity);
    ips.set(this.frameIps);
    const bases = new Int32Array(capacity);
    bases.set(this.frameBases);
    this.frameIps = ips;
    this.frameBases = bases;
    while (this.frameClosures.length < capacity) this.frameClosures.push(null);
  }

  /** Make the value stack at least `needed` slots long. */
  growStack(needed: number): void {
    const stack = this.stack;
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

  /** Drop references so a finished fiber keeps nothing alive. */
  release(): void {
    this.stack.length = 0;
    this.frameClosures.fill(null);
    this.frameCount = 0;
    this.sp = 0;
    this.openUpvalues = null;
  }
}
