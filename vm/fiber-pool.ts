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

  /** Give `fiber` (which has none) a stack of at least `stackSlots` slots and frame arrays. */
  lend(fiber: Fiber, stackSlots: number): void {
    if (this.size === 0) {
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

  /** Take back a finished fiber's storage, cleared; the fiber is left with none. */
  reclaim(fiber: Fiber): void {
    const stack = fiber.stack;
    if (stack === NO_STACK) return;
    if (this.size < MAX_POOLED) {
      if (stack.length > KEEP_STACK) stack.length = KEEP_STACK;
      for (let i = 0; i < stack.length; i++) stack[i] = null;
      let closures = fiber.frameClosures;
      let ips = fiber.frameIps;
      let bases = fiber.frameBases;
      if (ips.length > KEEP_FRAMES) {
        ips = ips.slice(0, KEEP_FRAMES);
        bases = bases.slice(0, KEEP_FRAMES);
        closures.length = KEEP_FRAMES;
      }
      // Frames are pushed from 0 up and each sets its closure: the ones used are the non-null prefix.
      for (let i = 0; i < closures.length && closures[i] !== null; i++) closures[i] = null;
      const at = this.size++;
      this.stacks[at] = stack;
      this.closures[at] = closures;
      this.ips[at] = ips;
      this.bases[at] = bases;
    }
    fiber.release();
  }

  /** A fiber object for a run nobody holds a handle to: a spare one reset, or a new one. */
  fiber(budgets: Readonly<Budgets>, spell: string | null, runKind: RunKind): Fiber {
    if (this.spareFibers === 0) return new Fiber(budgets, spell, runKind);
    const fiber = this.fibers[--this.spareFibers]!;
    fiber.reset(budgets, spell, runKind);
    return fiber;
  }

  /** Keep a finished fiber object (its storage already reclaimed) for the next `fiber()`. */
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
    return true;
  }
}
