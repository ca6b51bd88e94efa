/** A call from compiled code: the frame pushed as the interpreter pushes it, then the callee's compiled code. */

import type { Fiber } from '../fiber.js';
import { Fault, fuelFault } from '../interpreter/fault.js';
import { growFrames, growStackCharged } from '../interpreter/frames.js';
import type { InterpreterVM } from '../interpreter/interpreter-vm.js';
import type { ObjClosure } from '../objects.js';
import { COMPILED_DEPTH_LIMIT, UNWOUND, type CompiledStatus } from './statuses.js';

/**
 * Call `closure` with the `argc` arguments on the fiber's stack (its registers
 * in the fiber), returning to `returnIp` in the caller. The same checks and
 * charges as the interpreter's call, in the same order.
 */
export function enterCompiled(vm: InterpreterVM, fiber: Fiber, closure: ObjClosure, argc: number, returnIp: number): CompiledStatus {
  const fn = closure.fn;
  if (argc !== fn.arity) throw new Fault(`Expected ${fn.arity} arguments but got ${argc}.`);
  const fc = fiber.frameCount;
  if (fc >= Math.min(fiber.frameIps.length, fiber.frameBudget)) growFrames(fiber, fc);
  fiber.fuel -= fn.callFuel;
  if (fiber.fuel < 0) throw fuelFault(fiber);
  const newBase = fiber.sp - 1 - argc;
  if (newBase + fn.maxStack > fiber.stack.length) fiber.fuel = growStackCharged(fiber, newBase + fn.maxStack, fiber.fuel);
  fiber.frameIps[fc - 1] = returnIp;
  fiber.frameClosures[fc] = closure;
  fiber.frameBases[fc] = newBase;
  fiber.frameCount = fc + 1;
  // Not compiled (yet: it pays for its compile in fuel first), or too deep for the JS stack:
  // the interpreter runs the callee (and, after it, the rest of the callers).
  const compiled = fn.compiled !== null || ((fn.untilCompiled -= fn.callFuel) <= 0 && vm.tierUp(fn)) ? fn.compiled : null;
  if (compiled === null || fc >= COMPILED_DEPTH_LIMIT) {
    fiber.frameIps[fc] = 0;
    return UNWOUND;
  }
  return compiled(fiber, closure, newBase, 0) as CompiledStatus;
}
