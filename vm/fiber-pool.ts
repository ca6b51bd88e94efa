/**
 * The Object Pool pattern applied to the VM itself: fibers' stacks and frame
 * arrays are lent when a run starts and taken back when it finishes, so a
 * call or cast that does not suspend allocates no arrays. Fiber objects for
 * runs nobody keeps a handle to (VM.invoke) are pooled too.
 *
 * A run holds its storage from start to finish; a suspended or paused fiber
 * keeps it until it is resumed to the end or cancelled. Storage comes back
 * cleared (no value of an old run stays reachable from the pool, and none is
 * seen by the next), at most KEEP_STACK slots long, and the pool keeps at most
 * MAX_POOLED of each, so what it holds is bounded.
 */

import type { Budgets, RunKind } from './budgets.js';
import { Fiber, INITIAL_FRAMES, NO_STACK } from './fiber.js';
import type { ObjClosure } from './objects.js';
import type { Value } from './value.js';

/**
 * Slots a new stack starts with: enough for a small spell and a call or two.
 * Small on purpose: a returning stack is cleared over its whole length (the
 * interpreter writes only below it), so a stack is as long as the biggest
 * run that used it needed, no longer.
 */
export const INITIAL_STACK = 16;
/** A stack longer than this (a deep recursion grew it) is cut back to this length when it returns. */
export const KEEP_STACK = 256;
/** Frames kept when a grown frame array returns. */
export const KEEP_FRAMES = 64;
/** Storage sets (and spare fiber objects) the pool keeps; more are left to the garbage collector. */
export const MAX_POOLED = 1024;

export class FiberStoragePool {
  // Parallel arrays, used as stacks with an explicit size so pooling never allocates (and never shrinks them).
  private readonly stacks: Value[][] = [];
  private readonly closures: (ObjClosure | null)[][] = [];
  private readonly ips: Int32Array[] = [];
  private readonly bases: Int32Array[] = [];
  private size = 0;
  private readonly fibers: Fiber[] = [];
  private spareFibers = 0;

  /** Storage sets waiting to be lent. */
  get pooled(): number {
    return this.size;
  }

  /** Give `fiber` a stack of at least `stackSlots` slots and frame arrays (a spare fiber may still have its own). */
  lend(fiber: Fiber, stackSlots: number): void {
    if (fiber.stack !== NO_STACK) {
      if (fiber.stack.length < stackSlots) fiber.growStack(stackSlots);
    } else if (this.size === 0) {
      fiber.growStack(Math.max(stackSlots, INITIAL_STACK));
      fiber.growFrames(INITIAL_FRAMES);
    } else {
      const i = --this.size;
      fiber.stack = this.stacks[i]!;
      fiber.frameClosures = this.closures[i]!;
      fiber.frameIps = this.ips[i]!;
      fiber.frameBases = this.bases[i]!;
      if (fiber.stack.length < stackSlots) fiber.growStack(stackSlots);
    }
  }

  /**
   * Take back a finished fiber's storage, cleared. A spare fiber of the pool
   * (`fiber.poolOwned`) keeps it, cleared, for its next run; any other is
   * left with none.
   */
  reclaim(fiber: Fiber): void {
    if (fiber.stack === NO_STACK) return;
    if (fiber.loopOwned) {
      // A FastLoop's fiber between runs: its storage stays with it, cleared when the loop is closed.
      fiber.frameCount = 0;
      fiber.sp = 0;
      return;
    }
    if (fiber.poolOwned) {
      clearStorage(fiber);
      return;
    }
    if (this.size < MAX_POOLED) {
      clearStorage(fiber);
      const at = this.size++;
      this.stacks[at] = fiber.stack;
      this.closures[at] = fiber.frameClosures;
      this.ips[at] = fiber.frameIps;
      this.bases[at] = fiber.frameBases;
    }
    fiber.release();
  }

  /** A fiber object for a run nobody holds a handle to: a spare one reset (with its storage), or a new one. */
  fiber(budgets: Readonly<Budgets>, spell: string | null, runKind: RunKind): Fiber {
    if (this.spareFibers === 0) {
      const fiber = new Fiber(budgets, spell, runKind);
      fiber.poolOwned = true;
      return fiber;
    }
    const fiber = this.fibers[--this.spareFibers]!;
    fiber.reset(budgets, spell, runKind);
    return fiber;
  }

  /** A fiber from `fiber()` that goes on (suspended, paused): someone holds it now, and its storage returns to the pool when it ends. */
  handOver(fiber: Fiber): void {
    fiber.poolOwned = false;
  }

  /** Keep a finished fiber object from `fiber()` (its storage cleared) for the next `fiber()`. */
  recycle(fiber: Fiber): void {
    fiber.result = null;
    fiber.error = null;
    fiber.userData = undefined;
    if (this.spareFibers < MAX_POOLED) this.fibers[this.spareFibers++] = fiber;
  }

  /** Whether every pooled stack and frame array is clean (for tests: no run leaves values behind). */
  isClean(): boolean {
    for (let i = 0; i < this.size; i++) {
      if (this.stacks[i]!.some((v) => v !== null)) return false;
      if (this.closures[i]!.some((c) => c !== null)) return false;
    }
    for (let i = 0; i < this.spareFibers; i++) {
      const fiber = this.fibers[i]!;
      if (fiber.stack.some((v) => v !== null) || fiber.frameClosures.some((c) => c !== null)) return false;
      if (fiber.result !== null || fiber.error !== null || fiber.openUpvalues !== null) return false;
    }
    return true;
  }
}

/** Null every slot a run may have written (the interpreter writes only below the stack's length), cutting a grown stack back. */
function clearStorage(fiber: Fiber): void {
  const stack = fiber.stack;
  if (stack.length > KEEP_STACK) stack.length = KEEP_STACK;
  for (let i = 0; i < stack.length; i++) stack[i] = null;
  const closures = fiber.frameClosures;
  if (fiber.frameIps.length > KEEP_FRAMES) {
    fiber.frameIps = fiber.frameIps.slice(0, KEEP_FRAMES);
    fiber.frameBases = fiber.frameBases.slice(0, KEEP_FRAMES);
    closures.length = KEEP_FRAMES;
  }
  // Frames are pushed from 0 up and each sets its closure: the ones used are the non-null prefix.
  for (let i = 0; i < closures.length && closures[i] !== null; i++) closures[i] = null;
  fiber.frameCount = 0;
  fiber.sp = 0;
}
